import type { Dopri5 } from 'dopri/lib/dopri5/stepper.js';
import type { PastFn } from './problem.js';
import { denseTentative } from './dense.js';
import type { DenseOutput } from './dense.js';

/**
 * The history function of the DDE, i.e. the solution's past as the rhs sees it: the history function before t0, the accepted dense output
 * up to `settledUntil`, and beyond it (delayed values that fall inside a step longer than the lag)
 * the step in progress: first extrapolated from the last accepted step, then, once `capture` has
 * saved the tentative step, its own dense output (fixed-point iteration, see SolveOptions.constrained).
 */
export class History {
  readonly fn: PastFn;
  /**
   * Look-ups beyond the accepted solution (extrapolated or from the step in progress) since the last
   * reset: a step longer than the lag whose stages made none computed with final values only, and
   * needs no fixed-point iteration.
   */
  unsettledReads = 0;
  private tent = false;
  private tentT = 0;
  private tentH = 0;
  private readonly tY: number[];
  private readonly tYN: number[];
  private readonly tK1: number[];
  private readonly tK7: number[];
  private readonly tD: number[];
  constructor(
    private readonly n: number,
    t0: number,
    private readonly hist: DenseOutput,
    y0: readonly number[],
    /** The solver's live state (the start of the step in progress), read before any step is accepted. */
    yNow: readonly number[],
    history?: (s: number, i: number) => number,
  ) {
    this.tY = new Array<number>(n).fill(0);
    this.tYN = new Array<number>(n).fill(0);
    this.tK1 = new Array<number>(n).fill(0);
    this.tK7 = new Array<number>(n).fill(0);
    this.tD = new Array<number>(5 * n).fill(0);
    const initial = y0.slice();
    const self = this;
    const fn = Object.assign(
      (s: number, i: number): number => {
        if (s < t0) return history ? history(s, i) : initial[i]!;
        if (s <= fn.settledUntil && hist.length > 0) return hist.at(s, i);
        self.unsettledReads++;
        if (self.tent) return denseTentative(s, self.tentT, self.tentH, i, n, self.tY, self.tYN, self.tK1, self.tK7, self.tD);
        // First pass of a long step: extrapolate the last accepted step's polynomial (or hold y).
        return hist.length > 0 ? hist.at(s, i) : yNow[i]!;
      },
      {
        settledUntil: t0,
        epoch: 0,
        // The branches of fn, decided once for all components (fn's choice depends on s alone).
        fill: (s: number, out: { [i: number]: number }, idx?: ArrayLike<number>): void => {
          const m = idx ? idx.length : n;
          if (s < t0) {
            for (let j = 0; j < m; j++) {
              const i = idx ? idx[j]! : j;
              out[i] = history ? history(s, i) : initial[i]!;
            }
            return;
          }
          const fromHist = s <= fn.settledUntil && hist.length > 0;
          if (!fromHist) self.unsettledReads++;
          if (!fromHist && self.tent) {
            for (let j = 0; j < m; j++) {
              const i = idx ? idx[j]! : j;
              out[i] = denseTentative(s, self.tentT, self.tentH, i, n, self.tY, self.tYN, self.tK1, self.tK7, self.tD);
            }
          } else if (hist.length > 0) {
            if (idx) hist.atSome(s, out, idx);
            else hist.atAll(s, out);
          } else {
            for (let j = 0; j < m; j++) {
              const i = idx ? idx[j]! : j;
              out[i] = yNow[i]!;
            }
          }
        },
      },
    );
    this.fn = fn;
  }

  /** Save the stepper's tentative step [ts, ts + hs] as the dense output inside the step in progress. */
  capture(stepper: Dopri5, ts: number, hs: number): void {
    const n = this.n;
    for (let i = 0; i < n; i++) {
      this.tY[i] = stepper.y[i]!;
      this.tYN[i] = stepper.yNext[i]!;
      this.tK1[i] = stepper.k1[i]!;
      this.tK7[i] = stepper.k2[i]!;
      this.tD[4 * n + i] = stepper.history.data[4 * n + i]!;
    }
    this.tentT = ts;
    this.tentH = hs;
    this.tent = true;
    this.fn.epoch++;
  }

  /** Component i at the end of the captured tentative step (to measure the iteration's change). */
  capturedEnd(i: number): number {
    return this.tYN[i]!;
  }

  /** The step in progress was accepted, rejected or cut: forget its tentative data. */
  release(): void {
    this.tent = false;
    this.fn.epoch++;
  }

  /** The live state or the last accepted step changed: values beyond the accepted solution may differ. */
  invalidate(): void {
    this.fn.epoch++;
  }

  /** Everything up to the end of the accepted history is final. */
  settle(): void {
    this.fn.settledUntil = this.hist.tEnd;
    this.tent = false;
    this.fn.epoch++;
  }
}
