import { describe, expect, it } from 'vitest';
import { elasticity, interval, tQuantile975 } from '../../src/runs/stats.js';

describe('interval', () => {
  it('tQuantile975(n) matches Student-t tables: n=2 12.706, n=5 2.776, n=10 2.262, n=31 2.042', () => {
    expect(tQuantile975(2)).toBeCloseTo(12.706, 3);
    expect(tQuantile975(5)).toBeCloseTo(2.776, 3);
    expect(tQuantile975(10)).toBeCloseTo(2.262, 3);
    expect(tQuantile975(31)).toBeCloseTo(2.042, 3);
  });
  it('interval([1..5]) has mean 3, sd sqrt(2.5) and half-width 2.776 sqrt(2.5)/sqrt(5)', () => {
    const r = interval([1, 2, 3, 4, 5]);
    expect(r.n).toBe(5);
    expect(r.mean).toBe(3);
    expect(r.sd).toBeCloseTo(Math.sqrt(2.5), 12);
    const half = (2.7764451 * Math.sqrt(2.5)) / Math.sqrt(5);
    expect(r.ci95Low).toBeCloseTo(3 - half, 6);
    expect(r.ci95High).toBeCloseTo(3 + half, 6);
  });
  it('interval of one value has a mean and no spread; of none, nothing', () => {
    expect(interval([7])).toEqual({ n: 1, mean: 7, sd: NaN, ci95Low: NaN, ci95High: NaN });
    expect(interval([]).n).toBe(0);
  });
});

describe('elasticity', () => {
  it('elasticity recovers the exponents of y = 3 x^-0.5 and y = 2 x^-0.75 exactly', () => {
    const xs = [1e-5, 1e-4, 1e-3, 1e-2, 1e-1];
    const a = elasticity(xs, xs.map((x) => 3 * x ** -0.5))!;
    expect(a.slope).toBeCloseTo(-0.5, 12);
    expect(Math.exp(a.intercept)).toBeCloseTo(3, 10);
    expect(a.r2).toBeCloseTo(1, 12);
    expect(elasticity(xs, xs.map((x) => 2 * x ** -0.75))!.slope).toBeCloseTo(-0.75, 12);
  });
  it('elasticity skips non-positive values and needs two distinct x', () => {
    expect(elasticity([1, 10, 100], [0, 1, 0.1])!.n).toBe(2);
    expect(elasticity([1, 1], [1, 2])).toBeUndefined();
    expect(elasticity([1], [1])).toBeUndefined();
  });
});

describe('jainIndex', () => {
  it('jainIndex is 1 for equal shares and 1/n when one flow takes all', async () => {
    const { jainIndex } = await import('../../src/sweep/csv.js');
    expect(jainIndex([5, 5, 5, 5])).toBe(1);
    expect(jainIndex([8, 0, 0, 0])).toBe(0.25);
    expect(jainIndex([1, 3])).toBeCloseTo(16 / 20, 12);
  });
});

describe('medianInterval', () => {
  it('medianInterval(values) of n = 10 is [x(2), x(9)] with coverage 1 - 2 x 11/1024 = 97.85%', async () => {
    const { medianInterval } = await import('../../src/runs/stats.js');
    const r = medianInterval([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]);
    expect(r).toMatchObject({ n: 10, median: 5.5, low: 2, high: 9 });
    expect(r.coverage).toBeCloseTo(1 - (2 * 11) / 1024, 12);
    // [x(3), x(8)] would cover only 1 - 2 x 56/1024 = 89%: not narrowed that far.
  });
  it('medianInterval(values) of n = 5 falls back to the range, coverage 1 - 2/32 = 93.75%; n = 1 has no interval', async () => {
    const { medianInterval } = await import('../../src/runs/stats.js');
    expect(medianInterval([3, 1, 2, 5, 4])).toEqual({ n: 5, median: 3, low: 1, high: 5, coverage: 1 - 2 / 32 });
    const one = medianInterval([7]);
    expect(one.median).toBe(7);
    expect(one.low).toBeNaN();
    expect(medianInterval([]).median).toBeNaN();
  });
  it('medianInterval(values) of n = 30 is [x(10), x(21)] (coverage 95.7%, [x(11), x(20)] only 90.1%)', async () => {
    const { medianInterval } = await import('../../src/runs/stats.js');
    const r = medianInterval(Array.from({ length: 30 }, (_, i) => i + 1));
    expect([r.low, r.high]).toEqual([10, 21]);
    expect(r.coverage).toBeGreaterThanOrEqual(0.95);
    expect(r.coverage).toBeCloseTo(0.9572, 4);
  });
});
