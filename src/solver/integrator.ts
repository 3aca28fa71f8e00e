import { Dopri5 } from 'dopri/lib/dopri5/stepper.js';
import type { DdeProblem, EventRecord, PastFn, SolveOptions, SolverStats } from './problem.js';
import { Box, Rearm } from './bounds.js';
import type { ActiveEvent } from './bounds.js';
import { Propagation } from './propagate.js';
import { DenseOutput, denseTentative } from './dense.js';
import { History } from './history.js';
import { findRoot, crossed } from './roots.js';
import { Solution } from './solution.js';
import { ERR_EXPONENT, MAX_FACTOR, MIN_FACTOR, SAFETY, initialStep } from './control.js';
import { planStep, sortCandidates, ulp, type StepPlan } from './landing.js';

/** Rounds of events at one instant beyond which the run is a modelling loop (Zeno), not progress. */
const MAX_EVENTS_AT_ONE_TIME = 50;

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
  /** The first non-finite component of the last rejected step ('' after an accepted one). */
  private blowUp = '';
  private readonly t0: number;
  private readonly t1: number;
  private readonly rtol: number;
  private readonly atol: number;
  private readonly minLag: number;
  private readonly hCap: number;
  private readonly hMin: number;
  private readonly maxIter: number;
  private readonly maxSteps: number;
  private readonly dense: DenseOutput;
  private readonly box: Box;
  private readonly history: History;
  private readonly past: PastFn;
  private readonly stepper: Dopri5;
  private readonly allEvents: ActiveEvent[];
  private readonly rearm: Rearm;
  private readonly prop: Propagation;
  private readonly stops: number[];
  private readonly timed: NonNullable<DdeProblem['timedEvents']>;
  private stopIdx = 0;
  private timedIdx = 0;
  /** g of each active event at (t, y) (NaN when inactive). */
  private readonly gPrev: Float64Array;
  /** g of each active event at the end of the step being checked. */
  private readonly gNext: Float64Array;
  /** Events whose g crosses zero inside the step being checked, and where (filled per step). */
  private readonly candIdx: Int32Array;
  private readonly candRoot: Float64Array;
  private rejectedLast = false;
  private sameTimeEvents = 0;
  private lastEventT = NaN;
  /** An action ended the run ('stop'). */
  private stopped = false;
  /** Whether something fired since the last restart changed what the delayed terms see. */
  private jumped = false;
  private readonly yTmp: number[];
  /** The step being checked for events, read by `interp`. */
  private stepT = 0;
  private stepH = 0;
  /** The first root among the candidates of the step being checked (Infinity: none). */
  private tEv = Infinity;

  constructor(problem: DdeProblem, opts: SolveOptions = {}) {
    const { n, tspan } = problem;
    const [t0, t1] = tspan;
    if (problem.y0.length !== n) throw new RangeError(`y0 has ${problem.y0.length} components, expected ${n}`);
    this.n = n;
    this.names = problem.names;
    this.t0 = t0;
    this.t1 = t1;
    this.rtol = opts.rtol ?? 1e-6;
    this.atol = opts.atol ?? 1e-6;
    const span = t1 - t0;
    this.minLag = problem.minLagS ?? Infinity;
    const constrained = opts.constrained ?? false;
    this.hCap = Math.min(opts.maxStepS ?? Infinity, constrained ? this.minLag * (1 - 1e-9) : Infinity, span);
    this.maxIter = opts.maxIterations ?? 6;
    this.hMin = opts.minStepS ?? 1e-12 * Math.max(1, Math.abs(span));
    this.maxSteps = opts.maxSteps ?? 1_000_000;

    this.dense = new DenseOutput(n);
    this.y = problem.y0.slice();
    this.t = t0;
    this.box = new Box(n, problem.bounds ?? []);
    this.history = new History(n, t0, this.dense, problem.y0, this.y, problem.history);
    const past = (this.past = this.history.fn);
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
    this.allEvents = [...(problem.events ?? []).map((e) => ({ ...e, active: () => true })), ...box.events(rawDerivative)];
    const m = this.allEvents.length;
    this.gPrev = new Float64Array(m);
    this.gNext = new Float64Array(m);
    this.candIdx = new Int32Array(m);
    this.candRoot = new Float64Array(m);
    this.rearm = new Rearm(this.allEvents);
    this.prop = new Propagation(problem.lags);
    this.stops = [...(problem.tstops ?? []), ...(problem.timedEvents ?? []).map((e) => e.atS)].filter((s) => s > t0 && s < t1).sort((a, b) => a - b);
    this.timed = [...(problem.timedEvents ?? [])].sort((a, b) => a.atS - b.atS);
    this.stepper = new Dopri5(rhs, n);
    this.yTmp = new Array<number>(n).fill(0);

    // Timed events at t0 itself (e.g. a flow starting at time 0): part of the initial state, no echo.
    while (this.timedIdx < this.timed.length && this.timed[this.timedIdx]!.atS <= t0) {
      const ev = this.timed[this.timedIdx++]!;
      ev.action(t0, this.y);
      this.record(ev.name, t0);
    }
    this.h = NaN;
    const bad = this.firstNonFinite(this.y);
    if (bad) {
      this.fail(`non-finite initial state: ${bad}`);
      return;
    }
    this.restartAt(t0, false);
    if (this.status === 'failed') return;
    this.h = Math.min(this.hCap, opts.firstStepS ?? initialStep(this.stepper.k1, this.y, this.atol, this.rtol, span));
  }

  /** Whether the integration is over (end reached, failed, or stopped by an event). */
  get done(): boolean {
    return !(this.t < this.t1) || this.status !== 'ok' || this.stopped;
  }

  /**
   * Restart from (t, y) after the state changed there (an event's action, a flow starting, or a caller
   * editing `y`), or at a kink of the rhs: hold the bounded components the new state puts on a bound,
   * register the jump as a discontinuity whose echoes the solver will land on (`jump`, default: if
   * anything fired since the last restart), refresh the FSAL stage and every event's sign.
   * The integrator's time becomes t (it may only move by the few ulps of a landing margin).
   */
  restartAt(t: number, jump?: boolean): void {
    this.t = t;
    this.history.invalidate();
    const y = this.y;
    this.box.settle(t, y, this.rawDerivative);
    if (jump ?? this.jumped) this.prop.add(t, y);
    this.jumped = false;
    this.stepper.reset(t, y);
    const bad = this.firstNonFinite(this.stepper.k1, 'd/dt ');
    if (bad) {
      this.fail(`non-finite derivative ${this.stats.steps === 0 ? 'at the start' : 'after an event'}: ${bad}`);
      return;
    }
    const ev = this.allEvents;
    for (let k = 0; k < ev.length; k++) {
      this.gPrev[k] = ev[k]!.active() ? ev[k]!.g(t, y, this.past) : NaN;
      // An action that moved g clearly back (L >= 1 -> L = 0) re-arms its event at once.
      this.rearm.observe(k, this.gPrev[k]!);
    }
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

  /** Notes the component a non-finite step attempt blew up in; the error the step is rejected with. */
  private nonFiniteStep(): number {
    this.blowUp = this.firstNonFinite(this.stepper.yNext);
    return Infinity;
  }

  /** The first non-finite component of `a` as `name = value`, or '' when all are finite. */
  private firstNonFinite(a: ArrayLike<number>, prefix = ''): string {
    for (let i = 0; i < a.length; i++) {
      if (!Number.isFinite(a[i]!)) return `${prefix}${this.names?.[i] ?? `y[${i}]`} = ${a[i]}`;
    }
    return '';
  }

  private record(name: string, t: number): void {
    this.stats.events++;
    this.events.push({ name, t });
  }

  /** Fire state event k at (t, y): it stays disarmed until its g is back on the near side. */
  private fire(k: number, t: number): void {
    const ev = this.allEvents[k]!;
    this.rearm.disarm(k, this.gPrev[k]!);
    this.record(ev.name, t);
    if (ev.action(t, this.y) === 'stop') this.stopped = true;
    if (ev.propagates ?? true) this.jumped = true;
  }

  /** Fire, in index order, every armed event whose g has crossed since the last check (at a restart point). */
  private fireCrossed(t: number): void {
    const ev = this.allEvents;
    for (let k = 0; k < ev.length && !this.stopped; k++) {
      const e = ev[k]!;
      if (!e.active() || !this.rearm.armed(k)) continue;
      if (crossed(this.gPrev[k]!, e.g(t, this.y, this.past), e.direction, e.strict ?? false)) this.fire(k, t);
    }
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
      this.fail(this.blowUp ? `non-finite state (the model blew up): ${this.blowUp}` : `step size collapse (h = ${hTry.toExponential(2)} s)`);
      return true;
    }
    const err = this.trial(t, hTry);
    if (!(err <= 1)) return this.reject(hTry, err);
    // Accepted, unless an event fires inside the step.
    this.blowUp = '';
    const tNext = t + hTry;
    this.stepT = t;
    this.stepH = hTry;
    const nCand = this.locateEvents(t, tNext, hTry);
    // An echo of an earlier event through a delay: cut the step there too (no action).
    const tEcho = this.prop.locate(t, tNext, this.stepper.yNext, this.interp, Math.max(1e-10 * hTry, 16 * ulp(tNext)));
    if (tEcho < this.tEv && tEcho > t) {
      this.cutAt(tEcho);
      this.prop.advance(tEcho, this.y);
      this.fireCrossed(tEcho);
      this.restartAt(tEcho);
      this.h = Math.max(hTry, hProposed); // the cut, not the error, shortened this step
      return true;
    }
    if (nCand > 0) return this.fireAtCrossing(nCand, hProposed);
    return this.accept(plan, err);
  }

  /** The Dormand-Prince step [t, t + h] and its error (Infinity for a non-finite state), iterated on delays read from inside it. */
  private trial(t: number, hTry: number): number {
    const { atol, rtol, stepper, history, minLag } = this;
    history.unsettledReads = 0;
    history.invalidate();
    stepper.step(t, hTry);
    this.stats.steps++;
    let err = stepper.error(atol, rtol);
    // A NaN error estimate (a stage's rhs NaN while the 5th-order result stayed finite, e.g. a root of
    // a negative number at an extrapolated stage) is a non-finite step too: without this the step size
    // became NaN and every later attempt was rejected until the step budget ran out.
    if (!finite(stepper.yNext) || Number.isNaN(err)) err = this.nonFiniteStep();
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
    const { n, atol, rtol, stepper, history } = this;
    for (let it = 0; it < this.maxIter && err <= 1; it++) {
      history.capture(stepper, t, hTry);
      stepper.step(t, hTry);
      this.stats.steps++;
      err = stepper.error(atol, rtol);
      if (!finite(stepper.yNext) || Number.isNaN(err)) err = this.nonFiniteStep();
      let change = 0;
      for (let i = 0; i < n; i++) change = Math.max(change, Math.abs(stepper.yNext[i]! - history.capturedEnd(i)) / (atol + rtol * Math.abs(history.capturedEnd(i))));
      if (change <= 0.5) {
        history.capture(stepper, t, hTry); // event location inside this step reads the final iterate
        return err;
      }
    }
    return err <= 1 ? 2 : err; // retry smaller: the fixed point did not settle
  }

  /** A rejected step: a smaller proposal, or the failure when the step cannot shrink further. Returns true when the run ended. */
  private reject(hTry: number, err: number): boolean {
    this.history.release();
    this.stats.rejected++;
    this.rejectedLast = true;
    if (hTry <= this.hMin) {
      this.fail(err === Infinity ? `non-finite state (the model blew up): ${this.blowUp}` : 'step size collapse');
      return true;
    }
    this.h = hTry * (err === Infinity ? 0.1 : Math.max(MIN_FACTOR, SAFETY * Math.pow(err, -ERR_EXPONENT)));
    return false;
  }

  /**
   * g of every active event at the step's end (the next gPrev if the step is accepted as it is), and
   * the roots of the armed ones that cross inside it: candidates in candIdx/candRoot, the first in tEv.
   * Returns the number of candidates.
   */
  private locateEvents(t: number, tNext: number, hTry: number): number {
    const { allEvents: events, gPrev, gNext, rearm, candIdx, candRoot, stepper, past } = this;
    let nCand = 0;
    this.tEv = Infinity;
    for (let k = 0; k < events.length; k++) {
      const ev = events[k]!;
      if (!ev.active()) {
        gNext[k] = NaN;
        continue;
      }
      // Disarmed events too: if the step is accepted as it is, these are the next gPrev.
      const gb = ev.g(tNext, stepper.yNext, past);
      gNext[k] = gb;
      if (!rearm.armed(k)) continue;
      const ga = gPrev[k]!;
      if (!crossed(ga, gb, ev.direction, ev.strict ?? false)) continue;
      // Tolerance: relative to the step, but never below a few ulps of t (else t + tol === t).
      const tol = Math.max(1e-10 * hTry, 16 * ulp(tNext));
      const root = findRoot((s) => ev.g(s, this.interp(s), past), t, tNext, ga, gb, tol);
      candIdx[nCand] = k;
      candRoot[nCand++] = root;
      if (root < this.tEv) this.tEv = root;
    }
    return nCand;
  }

  /**
   * Keep the step's polynomial but end it at the first crossing (tEv): the state there is the
   * interpolated one, on the far side of the crossing, so the event cannot fire twice. Every crossing
   * of this step that has happened by tEv fires now, in time order (ties in index order), each checked
   * on the state the previous actions left: identical flows cross together, and each must fire
   * (restarting past the others would lose them). Later crossings are found again by the steps after
   * the restart.
   */
  private fireAtCrossing(nCand: number, hProposed: number): boolean {
    const { allEvents: events, candIdx, candRoot, rearm, gPrev, past } = this;
    const t = this.tEv;
    this.cutAt(t);
    this.sameTimeEvents = t === this.lastEventT ? this.sameTimeEvents + 1 : 0;
    this.lastEventT = t;
    sortCandidates(candIdx, candRoot, nCand);
    if (this.sameTimeEvents > MAX_EVENTS_AT_ONE_TIME) {
      this.fail(`event '${events[candIdx[0]!]!.name}' keeps firing at one instant (Zeno behaviour)`);
      return true;
    }
    this.fire(candIdx[0]!, t);
    for (let c = 1; c < nCand && !this.stopped; c++) {
      const k = candIdx[c]!;
      const ev = events[k]!;
      if (ev.active() && rearm.armed(k) && crossed(gPrev[k]!, ev.g(t, this.y, past), ev.direction, ev.strict ?? false)) this.fire(k, t);
    }
    if (this.stopped) return true;
    this.restartAt(t);
    this.h = Math.max(hProposed, this.hMin * 10);
    return true;
  }

  /** The step is accepted whole: dense output, the new state, echo and timed events at its end, the next proposal. */
  private accept(plan: StepPlan, err: number): boolean {
    const { n, stepper, history, prop, past } = this;
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
    const same = t === tNext;
    const events = this.allEvents;
    for (let k = 0; k < events.length; k++) {
      this.gPrev[k] = events[k]!.active() ? (same ? this.gNext[k]! : events[k]!.g(t, y, past)) : NaN;
      this.rearm.observe(k, this.gPrev[k]!);
    }
    if (landing && onEcho) {
      t = plan.tEchoRaw + plan.ulps; // a 64-ulp shift of time, far below any tolerance
      // Drop the echo just stepped over (and any other that landed here): left pending, `locate` would
      // find it again a few ulps into the next step and cut that step there, wasting it whole.
      prop.advance(t, y);
      // An event whose switch sits on the echo (a hold-off ending one RTT after the event that caused
      // it) may have crossed between the last check and here: fire it now, or it would be missed.
      this.fireCrossed(t);
      this.restartAt(t);
    }
    const timedFired = this.fireTimed(t);
    if (this.stopped) return true;
    if (timedFired) this.restartAt(t, true);
    // A forced stop without an event: restart on its right side (k1 was taken 32 ulps before it).
    else if (landing && !onEcho && plan.stopUlps > 0) this.restartAt(t, false);
    this.controlStep(plan, err);
    return true;
  }

  /** Timed events exactly at t (this step's end). Returns whether any fired. */
  private fireTimed(t: number): boolean {
    let timedFired = false;
    while (!this.stopped && this.timedIdx < this.timed.length && this.timed[this.timedIdx]!.atS <= t + 1e-12 * Math.max(1, Math.abs(t))) {
      const ev = this.timed[this.timedIdx++]!;
      this.record(ev.name, t);
      if (ev.action(t, this.y) === 'stop') this.stopped = true;
      timedFired = true;
    }
    return timedFired;
  }

  /** The next step's proposal after an accepted one (no growth right after a rejection). */
  private controlStep(plan: StepPlan, err: number): void {
    const { hTry, hProposed, landing } = plan;
    const grow = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, SAFETY * Math.pow(Math.max(err, 1e-10), -ERR_EXPONENT)));
    this.h = this.rejectedLast ? Math.min(hTry, hTry * grow) : hTry * grow;
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

function finite(a: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i]!)) return false;
  return true;
}
