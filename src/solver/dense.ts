/**
 * Dense output of accepted steps, for delayed look-ups and for the final Solution.
 * Each step keeps dopri's 5 coefficient blocks of Shampine's (1986) continuous extension of
 * Dormand-Prince 5(4) (the layout of dopri's `HistoryElement`), stored flat in one growable
 * Float64Array: look-ups allocate nothing, which matters because the rhs reads the past ~6x per step.
 */
export class DenseOutput {
  private t0s: number[] = [];
  private hs: number[] = [];
  /** Where each step's validity ends: t + h, or earlier when an event cut the step short. */
  private ends: number[] = [];
  private data: Float64Array;
  private count = 0;
  /** Index of the last step a look-up landed in: delayed times move forward, so this is usually it. */
  private hint = 0;

  constructor(readonly n: number) {
    this.data = new Float64Array(5 * n * 64);
  }

  get length(): number {
    return this.count;
  }

  get tStart(): number {
    return this.count > 0 ? this.t0s[0]! : NaN;
  }

  get tEnd(): number {
    return this.count > 0 ? this.ends[this.count - 1]! : NaN;
  }

  /** Step start times (the solver's mesh, without the final point). */
  stepStarts(): readonly number[] {
    return this.t0s;
  }

  /**
   * Append the step [t, t + h] from the stepper's arrays: y at t, y at t + h, k1 = f(t, y),
   * k7 = f(t + h, y_next) (dopri's FSAL stage, in `k2` after a step) and the 5th block written by
   * dopri's step() (`dense4`). Mirrors dopri's private `saveHistory`. `end` < t + h keeps the step's
   * polynomial but ends its validity early (an event cut the step there).
   */
  push(t: number, h: number, y: ArrayLike<number>, yNext: ArrayLike<number>, k1: ArrayLike<number>, k7: ArrayLike<number>, dense4: ArrayLike<number>, end = t + h): void {
    const n = this.n;
    const need = (this.count + 1) * 5 * n;
    if (need > this.data.length) {
      const bigger = new Float64Array(Math.max(need, this.data.length * 2));
      bigger.set(this.data);
      this.data = bigger;
    }
    const base = this.count * 5 * n;
    const d = this.data;
    for (let i = 0; i < n; i++) {
      const ydiff = yNext[i]! - y[i]!;
      const bspl = h * k1[i]! - ydiff;
      d[base + i] = y[i]!;
      d[base + n + i] = ydiff;
      d[base + 2 * n + i] = bspl;
      d[base + 3 * n + i] = -h * k7[i]! + ydiff - bspl;
      d[base + 4 * n + i] = dense4[4 * n + i]!;
    }
    this.t0s.push(t);
    this.hs.push(h);
    this.ends.push(end);
    this.count++;
  }

  /** Index of the step containing s (clamped to the first/last step). */
  private find(s: number): number {
    const ts = this.t0s;
    const last = this.count - 1;
    let k = this.hint;
    if (k <= last && ts[k]! <= s && (k === last || ts[k + 1]! > s)) return k;
    if (k < last && ts[k + 1]! <= s && (k + 1 === last || ts[k + 2]! > s)) {
      this.hint = k + 1;
      return k + 1;
    }
    let lo = 0;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ts[mid]! <= s) lo = mid;
      else hi = mid - 1;
    }
    this.hint = lo;
    return lo;
  }

  /** Component i at time s; s must lie within [tStart, tEnd] (slightly beyond extrapolates the nearest step). */
  at(s: number, i: number): number {
    const k = this.find(s);
    return this.evalStep(k, s, i);
  }

  /** Every component at time s into `out` (one search for all components). */
  atAll(s: number, out: { [i: number]: number }): void {
    this.atSome(s, out);
  }

  /**
   * Components `idx` (default all) at time s into `out`, with one step search and theta computed once
   * (evalStep's formula); the other entries of `out` are left as they are.
   */
  atSome(s: number, out: { [i: number]: number }, idx?: ArrayLike<number>): void {
    const k = this.find(s);
    const n = this.n;
    const base = k * 5 * n;
    const d = this.data;
    const theta = (s - this.t0s[k]!) / this.hs[k]!;
    const theta1 = 1 - theta;
    const m = idx ? idx.length : n;
    for (let j = 0; j < m; j++) {
      const i = idx ? idx[j]! : j;
      const b = base + i;
      out[i] = d[b]! + theta * (d[b + n]! + theta1 * (d[b + 2 * n]! + theta * (d[b + 3 * n]! + theta1 * d[b + 4 * n]!)));
    }
  }

  /** Component i at s, using step k's polynomial (k must contain s, or be adjacent). */
  evalStep(k: number, s: number, i: number): number {
    const n = this.n;
    const base = k * 5 * n;
    const d = this.data;
    const theta = (s - this.t0s[k]!) / this.hs[k]!;
    const theta1 = 1 - theta;
    return d[base + i]! + theta * (d[base + n + i]! + theta1 * (d[base + 2 * n + i]! + theta * (d[base + 3 * n + i]! + theta1 * d[base + 4 * n + i]!)));
  }
}

/**
 * Evaluate, at time s inside a tentative step [t, t + h], component i of dopri's continuous extension,
 * without storing the step: used to locate events before the step is accepted.
 */
export function denseTentative(
  s: number,
  t: number,
  h: number,
  i: number,
  n: number,
  y: ArrayLike<number>,
  yNext: ArrayLike<number>,
  k1: ArrayLike<number>,
  k7: ArrayLike<number>,
  dense4: ArrayLike<number>,
): number {
  const ydiff = yNext[i]! - y[i]!;
  const bspl = h * k1[i]! - ydiff;
  const c3 = -h * k7[i]! + ydiff - bspl;
  const theta = (s - t) / h;
  const theta1 = 1 - theta;
  return y[i]! + theta * (ydiff + theta1 * (bspl + theta * (c3 + theta1 * dense4[4 * n + i]!)));
}
