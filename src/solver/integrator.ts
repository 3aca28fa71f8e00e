import { Dopri5 } from 'dopri/lib/dopri5/stepper.js';
import type { DdeProblem, EventRecord, SolveOptions, SolverStats } from './problem.js';
import { Box } from './bounds.js';
import { Propagation } from './propagate.js';
import { DenseOutput, denseTentative } from './dense.js';
import { EventMonitor } from './events.js';
import { History } from './history.js';
import { Solution } from './solution.js';
import { grownStep, initialStep, shrunkStep } from './control.js';
import { planStep, ulp, type StepPlan } from './landing.js';
import { firstNonFinite, TrialStep } from './trial.js';

/**
 * The integrator of a DDE (or ODE) problem, in the shape of DifferentialEquations.jl: {@link init}
 * builds it at t0, {@link Integrator.step} advances it by one accepted step (cut short at an event,
 * an echo or a forced stop), {@link Integrator.restartAt} restarts it after the state changed, and
 * {@link Integrator.finish} returns the Solution. `solve` is init plus stepping to the end, so a run
 * can also be stepped, inspected (`t`, `y`, `stats`, `events`) and resumed.
 *
 * The stepper is dopri's Dormand-Prince 5(4); this adds what the `dopri` package lacks: a history
 * function before t0, located state events with restarts, timed events, box constraints with sliding
 * (queue in [0, B]), discontinuity tracking through the delays, forced stops, and failure reporting
 * instead of throwing.
 *
 * Delays: with `constrained`, steps are capped at `minLagS` (method of steps), so a delayed value
 * y(t - tau), tau >= minLagS, always comes from an accepted step and the RK formula stays explicit,
 * even for state-dependent delays. By default longer steps are allowed and iterated on their own dense
 * output (see SolveOptions.constrained).
 * Never throws for numerical trouble: NaN/Inf or a collapsing step gives status 'failed' with the reason.
 * State and timed events (signs, location, firing, re-arming) are the EventMonitor's (events.ts).
 */
export class Integrator {
  /** Current time: the end of the accepted solution. */
  t: number;
  /**
   * Current state at `t`. A caller may change it between steps, and must then call
   * {@link restartAt}(t) so the integrator restarts from the new state.
   */
  readonly y: number[];
  status: 'ok' | 'failed' = 'ok';
  /** Why the run failed ('' while it has not). */
  message = '';
  readonly stats: SolverStats = { steps: 0, rejected: 0, rhsEvaluations: 0, events: 0 };
  /** Events fired so far, in firing order. */
  readonly events: EventRecord[] = [];
  /** Step size the controller proposes for the next step. */
  h: number;

  private readonly n: number;
  private readonly names: readonly string[] | undefined;
  private readonly t0: number;
  private readonly t1: number;
  private readonly hCap: number;
  private readonly hMin: number;
  private readonly maxSteps: number;
  private readonly dense: DenseOutput;
  private readonly box: Box;
  private readonly history: History;
  private readonly stepper: Dopri5;
  private readonly trial: TrialStep;
  private readonly watch: EventMonitor;
  private readonly prop: Propagation;
  private readonly stops: number[];
  private stopIdx = 0;
  private rejectedLast = false;
  private readonly yTmp: number[];
  /** The step being checked for events, read by `interp`. */
  private stepT = 0;
  private stepH = 0;

  constructor(problem: DdeProblem, opts: SolveOptions = {}) {
    const { n, tspan } = problem;
    const [t0, t1] = tspan;
    if (problem.y0.length !== n) throw new RangeError(`y0 has ${problem.y0.length} components, expected ${n}`);
    this.n = n;
    this.names = problem.names;
    this.t0 = t0;
    this.t1 = t1;
    const rtol = opts.rtol ?? 1e-6;
    const atol = opts.atol ?? 1e-6;
    const span = t1 - t0;
    const minLag = problem.minLagS ?? Infinity;
    const constrained = opts.constrained ?? false;
    this.hCap = Math.min(opts.maxStepS ?? Infinity, constrained ? minLag * (1 - 1e-9) : Infinity, span);
    this.hMin = opts.minStepS ?? 1e-12 * Math.max(1, Math.abs(span));
    this.maxSteps = opts.maxSteps ?? 1_000_000;

    this.dense = new DenseOutput(n);
    this.y = problem.y0.slice();
    this.t = t0;
    this.box = new Box(n, problem.bounds ?? []);
    this.history = new History(n, t0, this.dense, problem.y0, this.y, problem.history);
    const past = this.history.fn;
    const stats = this.stats;
    const box = this.box;
    const raw = new Array<number>(n).fill(0);
    const rhs = (t: number, yy: number[], dy: number[]): void => {
      stats.rhsEvaluations++;
      problem.rhs(t, yy, dy, past);
      box.project(dy);
    };
    const rawDerivative = (t: number, yy: ArrayLike<number>, i: number): number => {
      stats.rhsEvaluations++;
      if (problem.rhsComponent) return problem.rhsComponent(t, yy, i, past);
      problem.rhs(t, yy, raw, past);
      return raw[i]!;
    };
    this.rawDerivative = rawDerivative;
    const allEvents = [...(problem.events ?? []).map((e) => ({ ...e, active: () => true })), ...box.events(rawDerivative)];
    this.watch = new EventMonitor(allEvents, problem.timedEvents ?? [], this.y, past, stats, this.events);
    this.prop = new Propagation(problem.lags);
    this.stops = [...(problem.tstops ?? []), ...(problem.timedEvents ?? []).map((e) => e.atS)].filter((s) => s > t0 && s < t1).sort((a, b) => a - b);
    this.stepper = new Dopri5(rhs, n);
    this.trial = new TrialStep(this.stepper, this.history, stats, { atol, rtol, minLag, maxIter: opts.maxIterations ?? 6, names: this.names });
    this.yTmp = new Array<number>(n).fill(0);

    this.watch.fireInitial(t0);
    this.h = NaN;
    const bad = firstNonFinite(this.y, this.names);
    if (bad) {
      this.fail(`non-finite initial state: ${bad}`);
      return;
    }
    this.restartAt(t0, false);
    if (this.status === 'failed') return;
    this.h = Math.min(this.hCap, opts.firstStepS ?? initialStep(this.stepper.k1, this.y, atol, rtol, span));
  }

  /** Whether the integration is over (end reached, failed, or stopped by an event). */
  get done(): boolean {
    return !(this.t < this.t1) || this.status !== 'ok' || this.watch.stopped;
  }

  /**
   * Restart from (t, y) after the state changed there (an event's action, a flow starting, or a caller
   * editing `y`), or at a kink of the rhs: hold the bounded components the new state puts on a bound,
   * register the jump as a discontinuity whose echoes the solver will land on (`jump`, default: if
   * anything fired since the last restart), refresh the FSAL stage and every event's sign.
   * The integrator's time becomes t (it may only move by the few ulps of a landing margin).
   */
  restartAt(t: number, jump?: boolean, catchUp = false): void {
    this.t = t;
    this.history.invalidate();
    const y = this.y;
    this.box.settle(t, y, this.rawDerivative);
    if (jump ?? this.watch.jumped) this.prop.add(t, y);
    this.watch.jumped = false;
    this.stepper.reset(t, y);
    const bad = firstNonFinite(this.stepper.k1, this.names, 'd/dt ');
    if (bad) {
      this.fail(`non-finite derivative ${this.stats.steps === 0 ? 'at the start' : 'after an event'}: ${bad}`);
      return;
    }
    // On an echo, a crossing that settling the bounds completed fires here: restart past it.
    if (this.watch.restartAt(t, catchUp) && !this.watch.stopped) this.restartAt(t);
  }

  /**
   * Advance by one accepted step (rejected attempts are retried inside), which may end early at an
   * event, an echo of one through a delay, a timed event or a forced stop. Returns false once the
   * integration is done (see {@link done}).
   */
  step(): boolean {
    while (!this.done) if (this.attempt()) break;
    return !this.done;
  }

  /** Step until `t` reaches tEnd (or the run fails or stops). */
  run(): this {
    while (this.step());
    return this;
  }

  /** The solution so far: the dense trajectory over [t0, t], status and statistics. */
  finish(): Solution {
    return new Solution({
      dense: this.dense,
      yEnd: this.y,
      t0: this.t0,
      tEnd: this.t,
      status: this.status,
      message: this.message,
      stats: { ...this.stats },
      events: this.events.slice(),
      lo: this.box.lo,
      hi: this.box.hi,
    });
  }

  private readonly rawDerivative: (t: number, y: ArrayLike<number>, i: number) => number;

  private fail(why: string): void {
    this.status = 'failed';
    this.message = `${why} at t = ${this.t.toPrecision(6)}`;
  }

  /** Dense output of the tentative step [stepT, stepT + stepH] at s, every component (into a shared buffer). */
  private readonly interp = (s: number): number[] => {
    const st = this.stepper;
    const d4 = st.history.data;
    const n = this.n;
    for (let i = 0; i < n; i++) this.yTmp[i] = denseTentative(s, this.stepT, this.stepH, i, n, st.y, st.yNext, st.k1, st.k2, d4);
    return this.yTmp;
  };

  /** Move the accepted solution to (te, state of the step in progress at te), te inside that step. */
  private cutAt(te: number): void {
    const st = this.stepper;
    if (te > this.t) {
      this.dense.push(this.t, this.stepH, st.y, st.yNext, st.k1, st.k2, st.history.data, te);
      this.history.settle();
      const yE = this.interp(te);
      for (let i = 0; i < this.n; i++) this.y[i] = yE[i]!;
    }
    this.t = te;
    this.history.release();
  }

  /**
   * One attempted step: plan (landing targets), trial (with the delay iteration), then a rejection,
   * or event and echo location and the accept. Returns true when the solution advanced (or the run
   * ended), false on a rejection.
   */
  private attempt(): boolean {
    const { hMin, stops } = this;
    const t = this.t;
    if (this.stats.steps >= this.maxSteps) {
      this.fail(`step budget of ${this.maxSteps} exhausted`);
      return true;
    }
    while (this.stopIdx < stops.length && stops[this.stopIdx]! <= t) this.stopIdx++;
    const plan = planStep(t, Math.min(this.h, this.hCap), this.t1, this.stopIdx < stops.length ? stops[this.stopIdx]! : Infinity, this.prop);
    const { hTry, hProposed } = plan;
    if (hTry < hMin && !plan.landing) {
      // Shrunk by rejections of non-finite steps: say which component blew up, not just "collapse".
      this.fail(this.trial.blowUp ? `non-finite state (the model blew up): ${this.trial.blowUp}` : `step size collapse (h = ${hTry.toExponential(2)} s)`);
      return true;
    }
    const err = this.trial.run(t, hTry);
    if (!(err <= 1)) return this.reject(hTry, err);
    // Accepted, unless an event fires inside the step.
    this.trial.blowUp = '';
    const tNext = t + hTry;
    this.stepT = t;
    this.stepH = hTry;
    const nCand = this.watch.locate(t, tNext, hTry, this.stepper.yNext, this.interp);
    // An echo of an earlier event through a delay: cut the step there too (no action).
    const tEcho = this.prop.locate(t, tNext, this.stepper.yNext, this.interp, Math.max(1e-10 * hTry, 16 * ulp(tNext)));
    if (tEcho < this.watch.tEv && tEcho > t) {
      this.cutAt(tEcho);
      this.prop.advance(tEcho, this.y);
      this.watch.fireCrossed(tEcho);
      this.restartAt(tEcho, undefined, true);
      this.h = Math.max(hTry, hProposed); // the cut, not the error, shortened this step
      return true;
    }
    if (nCand > 0) return this.fireAtCrossing(nCand, hProposed);
    return this.accept(plan, err);
  }

  /** A rejected step: a smaller proposal, or the failure when the step cannot shrink further. Returns true when the run ended. */
  private reject(hTry: number, err: number): boolean {
    this.history.release();
    this.stats.rejected++;
    this.rejectedLast = true;
    if (hTry <= this.hMin) {
      this.fail(err === Infinity ? `non-finite state (the model blew up): ${this.trial.blowUp}` : 'step size collapse');
      return true;
    }
    this.h = shrunkStep(hTry, err);
    return false;
  }

  /**
   * Keep the step's polynomial but end it at the first crossing (tEv): the state there is the
   * interpolated one, on the far side of the crossing, so the event cannot fire twice; the crossings
   * that have happened by then fire (EventMonitor.fireAtCrossing), and the run restarts there.
   */
  private fireAtCrossing(nCand: number, hProposed: number): boolean {
    const t = this.watch.tEv;
    this.cutAt(t);
    const zeno = this.watch.fireAtCrossing(nCand, t);
    if (zeno) {
      this.fail(zeno);
      return true;
    }
    if (this.watch.stopped) return true;
    this.restartAt(t);
    this.h = Math.max(hProposed, this.hMin * 10);
    return true;
  }

  /** The step is accepted whole: dense output, the new state, echo and timed events at its end, the next proposal. */
  private accept(plan: StepPlan, err: number): boolean {
    const { n, stepper, history, prop, watch } = this;
    const { hTry, landing, onEcho } = plan;
    const t0 = this.t;
    const tNext = t0 + hTry;
    // Store the dense output before stepComplete overwrites y and k1 with the step's end values.
    this.dense.push(t0, hTry, stepper.y, stepper.yNext, stepper.k1, stepper.k2, stepper.history.data);
    history.settle();
    history.release();
    prop.advance(tNext, stepper.y);
    stepper.stepComplete(t0, hTry);
    const y = this.y;
    for (let i = 0; i < n; i++) y[i] = stepper.y[i]!;
    let t = (this.t = landing ? (onEcho ? plan.tTarget : plan.tStop) : tNext);
    // g at (tNext, yNext) was computed by the event check above (same t, same state: reuse it).
    watch.acceptAt(t, t === tNext);
    if (landing && onEcho) {
      t = plan.tEchoRaw + plan.ulps; // a 64-ulp shift of time, far below any tolerance
      // Drop the echo just stepped over (and any other that landed here): left pending, `locate` would
      // find it again a few ulps into the next step and cut that step there, wasting it whole.
      prop.advance(t, y);
      // An event whose switch sits on the echo (a hold-off ending one RTT after the event that caused
      // it) may have crossed between the last check and here: fire it now, or it would be missed.
      watch.fireCrossed(t);
      this.restartAt(t, undefined, true);
    }
    const timedFired = watch.fireTimed(t);
    if (watch.stopped) return true;
    if (timedFired) this.restartAt(t, true);
    // A forced stop without an event: restart on its right side (k1 was taken 32 ulps before it).
    else if (landing && !onEcho && plan.stopUlps > 0) this.restartAt(t, false);
    this.controlStep(plan, err);
    return true;
  }

  /** The next step's proposal after an accepted one (no growth right after a rejection). */
  private controlStep(plan: StepPlan, err: number): void {
    const { hTry, hProposed, landing } = plan;
    this.h = grownStep(hTry, err, this.rejectedLast);
    // A step cut short to land on a stop says nothing about the scale: keep the proposal from before.
    if (landing) this.h = Math.max(this.h, hProposed);
    this.rejectedLast = false;
  }
}

/** The integrator of `problem` at t0 (DifferentialEquations.jl's `init`). */
export function init(problem: DdeProblem, opts: SolveOptions = {}): Integrator {
  return new Integrator(problem, opts);
}

/**
 * Integrate `problem` over its tspan (`init`, then `step` to the end). Never throws for numerical
 * trouble: NaN/Inf or a collapsing step gives a Solution with status 'failed' and the reason.
 */
export function solve(problem: DdeProblem, opts: SolveOptions = {}): Solution {
  return init(problem, opts).run().finish();
}
