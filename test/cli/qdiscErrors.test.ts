import { writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

/** Bad queue-discipline input: one line on stderr naming the field and the accepted range, exit 2, no stack. */
async function expectBadQueue(queueYaml: string, pattern: RegExp): Promise<void> {
  const dir = tempDir('cclab-qdisc-');
  const file = join(dir, 'q.yaml');
  writeFileSync(file, `bottleneck:\n  queue: ${queueYaml}\n`);
  const r = await cli(['simulate', '--scenario', file, '--duration', '1s']);
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

describe('cclab simulate: queue discipline bad input', () => {
  it('an unknown kind lists the known ones', async () => {
    await expectBadQueue('{kind: sfq}', /q.yaml: bottleneck.queue.kind must be one of droptail, red, codel, fq_codel, pie[a-z_, ]*, got 'sfq'/);
  });
  it('CoDel and FQ-CoDel: target at or above the interval', async () => {
    await expectBadQueue('{kind: codel, targetS: 0.1}', /bottleneck.queue.targetS must be below intervalS \(0.1\), got 0.1/);
    await expectBadQueue('{kind: fq_codel, targetS: 0.02, intervalS: 0.01}', /bottleneck.queue.targetS must be below intervalS \(0.01\), got 0.02/);
    await expectBadQueue('{kind: codel, intervalS: 0}', /bottleneck.queue.intervalS must be in \(0, 100\], got 0/);
  });
  it('PIE: alpha and beta outside (0, 2] Hz', async () => {
    await expectBadQueue('{kind: pie, alpha: 3}', /bottleneck.queue.alpha must be in \(0, 2\], got 3/);
    await expectBadQueue('{kind: pie, beta: 0}', /bottleneck.queue.beta must be in \(0, 2\], got 0/);
    await expectBadQueue('{kind: pie, beta: -1.25}', /bottleneck.queue.beta must be in \(0, 2\], got -1.25/);
  });
  it('a parameter of another discipline is not a known key', async () => {
    await expectBadQueue('{kind: pie, intervalS: 0.1}', /bottleneck.queue.intervalS is not a known key \(known: kind, limitPackets, targetS, tUpdateS, alpha, beta, maxBurstS, markEcnThreshold, ecn\)/);
  });
});
