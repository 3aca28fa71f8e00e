import { describe, expect, it } from 'vitest';
import { cli } from './cliHarness.js';

/** BBR from the command line: the packet engine runs it; the commands that need a fluid model say it has none. */
describe('cclab with bbr', () => {
  it('simulate --variant bbr (also with --sack off) and --flow-variants cubic,bbr run', async () => {
    const one = await cli(['simulate', '--variant', 'bbr', '--scenario', 'normal', '--duration', '1s', '--json']);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout).goodputBps).toBeGreaterThan(1e6);
    expect((await cli(['simulate', '--variant', 'bbr', '--sack', 'off', '--duration', '1s', '--json'])).code).toBe(0);
    const mixed = await cli(['simulate', '--scenario', 'normal', '--flows', '2', '--start-stagger', '0s', '--flow-variants', 'cubic,bbr', '--duration', '1s', '--json']);
    expect(mixed.code).toBe(0);
  });

  it.each([
    [['predict', '--variant', 'bbr']],
    [['predict', '--scenario', 'normal', '--flows', '2', '--start-stagger', '0s', '--flow-variants', 'cubic,bbr']],
    [['compare', '--variants', 'cubic,bbr', '--duration', '1s']],
  ])('%j: one line, exit 2: no fluid model yet', async (args) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    // (A preset's path warning may come first.)
    const errors = r.stderr.trim().split('\n').filter((l) => l.startsWith('cclab: error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^cclab: error: variant bbr: no fluid model yet \(packet engine only\)/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('bad BBR knobs name the flag and the range', async () => {
    const r = await cli(['simulate', '--variant', 'bbr', '--cc-param', 'highGain=0']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('cclab: error: --cc-param highGain must be in [1.01, 10] (ratio), got 0');
    const w = await cli(['simulate', '--variant', 'bbr', '--cc-param', 'bwWindowRounds=0']);
    expect(w.stderr.trim()).toBe('cclab: error: --cc-param bwWindowRounds must be in [1, 1000] (count), got 0');
  });

  it('list shows bbr as rate-based, packet engine only', async () => {
    const r = await cli(['list', 'variants']);
    expect(r.stdout).toMatch(/^bbr\s+rate\s+RFC 6675 SACK; NewReno partial ACKs \(RFC 6582\)\s+packet \(no fluid model yet\)/m);
  });
});
