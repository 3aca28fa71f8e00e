import jStat from 'jstat';
import { linearRegression, mean, rSquared, sampleStandardDeviation } from 'simple-statistics';

/** Mean, sample standard deviation and Student-t 95% confidence interval of one quantity over replications. */
export interface Interval {
  n: number;
  mean: number;
  /** Sample standard deviation (n - 1); NaN when n < 2. */
  sd: number;
  /** mean -/+ t(0.975, n - 1) sd / sqrt(n); NaN when n < 2 (no spread to estimate from one run). */
  ci95Low: number;
  ci95High: number;
}

/** Two-sided Student-t quantile t(1 - alpha/2, n - 1); e.g. n = 5 → 2.776. */
export function tQuantile975(n: number): number {
  return jStat.studentt.inv(0.975, n - 1);
}

/** Summary of replications. Non-finite values (failed runs) must be filtered out by the caller. */
export function interval(values: readonly number[]): Interval {
  const n = values.length;
  if (n === 0) return { n, mean: NaN, sd: NaN, ci95Low: NaN, ci95High: NaN };
  const m = mean(values as number[]);
  if (n < 2) return { n, mean: m, sd: NaN, ci95Low: NaN, ci95High: NaN };
  const sd = sampleStandardDeviation(values as number[]);
  const half = (tQuantile975(n) * sd) / Math.sqrt(n);
  return { n, mean: m, sd, ci95Low: m - half, ci95High: m + half };
}

/** Median of replications with a distribution-free confidence interval from order statistics. */
export interface MedianInterval {
  n: number;
  median: number;
  /** x(k) and x(n + 1 - k) of the sorted values; NaN when n < 2. */
  low: number;
  high: number;
  /** P(low <= true median <= high) = 1 - 2 P(Bin(n, 1/2) <= k - 1): at least `level` when n >= 6. */
  coverage: number;
}

/**
 * The median and the narrowest order-statistic interval [x(k), x(n+1-k)] that covers the population
 * median with probability >= `level` whatever the distribution (Hahn & Meeker, Statistical
 * Intervals, 1991, sec. 5.2): e.g. n = 10 gives [x(2), x(9)], coverage 97.9%. Below n = 6 no such
 * interval reaches 95%: the range [min, max] is returned with its coverage (n = 5: 93.8%), so a
 * reader sees how sure it is. Replicated goodputs are skewed and sometimes bimodal (ns-3's own
 * runs are), so a median and this interval describe them better than a mean and a t interval.
 */
export function medianInterval(values: readonly number[], level = 0.95): MedianInterval {
  const x = [...values].sort((a, b) => a - b);
  const n = x.length;
  if (n === 0) return { n, median: NaN, low: NaN, high: NaN, coverage: 0 };
  const median = n % 2 === 1 ? x[(n - 1) / 2]! : (x[n / 2 - 1]! + x[n / 2]!) / 2;
  if (n < 2) return { n, median, low: NaN, high: NaN, coverage: 0 };
  const coverage = (k: number) => 1 - 2 * jStat.binomial.cdf(k - 1, n, 0.5);
  let k = 1;
  while (k + 1 <= Math.floor(n / 2) && coverage(k + 1) >= level) k++;
  return { n, median, low: x[k - 1]!, high: x[n - k]!, coverage: coverage(k) };
}

/** Power-law fit y = a x^b on log-log axes. */
export interface Elasticity {
  /** The exponent b = d log y / d log x. */
  slope: number;
  /** log(a) (natural log). */
  intercept: number;
  r2: number;
  /** Points used (positive x and y only). */
  n: number;
}

/**
 * Elasticity d log y / d log x by least squares on (ln x, ln y) (simple-statistics linearRegression).
 * Returns undefined with fewer than 2 usable points or no spread in x.
 */
export function elasticity(xs: readonly number[], ys: readonly number[]): Elasticity | undefined {
  const pts: [number, number][] = [];
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    if (x > 0 && y > 0 && Number.isFinite(x) && Number.isFinite(y)) pts.push([Math.log(x), Math.log(y)]);
  }
  if (pts.length < 2 || new Set(pts.map((p) => p[0])).size < 2) return undefined;
  const { m, b } = linearRegression(pts);
  const line = (x: number) => b + m * x;
  return { slope: m, intercept: b, r2: pts.length > 2 ? rSquared(pts, line) : 1, n: pts.length };
}
