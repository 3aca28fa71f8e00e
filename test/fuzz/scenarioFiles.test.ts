import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUZZ_SEED, scenarioCase, validScenarioCase } from './arbitraries.js';
import { changedPaths, cli, sandbox, treeDigest, violation } from './harness.js';

/**
 * Random scenario files (the template with wrong types, awkward numbers, unknown and prototype-named
 * keys, junk flows and queue kinds, truncated text) through `simulate --print-scenario`: each ends
 * in exit 0 or in exit 2 with one line naming a field, in bounded time; what must be refused is.
 * An accepted file prints a scenario that, read back, prints the same (nothing dropped on the way).
 */
describe('fuzz: scenario files', () => {
  const dir = sandbox();
  let n = 0;

  it('250 mutated files: exit 0 or one-line exit 2, refused when invalid, accepted ones round-trip', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(scenarioCase(), async (c) => {
        const f = join(dir, `s${n++}${c.ext}`);
        writeFileSync(f, c.text);
        const r = await cli(['simulate', '--scenario', f, '--print-scenario']);
        const v = violation(r, { maxMs: 2000, mustFail: c.expect === 'refuse' });
        if (v) throw new Error(`${v} for ${c.what}: ${r.stderr.trim()}`);
        if (r.code === 0) {
          accepted++;
          const again = join(dir, `s${n++}.json`);
          writeFileSync(again, r.stdout);
          const r2 = await cli(['simulate', '--scenario', again, '--print-scenario']);
          expect(r2.code, r2.stderr).toBe(0);
          // The name comes from the file name; everything else must survive the round trip.
          expect({ ...JSON.parse(r2.stdout), name: '' }).toEqual({ ...JSON.parse(r.stdout), name: '' });
        }
      }),
      { seed: FUZZ_SEED, numRuns: 250 },
    );
    // The generator is not all-bad: some files are valid, so acceptance is exercised too.
    expect(accepted).toBeGreaterThan(5);
  });

  it('6 valid files run on both engines (exit 0, results written, nothing else touched)', async () => {
    const before = treeDigest(dir);
    let k = 0;
    await fc.assert(
      fc.asyncProperty(validScenarioCase(), fc.constantFrom('simulate', 'predict'), async (c, command) => {
        const f = join(dir, `v${k}${c.ext}`);
        writeFileSync(f, c.text);
        const out = join(dir, `out-${k++}`);
        const r = await cli([command, '--scenario', f, '--json', '--out', out]);
        const v = violation(r, { maxMs: 15_000 });
        if (v || r.code !== 0) throw new Error(`${v ?? `exit ${r.code}`} for ${command} ${c.what}: ${r.stderr.trim()}`);
        const summary = JSON.parse(r.stdout) as { status: string; goodputBps: number };
        expect(summary.status).toBe('ok');
        expect(summary.goodputBps).toBeGreaterThan(0);
        before.set(f, 'new input');
      }),
      { seed: FUZZ_SEED, numRuns: 6 },
    );
    // Only the inputs and the --out folders are new.
    const changed = changedPaths(before, treeDigest(dir)).filter((p) => !/\/(v\d+\.(json|yaml)|out-\d+(\/.*)?)$/.test(p));
    expect(changed).toEqual([]);
  });
});
