import type { Dopri5 } from 'dopri/lib/dopri5/stepper.js';
import type { History } from './history.js';
import type { SolverStats } from './problem.js';

/** What a trial step needs besides the stepper and the history: tolerances, the smallest lag, the iteration cap. */
export interface TrialSettings {
  atol: number;
  rtol: number;
  /** The smallest delay: a longer step may read delayed values from inside itself. */
  minLag: number;
  /** Fixed-point iterations of a step longer than the lag before it is retried smaller. */
  maxIter: number;
  /** Component names for the blow-up message (y[i] without). */
  names: readonly string[] | undefined;
}

/**
 * One Dormand-Prince trial step [t, t + h] and its scaled error (Infinity for a non-finite state).
 * A step longer than the smallest lag whose stages read delayed values from inside the step (first
 * extrapolated) is iterated on its own dense output until those values settle (SolveOptions.constrained
 * explains when such steps are allowed); one whose delayed values were all final is explicit as it is.
 */
export class TrialStep {
  /** The first non-finite component of the last rejected step as `name = value` ('' after an accepted one). */
  blowUp = '';

  constructor(
    private readonly stepper: Dopri5,
    private readonly history: History,
    private readonly stats: SolverStats,
    private readonly settings: TrialSettings,
  ) {}

  /** The trial step from t with size hTry; returns its error (<= 1: acceptable). */
  run(t: number, hTry: number): number {
    const { stepper, history } = this;
    const { atol, rtol, minLag } = this.settings;
    history.unsettledReads = 0;
    history.invalidate();
    stepper.step(t, hTry);
    this.stats.steps++;
    let err = stepper.error(atol, rtol);
    // A NaN error estimate (a stage's rhs NaN while the 5th-order result stayed finite, e.g. a root of
    // a negative number at an extrapolated stage) is a non-finite step too: without this the step size
    // became NaN and every later attempt was rejected until the step budget ran out.
    if (!finite(stepper.yNext) || Number.isNaN(err)) err = this.nonFinite();
    if (err <= 1 && hTry > minLag && history.unsettledReads === 0) {
      // Longer than the smallest lag, but every delayed value the stages read was already final (the
      // actual lags exceed the step): the step is explicit as it stands, an iteration would repeat it.
      history.capture(stepper, t, hTry);
    } else if (err <= 1 && hTry > minLag) {
      err = this.iterateDelays(t, hTry, err);
    }
    return err;
  }

  /** Delayed values inside this step came from extrapolation: iterate on the step's own dense output until it settles. */
  private iterateDelays(t: number, hTry: number, err: number): number {
    const { stepper, history } = this;
    const { atol, rtol, maxIter } = this.settings;
    const n = stepper.yNext.length;
    for (let it = 0; it < maxIter && err <= 1; it++) {
      history.capture(stepper, t, hTry);
      stepper.step(t, hTry);
      this.stats.steps++;
      err = stepper.error(atol, rtol);
      if (!finite(stepper.yNext) || Number.isNaN(err)) err = this.nonFinite();
      let change = 0;
      for (let i = 0; i < n; i++) change = Math.max(change, Math.abs(stepper.yNext[i]! - history.capturedEnd(i)) / (atol + rtol * Math.abs(history.capturedEnd(i))));
      if (change <= 0.5) {
        history.capture(stepper, t, hTry); // event location inside this step reads the final iterate
        return err;
      }
    }
    return err <= 1 ? 2 : err; // retry smaller: the fixed point did not settle
  }

  /** Notes the component the attempt blew up in; the error the step is rejected with. */
  private nonFinite(): number {
    this.blowUp = firstNonFinite(this.stepper.yNext, this.settings.names);
    return Infinity;
  }
}

/** The first non-finite component of `a` as `name = value` (`y[i]` without names), or '' when all are finite. */
export function firstNonFinite(a: ArrayLike<number>, names: readonly string[] | undefined, prefix = ''): string {
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]!)) return `${prefix}${names?.[i] ?? `y[${i}]`} = ${a[i]}`;
  }
  return '';
}

function finite(a: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i]!)) return false;
  return true;
}
