import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, FUZZ_SEED, writeCliFixtures } from './arbitraries.js';
import { changedPaths, cli, sandbox, treeDigest, violation } from './harness.js';

/**
 * Random flag vectors for every command: each flag drawn with a valid value, a garbage value
 * (hex, prototype names, huge counts, empty, non-finite) or none. Whatever the vector, the command
 * ends in a valid run (exit 0), a failed run reported as such (exit 3), or exit 2 with one line
 * naming a field; within a time bound; and a refused command changes nothing on disk.
 * Valid values are chosen so that a valid run is short (durations of a second, slow links).
 */

const dir = sandbox('cclab-fuzz-cli-');
const cwd = process.cwd();
beforeAll(() => {
  // Defaults such as `reports/<name>` and `.cache/runs` are relative: keep them inside the sandbox.
  process.chdir(dir);
  writeCliFixtures(dir);
});
afterAll(() => process.chdir(cwd));

describe('fuzz: command-line flag vectors', () => {
  it('every command, 200 vectors: valid run, exit 3 with its line, or one-line exit 2; a refusal writes nothing', async () => {
    // Two finished shard folders to merge: one intact, one with a tampered sweep.json.
    for (const [name, loss] of [['shard-ok', '1e-3'], ['shard-tampered', '1e-3']] as const) {
      const r = await cli(['sweep', '--engines', 'fluid', '--duration', '1s', '--variants', 'reno', '--loss', loss, '--workers', '0', '--quiet', '--no-report', '--no-cache', '--out', name]);
      expect(r.code, r.stderr).toBe(0);
    }
    const m = join(dir, 'shard-tampered', 'sweep.json');
    writeFileSync(m, readFileSync(m, 'utf8').replace('"reps": 5', '"reps": "five"'));
    const outcomes = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(COMMANDS, async ({ argv, maxMs }) => {
        const before = treeDigest(dir);
        const r = await cli(argv);
        outcomes.set(r.code, (outcomes.get(r.code) ?? 0) + 1);
        const v = violation(r, { maxMs, allowRunFailed: true });
        if (v) throw new Error(`${v}\n  cclab ${argv.join(' ')}`);
        if (r.code !== 0) {
          const changed = changedPaths(before, treeDigest(dir)).map((p) => relative(dir, p));
          if (changed.length > 0) throw new Error(`exit ${r.code} but changed ${changed.join(', ')}\n  cclab ${argv.join(' ')}`);
        }
      }),
      { seed: FUZZ_SEED, numRuns: 200 },
    );
    // Both outcomes occur: the vectors are neither all valid nor all refused.
    expect(outcomes.get(0) ?? 0).toBeGreaterThan(10);
    expect(outcomes.get(2) ?? 0).toBeGreaterThan(100);
  });
});
