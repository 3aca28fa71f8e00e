import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { MAX_RANGE_COUNT, parseRange } from '../../src/runs/range.js';
import { FUZZ_SEED, rangeText, unitKind } from './arbitraries.js';
import { cli, violation } from './harness.js';

/**
 * Sweep ranges from a grammar of numbers (decimal, hex, exponents, signs, non-finite), units,
 * `..`, `:lin|log:count` with any count and comma lists: parseRange returns distinct finite values,
 * at most MAX_RANGE_COUNT, positive on a log scale, or throws an InputError naming the flag; and
 * `cclab sweep --dry-run` with such ranges answers in bounded time, never building a huge grid.
 */
describe('fuzz: sweep ranges', () => {
  it('parseRange on 2000 range texts: distinct finite values within the count limit, or an InputError naming the flag', () => {
    fc.assert(
      fc.property(rangeText, unitKind, (text, kind) => {
        const t0 = performance.now();
        let values: number[];
        try {
          values = parseRange('--x', text, kind);
        } catch (e) {
          if (!(e instanceof InputError) || e.field !== '--x') throw e;
          expect(performance.now() - t0).toBeLessThan(500);
          return;
        }
        expect(performance.now() - t0).toBeLessThan(500);
        expect(values.length).toBeGreaterThan(0);
        expect(values.length).toBeLessThanOrEqual(MAX_RANGE_COUNT);
        expect(new Set(values).size).toBe(values.length);
        for (const v of values) expect(Number.isFinite(v)).toBe(true);
        if (kind === 'integer') for (const v of values) expect(Number.isInteger(v)).toBe(true);
        if (/:log:/i.test(text)) for (const v of values) expect(v).toBeGreaterThan(0);
      }),
      { seed: FUZZ_SEED, numRuns: 2000 },
    );
  });

  it('sweep --dry-run with 150 random range sets: a count or one-line exit 2, in under 2 s', async () => {
    const flags = ['--loss', '--rtt', '--bandwidth', '--flows', '--buffer', '--buffer-bdp'];
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(flags, { minLength: 1, maxLength: 3 }).chain((fs) => fc.tuple(...fs.map((f) => rangeText.map((r) => [f, r] as const)))),
        fc.constantFrom('1', '5', '1000000000'),
        async (pairs, reps) => {
          const argv = ['sweep', '--dry-run', '--no-cache', '--engines', 'fluid', '--variants', 'reno', '--max-runs', '2000', '--reps', reps, ...pairs.flatMap(([f, r]) => [f, r])];
          const r = await cli(argv);
          const v = violation(r, { maxMs: 2000 });
          if (v) throw new Error(`${v}\n  cclab ${argv.join(' ')}`);
          if (r.code === 0) {
            const m = /= (\d+) runs/.exec(r.stdout);
            expect(m, r.stdout).not.toBeNull();
            expect(Number(m![1])).toBeLessThanOrEqual(2000);
          }
        },
      ),
      { seed: FUZZ_SEED, numRuns: 150 },
    );
  });
});
