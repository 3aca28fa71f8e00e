import { findRoot } from './roots.js';

/**
 * Propagation of discontinuities through the delays (first order). A jump or kink at time te (an
 * event, a bound hit, a flow start) reappears in the rhs where a delayed argument reaches it:
 * where t - lag_j(t, y(t)) = te, for each declared lag j (state-dependent: the RTT grows with the
 * queue). Locating those points and restarting there spares the error controller a discontinuity it
 * would otherwise meet with ever smaller steps (DelayDiffEq.jl's discontinuity tracking; MATLAB dde23
 * for constant lags). Higher orders are smooth enough for the 5th-order method at our tolerances.
 */
export class Propagation {
  private readonly te: number[] = [];
  private readonly lag: number[] = [];
  private readonly gPrev: number[] = [];
  /** te + lag(te): where the echo lands if the lag stays constant (it does while the queue is pinned). */
  private readonly predicted: number[] = [];

  constructor(
    private readonly lags: ((t: number, y: ArrayLike<number>) => ArrayLike<number>) | undefined,
    /** Bound on pending points (a lossy hybrid run fires hundreds of events; each echo lives one lag). */
    private readonly maxPending = 64,
  ) {}

  /** Register a discontinuity at te, where the state (after any jump) is y. */
  add(te: number, y: ArrayLike<number>): void {
    if (!this.lags) return;
    const l = this.lags(te, y);
    for (let j = 0; j < l.length; j++) {
      if (this.te.length >= this.maxPending) this.remove(0);
      this.te.push(te);
      this.lag.push(j);
      this.gPrev.push(-l[j]!);
      this.predicted.push(te + l[j]!);
    }
  }

  /** The earliest echo in (t, tNext], or Infinity. `interp(s)` is the state inside the step. */
  locate(t: number, tNext: number, yNext: ArrayLike<number>, interp: (s: number) => ArrayLike<number>, tol: number): number {
    if (!this.lags || this.te.length === 0) return Infinity;
    let best = Infinity;
    const lNext = this.lags(tNext, yNext);
    for (let k = 0; k < this.te.length; k++) {
      const te = this.te[k]!;
      const j = this.lag[k]!;
      const ga = this.gPrev[k]!;
      const gb = tNext - lNext[j]! - te;
      if (!(ga < 0 && gb >= 0)) continue;
      const root = findRoot((s) => s - this.lags!(s, interp(s))[j]! - te, t, tNext, ga, gb, tol);
      if (root < best) best = root;
    }
    return best;
  }

  /** After the solution reached t with state y: update the signs, drop echoes already passed. */
  advance(t: number, y: ArrayLike<number>): void {
    if (!this.lags || this.te.length === 0) return;
    const l = this.lags(t, y);
    for (let k = this.te.length - 1; k >= 0; k--) {
      const g = t - l[this.lag[k]!]! - this.te[k]!;
      if (g >= 0) this.remove(k);
      else this.gPrev[k] = g;
    }
  }

  /**
   * The earliest predicted echo after t: the solver ends its step there, so it does not straddle the
   * kink (rejected steps creeping up on it cost more than the kink itself). `locate` still finds the
   * exact point when the lag moved meanwhile.
   */
  nextPredicted(t: number): number {
    let best = Infinity;
    for (const p of this.predicted) if (p > t && p < best) best = p;
    return best;
  }

  private remove(k: number): void {
    this.te.splice(k, 1);
    this.lag.splice(k, 1);
    this.gPrev.splice(k, 1);
    this.predicted.splice(k, 1);
  }
}
