import { writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { presetScenario } from '../../src/scenario/presets.js';
import { hasEngine } from '../../src/variants.js';
import { cli, cclabProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

/** The CLI contract for bad input: one line on stderr naming the field and what is accepted, exit 2, no stack. */
async function expectBadInput(args: string[], pattern: RegExp): Promise<void> {
  const r = await cli(args);
  expect(r.code).toBe(2);
  // Warnings about the scenario (e.g. ECN over a queue that never marks) may come first.
  const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('cclab: warning: '));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('cclab simulate: bad input', () => {
  it('unknown variant names the accepted ones', async () => {
    await expectBadInput(['simulate', '--variant', 'vegas'], /--variant must be one of tahoe, reno, newreno, westwood, cubic, dctcp, bbr, bbr3, got 'vegas'/);
  });
  it('dctcp without ECN: exit 2 naming tcp.ecn (or --ecn) and the reason', async () => {
    await expectBadInput(['simulate', '--variant', 'dctcp', '--duration', '1'], /^cclab: error: command line: tcp\.ecn must be true to run dctcp: it reacts to ECN marks, not loss alone \(RFC 8257\); add --ecn on or tcp\.ecn: true$/);
    await expectBadInput(['simulate', '--variant', 'dctcp', '--ecn', 'off', '--duration', '1'], /^cclab: error: --ecn must be true to run dctcp/);
    await expectBadInput(['simulate', '--flows', '2', '--flow-variants', 'reno,dctcp', '--duration', '1'], /tcp\.ecn must be true to run dctcp \(flow 1\)/);
    await expectBadInput(['simulate', '--ecn', 'maybe'], /--ecn.*'maybe'.*on, off|argument 'maybe' is invalid/);
  });
  it('dctcp on the fluid engine: predict says "no model" while it has none (exit 0), validate refuses it by the flag', async () => {
    const r = await cli(['predict', '--variant', 'dctcp', '--ecn', 'on', '--duration', '1', '--access-bandwidth', '10Gbps']);
    expect(r.code).toBe(0);
    if (!hasEngine('dctcp', 'fluid')) {
      expect(r.stdout).toContain('fluid model      none: no fluid model of dctcp yet (packet engine only)');
      await expectBadInput(['validate', '--variants', 'dctcp', '--dry-run'], /--variants/);
    }
  });
  it('dctcp on the fluid engine without ECN: exit 2 with the reason, as on the packet engine', async () => {
    await expectBadInput(['predict', '--variant', 'dctcp', '--duration', '1'], /^cclab: error: command line: tcp\.ecn must be true to run dctcp/);
  });
  it('ECN over a queue that never marks: a warning naming the queue, not an error', async () => {
    const r = await cli(['simulate', '--ecn', 'on', '--duration', '1', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('cclab: warning: tcp.ecn is on but the bottleneck queue (droptail) never marks CE, so ECN changes nothing; use a marking discipline');
    expect((await cli(['simulate', '--duration', '1', '--json'])).stderr).not.toContain('tcp.ecn');
  });
  it('unknown preset', async () => {
    await expectBadInput(['simulate', '--scenario', 'wan'], /--scenario must be one of normal, lfn, lossy, ns3-normal, ns3-lfn, ns3-lossy or a .json\/.yaml file, got 'wan'/);
  });
  it('zero or negative bandwidth', async () => {
    await expectBadInput(['simulate', '--bandwidth', '0Mbps'], /--bandwidth must be a rate > 0, got 0/);
    await expectBadInput(['simulate', '--bandwidth', '-5Mbps'], /--bandwidth must be a rate > 0/);
  });
  it('loss outside [0, 1)', async () => {
    await expectBadInput(['simulate', '--loss', '1'], /--loss must be in \[0, 1\), got 1/);
    await expectBadInput(['simulate', '--loss', '-0.1'], /--loss must be in \[0, 1\)/);
  });
  it('unknown flag', async () => {
    await expectBadInput(['simulate', '--bogus'], /unknown option '--bogus'/);
  });
  it('missing, malformed and misspelt scenario files', async () => {
    const dir = tempDir('cclab-cli-');
    await expectBadInput(['simulate', '--scenario', join(dir, 'none.yaml')], /--scenario cannot read file/);
    writeFileSync(join(dir, 'bad.json'), '{"durationS": ');
    await expectBadInput(['simulate', '--scenario', join(dir, 'bad.json')], /bad.json: \(file\) is not valid JSON/);
    writeFileSync(join(dir, 'typo.yaml'), 'durationS: 10\nbottleneck:\n  delay: 0.1\n');
    await expectBadInput(['simulate', '--scenario', join(dir, 'typo.yaml')], /typo.yaml: bottleneck.delay is not a known key/);
  });
});

describe('cclab simulate: scenario resolution', () => {
  it('--print-scenario shows the preset with the flags applied', async () => {
    const r = await cli(['simulate', '--scenario', 'ns3-lfn', '--variant', 'cubic', '--duration', '500s', '--seed', '7', '--print-scenario']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(presetScenario('ns3-lfn', 'cubic', { durationS: 500, seed: 7 }));
  });
  it('every loss flag takes a percentage; MBps is megabytes per second', async () => {
    const r = await cli(['simulate', '--scenario', 'ns3-lossy', '--loss', '2%', '--bandwidth', '1MBps', '--print-scenario']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.bottleneck.loss.rate).toBeCloseTo(0.02, 15);
    expect(s.bottleneck.bandwidthBps).toBe(8e6);
  });
  it('warns when the nominal bottleneck is not the tightest link (--bandwidth 1Gbps on ns3-lfn keeps the 10 Mbit/s access link)', async () => {
    const r = await cli(['simulate', '--scenario', 'ns3-lfn', '--bandwidth', '1Gbps', '--print-scenario']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^cclab: warning: the bottleneck link \(1\.000 Gbit\/s\) is not the tightest link on ns3-lfn: the access link runs at 10\.00 Mbit\/s, so goodput is capped near 8\.629 Mbit\/s; raise it with --access-bandwidth\n$/);
    const ok = await cli(['simulate', '--scenario', 'ns3-lfn', '--bandwidth', '1Gbps', '--access-bandwidth', '10Gbps', '--print-scenario']);
    expect(ok.stderr).toBe('');
    // The study's lines are their own bottleneck, also with --bandwidth (the access link follows, 10x);
    // ns3-normal's own 10 Mbit/s access link is what the preset is for: no warning either.
    for (const args of [[], ['--bandwidth', '1Gbps'], ['--scenario', 'lfn'], ['--scenario', 'ns3-normal']]) expect((await cli(['simulate', ...args, '--print-scenario'])).stderr).toBe('');
  });
  it('--help exits 0 and lists the overrides', async () => {
    const r = await cli(['simulate', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--bandwidth', '--delay', '--loss', '--flows', '--duration', '--mss', '--queue', '--seed', '--json', '--out']) {
      expect(r.stdout).toContain(flag);
    }
  });
});

describe('cclab as a process (end to end)', () => {
  it('bad input: exit code 2 and one line on stderr, no stack trace', () => {
    const r = cclabProcess(['simulate', '--loss', '1.5']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('cclab: error: --loss must be in [0, 1), got 1.5');
  });
  it('--help exits 0 and lists every command', () => {
    const r = cclabProcess(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['simulate', 'predict', 'compare', 'report', 'sweep', 'merge', 'list']) expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
  });
});
