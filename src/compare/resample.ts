import type { Series } from '../result/types.js';

/**
 * How a recorded series is read between its samples.
 * - `step`: the value holds until the next sample (the packet engine's cwnd changes only at events).
 * - `linear`: straight line between samples (the fluid engine's solution is continuous).
 */
export type Interpolation = 'step' | 'linear';

/** `n` evenly spaced times from `fromS` to `toS` inclusive (n >= 2), or `[fromS]` when the window is empty. */
export function uniformGrid(fromS: number, toS: number, n: number): number[] {
  if (!(toS > fromS) || n < 2) return [fromS];
  const dt = (toS - fromS) / (n - 1);
  const grid = new Array<number>(n);
  for (let i = 0; i < n; i++) grid[i] = fromS + i * dt;
  grid[n - 1] = toS; // avoid round-off past the end
  return grid;
}

/**
 * Values of `s` at the (ascending) times `grid`. Before the first sample the first value is used,
 * after the last the last: both engines record from the flow's start, so this only pads edges.
 * One pass over both arrays: O(len(s) + len(grid)).
 */
export function resample(s: Series, grid: readonly number[], how: Interpolation): number[] {
  const out = new Array<number>(grid.length);
  const n = s.t.length;
  if (n === 0) return out.fill(Number.NaN);
  let j = 0; // s.t[j] <= g < s.t[j+1] once g is inside the series
  for (let i = 0; i < grid.length; i++) {
    const g = grid[i]!;
    while (j + 1 < n && s.t[j + 1]! <= g) j++;
    if (g <= s.t[0]!) out[i] = s.v[0]!;
    else if (j + 1 >= n) out[i] = s.v[n - 1]!;
    else if (how === 'step') out[i] = s.v[j]!;
    else {
      const t0 = s.t[j]!;
      const t1 = s.t[j + 1]!;
      const w = t1 > t0 ? (g - t0) / (t1 - t0) : 0;
      out[i] = s.v[j]! + w * (s.v[j + 1]! - s.v[j]!);
    }
  }
  return out;
}

/** Time-weighted mean of a series over [fromS, toS] (trapezoid for linear, rectangle for step). */
export function timeAverage(s: Series, fromS: number, toS: number, how: Interpolation, n = 4001): number {
  const grid = uniformGrid(fromS, toS, n);
  const v = resample(s, grid, how);
  if (v.length === 1) return v[0]!;
  let acc = 0;
  for (let i = 1; i < v.length; i++) acc += how === 'step' ? v[i - 1]! : (v[i - 1]! + v[i]!) / 2;
  return acc / (v.length - 1);
}
