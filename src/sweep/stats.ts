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
