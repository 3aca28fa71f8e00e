import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapPacketEngine } from '../../src/engines.js';
import type { RunResult } from '../../src/result/types.js';
import { cli } from './cliHarness.js';

/** Issue 22: outputs that agree with themselves, warnings after errors, no warning by default. */

const dir = mkdtempSync(join(tmpdir(), 'cclab-outputs-'));
const cwd = process.cwd();
beforeAll(() => process.chdir(dir));
afterAll(() => process.chdir(cwd));

describe('outputs that agree with themselves (issue 22)', () => {
  it('simulate, predict, compare and sweep --dry-run with no flags print no warning', async () => {
    // simulate and compare both run the default scenario (100 s) in the packet engine: the second gets
    // the first's result (a copy) instead of simulating again. Same seed, same result byte for byte
    // (scripts/fingerprint.ts), so compare prints what it would print after its own run.
    const made = new Map<string, RunResult>();
    let calls = 0;
    wrapPacketEngine((runPacket) => (s) => {
      calls++;
      const key = JSON.stringify(s);
      if (!made.has(key)) made.set(key, runPacket(s));
      return structuredClone(made.get(key)!);
    });
    try {
      for (const args of [['simulate'], ['predict'], ['compare'], ['sweep', '--dry-run']]) {
        const r = await cli(args);
        expect(r.code, args.join(' ')).toBe(0);
        expect(r.stderr, args.join(' ')).toBe('');
      }
    } finally {
      wrapPacketEngine(undefined);
    }
    // Both commands ran the one default scenario.
    expect([calls, made.size]).toEqual([2, 1]);
  }, 300_000);

  it('a bare --bandwidth 100 is warned about as 100 bit/s, and a bad flag beside it is the only line', async () => {
    const r = await cli(['simulate', '--bandwidth', '100', '--print-scenario']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^cclab: warning: --bandwidth 100 is 100 bit\/s \(a number without a unit is bit\/s\): did you mean 100Mbps\?\n/);
    expect((await cli(['simulate', '--delay', '2', '--print-scenario'])).stderr).toContain('--delay 2 is 2 s');
    expect((await cli(['simulate', '--bandwidth', '100Mbps', '--delay', '20ms', '--print-scenario'])).stderr).toBe('');
    const bad = await cli(['simulate', '--bandwidth', '100', '--loss', '2', '--print-scenario']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('cclab: error: --loss must be in [0, 1), got 2\n');
    // A report refuses a bad --workers before it warns about anything.
    const rep = await cli(['report', '--scenarios', 'ns3-lfn', '--bandwidth', '1Gbps', '--variants', 'reno', '--duration', '4s', '--workers', 'abc']);
    expect(rep.stderr).toBe("cclab: error: --workers must be a whole number (e.g. 4), got 'abc'\n");
  });

  it('validate --dry-run counts grid points (not points x variants) and gives the cache and a time estimate, as sweep does', async () => {
    const r = await cli(['validate', '--dry-run', '--variants', 'reno,cubic', '--loss', '1e-3,1e-2', '--rtt', '20ms,50ms,100ms', '--reps', '2']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^6 points \(2 losses x 3 RTTs\) x 2 variants x \(2 packet \+ 1 fluid.*\) = \d+ runs, \d+ s simulated$/);
    const m = /^(\d+) distinct \(identical runs share one result\): (\d+) cached in \.cache\/runs, (\d+) to compute$/.exec(lines[1]!);
    expect(m, lines[1]).not.toBeNull();
    expect(Number(m![2]) + Number(m![3])).toBe(Number(m![1]));
    expect(lines[2]).toMatch(/^estimated time: .+ on \d+ workers? \(/);
  });

  it("compare's footnote names the units its cells use; list variants says what the recovery ids mean", async () => {
    const r = await cli(['compare', '--scenario', 'ns3-lossy', '--variants', 'reno', '--duration', '10s']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('goodput with its unit in each cell (bit/s, kbit/s, Mbit/s, Gbit/s)');
    expect(r.stdout).not.toContain('goodput in bit/s;');
    // On lossy the column shows PFTK: no note about Mathis' validity.
    expect(r.stdout).toMatch(/\(pftk/i);
    expect(r.stdout).not.toMatch(/^\[\d+\] closed-form: Mathis/m);
    const v = await cli(['list', 'variants']);
    expect(v.stdout).toMatch(/^reno\s.*RFC 6675 SACK; NewReno partial ACKs \(RFC 6582\)/m);
    expect(v.stdout).toMatch(/^tahoe\s.*slow start after every loss \(Tahoe\)/m);
  });
});
