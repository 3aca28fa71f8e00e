import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { MAX_RANGE_COUNT, parseRange, type UnitKind } from '../../src/sweep/range.js';
import { FUZZ_SEED } from './arbitraries.js';
import { cli, violation } from './harness.js';

/**
 * Sweep ranges from a grammar of numbers (decimal, hex, exponents, signs, non-finite), units,
 * `..`, `:lin|log:count` with any count and comma lists: parseRange returns distinct finite values,
 * at most MAX_RANGE_COUNT, positive on a log scale, or throws an InputError naming the flag; and
 * `cclab sweep --dry-run` with such ranges answers in bounded time, never building a huge grid.
 */
const num = fc.oneof(
  fc.constantFrom('0', '1', '-1', '1e-5', '1e-1', '.5', '5.', '1e400', '-0', '0x10', '0b1', 'NaN', 'Infinity', '1e', 'e5', '', '+2', '1_0'),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map(String),
  fc.integer({ min: 0, max: 1e6 }).map(String),
);
const unit = fc.constantFrom('', '', 'ms', 's', 'us', 'min', 'Mbps', 'kbps', 'Gbit/s', '%', 'bogus', ' ms', 'MS');
const value = fc.tuple(num, unit).map(([n, u]) => n + u);
// Counts at and past the limit are rare: a 10,000-point range takes ~30 ms to compute.
const count = fc.oneof(
  { arbitrary: fc.integer({ min: -2, max: 20 }).map(String), weight: 12 },
  { arbitrary: fc.constantFrom('10000', '10001', '10000000', '99999999999999999999', '1.5', ''), weight: 1 },
);
const rangeText = fc.oneof(
  fc.tuple(value, value, fc.constantFrom('lin', 'log', 'LOG', 'cubic'), count).map(([a, b, s, c]) => `${a}..${b}:${s}:${c}`),
  fc.array(value, { minLength: 1, maxLength: 6 }).map((vs) => vs.join(',')),
  fc.tuple(value, value).map(([a, b]) => `${a}..${b}`),
  fc.string({ maxLength: 20 }),
);
const unitKind = fc.constantFrom<UnitKind>('number', 'duration', 'rate', 'integer');

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
