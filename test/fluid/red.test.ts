import { cpSync, readFileSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { Scenario } from '../../src/scenario/types.js';
import { applyRtt } from '../../src/runs/scenarioAxes.js';
import { tempDir } from '../helpers/tmp.js';

/** The dumbbell (100 Mbit/s, one NewReno flow) with RED on its bottleneck: thresholds at 1/4 and 3/4 of the buffer. */
function red(weight: number, rttS: number): Scenario {
  const s = dumbbellScenario('newreno');
  applyRtt(s, rttS);
  s.durationS = 60;
  const L = s.bottleneck.queue.limitPackets;
  s.bottleneck.queue = { kind: 'red', limitPackets: L, minThPackets: L / 4, maxThPackets: (3 * L) / 4, maxP: 0.1, weight, gentle: false };
  return s;
}

/** A copy of models/ whose bottleneck integrates RED's average whatever its speed (qssRatio 0). */
function integratingModels(): string {
  const dir = tempDir('cclab-red-');
  cpSync(new URL('../../models', import.meta.url), dir, { recursive: true });
  const f = join(dir, 'bottleneck.model.yaml');
  const text = readFileSync(f, 'utf8');
  expect(text).toMatch(/qssRatio: \{ unit: "1", default: 0\.25,/);
  writeFileSync(f, text.replace(/qssRatio: \{ unit: "1", default: 0\.25,/, 'qssRatio: { unit: "1", default: 0,'));
  return dir;
}

describe('RED with a fast average (the EWMA slaved to the queue)', () => {
  it('weight 1 (allowed by the schema) solves: no NaN at t = 0, and agrees with weight 0.5', () => {
    const one = runFluid(red(1, 0.024));
    const half = runFluid(red(0.5, 0.024));
    expect(one.status).toBe('ok');
    expect(Number.isFinite(one.summary.goodputBps)).toBe(true);
    expect(one.summary.meanCwndSegments / half.summary.meanCwndSegments).toBeCloseTo(1, 2);
  });
  it('weight 0.5 costs at most 3x drop-tail\'s steps (it took 105x stepping through the average)', () => {
    const s = red(0.5, 0.024);
    const dropTail = runFluid({ ...s, bottleneck: { ...s.bottleneck, queue: { kind: 'droptail', limitPackets: s.bottleneck.queue.limitPackets } } });
    const r = runFluid(s);
    expect(r.stats.solver!.steps).toBeLessThan(3 * dropTail.stats.solver!.steps);
  });
  it('the slow-manifold average q - tauv dq/dt gives the integrated EWMA\'s means within 0.5% (weight 0.05, tauv = 0.023 RTT)', () => {
    const s = red(0.05, 0.1);
    const slaved = runFluid(s);
    const integrated = runFluid(s, { modelsDir: integratingModels() });
    expect(slaved.status).toBe('ok');
    expect(integrated.status).toBe('ok');
    expect(Math.abs(slaved.summary.meanCwndSegments / integrated.summary.meanCwndSegments - 1)).toBeLessThan(0.005);
    expect(Math.abs(slaved.summary.goodputBps / integrated.summary.goodputBps - 1)).toBeLessThan(0.005);
    expect(slaved.stats.solver!.steps * 10).toBeLessThan(integrated.stats.solver!.steps);
  });
});

describe('goodput counts what leaves the queue', () => {
  it('never exceeds the tightest link\'s payload rate x (1 - p), even when the buffer is still full at the end (RTT 1 ms)', async () => {
    const { pathPayloadCapacityBps } = await import('../../src/scenario/path.js');
    for (const p of [0, 1e-4]) {
      const s = dumbbellScenario('newreno');
      applyRtt(s, 0.001);
      s.bottleneck.loss.rate = p;
      const r = runFluid(s);
      // The queue (202 packets, far above the 8-packet BDP) fills and stays full: arrivals counted as
      // deliveries used to put goodput 2.3e-4 above the line.
      expect(r.summary.goodputBps / (pathPayloadCapacityBps(s) * (1 - p))).toBeLessThanOrEqual(1 + 1e-9);
      expect(r.summary.goodputBps / (pathPayloadCapacityBps(s) * (1 - p))).toBeGreaterThan(0.99);
    }
  });
});
