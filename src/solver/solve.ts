import { Dopri5 } from 'dopri/lib/dopri5/stepper.js';
import type { DdeProblem, EventRecord, SolveOptions, SolverStats } from './problem.js';
import { Box, Rearm } from './bounds.js';
import { Propagation } from './propagate.js';
import type { ActiveEvent } from './bounds.js';
import { DenseHistory, denseTentative } from './history.js';
import { Past } from './past.js';
import { findRoot, crossed } from './roots.js';
import { Solution } from './solution.js';
import { ERR_EXPONENT, MAX_FACTOR, MIN_FACTOR, SAFETY, initialStep } from './control.js';

/** An event firing this many times at one instant is a modelling loop (Zeno), not progress. */
const MAX_EVENTS_AT_ONE_TIME = 50;


/**
 * Integrate a retarded DDE (or ODE) with dopri's Dormand-Prince 5(4) stepper, adding what the `dopri`
 * package lacks: a history function before t0, located state events with restarts, timed events,
 * box constraints with sliding (queue in [0, B]), forced stops, and failure reporting instead of throwing.
 *
 * Delays: with `constrained`, steps are capped at `minLagS` (method of steps), so a delayed value
 * y(t - tau), tau >= minLagS, always comes from an accepted step and the RK formula stays explicit,
 * even for state-dependent delays. By default longer steps are allowed and iterated on their own dense
 * output (see SolveOptions.constrained).
 * Never throws for numerical trouble: NaN/Inf or a collapsing step gives a Solution with status 'failed'.
 */
export function solve(problem: DdeProblem, opts: SolveOptions = {}): Solution {
  const { n, tspan } = problem;
  const [t0, t1] = tspan;
  const rtol = opts.rtol ?? 1e-6;
  const atol = opts.atol ?? 1e-6;
  const span = t1 - t0;
  const minLag = problem.minLagS ?? Infinity;
  const constrained = opts.constrained ?? false;
  const hCap = Math.min(opts.maxStepS ?? Infinity, constrained ? minLag * (1 - 1e-9) : Infinity, span);
  const maxIter = opts.maxIterations ?? 6;
  const hMin = opts.minStepS ?? 1e-12 * Math.max(1, Math.abs(span));
  const maxSteps = opts.maxSteps ?? 1_000_000;
  if (problem.y0.length !== n) throw new RangeError(`y0 has ${problem.y0.length} components, expected ${n}`);

  const hist = new DenseHistory(n);
  const stats: SolverStats = { steps: 0, rejected: 0, rhsEvaluations: 0, events: 0 };
  const fired: EventRecord[] = [];
  const y = problem.y0.slice();
  const box = new Box(n, problem.bounds ?? []);

  const pastState = new Past(n, t0, hist, problem.y0, y, problem.history);
  const past = pastState.fn;
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

  const events: ActiveEvent[] = [...(problem.events ?? []).map((e) => ({ ...e, active: () => true })), ...box.events(rawDerivative)];
  const refreshHolds = (t: number): void => box.settle(t, y, rawDerivative);

  const stops = [...(problem.tstops ?? []), ...(problem.timedEvents ?? []).map((e) => e.atS)]
    .filter((s) => s > t0 && s < t1)
    .sort((a, b) => a - b);
  const timed = [...(problem.timedEvents ?? [])].sort((a, b) => a.atS - b.atS);
  let stopIdx = 0;
  let timedIdx = 0;

  const stepper = new Dopri5(rhs, n);
  let t = t0;
  let status: 'ok' | 'failed' = 'ok';
  let message = '';
  const fail = (why: string): void => {
    status = 'failed';
    message = `${why} at t = ${t.toPrecision(6)}`;
  };

  // Timed events at t0 itself (e.g. a flow starting at time 0).
  while (timedIdx < timed.length && timed[timedIdx]!.atS <= t0) {
    const ev = timed[timedIdx++]!;
    ev.action(t0, y);
    fired.push({ name: ev.name, t: t0 });
    stats.events++;
  }
  refreshHolds(t);
  stepper.reset(t, y);
  if (!y.every(Number.isFinite) || !stepper.k1.every(Number.isFinite)) {
    fail('non-finite initial state or derivative');
    return new Solution(hist, y, t0, t, status, message, stats, fired, box.lo, box.hi);
  }
  let gPrev = events.map((e) => (e.active() ? e.g(t, y, past) : NaN));
  /** g of each active event at the end of the step being checked. */
  const gNext = new Float64Array(events.length);
  const rearm = new Rearm(events);
  const prop = new Propagation(problem.lags);

  /**
   * Restart at a kink (an echo): an event whose switch sits at the same point (a hold-off ending one
   * RTT after the event that caused the echo) may have crossed between the last check and here: fire
   * it now, or it would be missed; then refresh the bounds, the FSAL stage and the event signs.
   */
  const restartAt = (tr: number): void => {
    for (let k = 0; k < events.length; k++) {
      const ev = events[k]!;
      if (!ev.active() || !rearm.armed(k)) continue;
      const g = ev.g(tr, y, past);
      if (!crossed(gPrev[k]!, g, ev.direction, ev.strict ?? false)) continue;
      rearm.disarm(k, gPrev[k]!);
      stats.events++;
      fired.push({ name: ev.name, t: tr });
      ev.action(tr, y);
      if (ev.propagates ?? true) prop.add(tr, y);
    }
    refreshHolds(tr);
    stepper.reset(tr, y);
    for (let k = 0; k < events.length; k++) {
      gPrev[k] = events[k]!.active() ? events[k]!.g(tr, y, past) : NaN;
      rearm.observe(k, gPrev[k]!);
    }
  };
  let h = Math.min(hCap, opts.firstStepS ?? initialStep(stepper.k1, y, atol, rtol, span));
  let rejectedLast = false;
  let sameTimeEvents = 0;
  let lastEventT = NaN;
  const yTmp = new Array<number>(n).fill(0);
  // The step being checked for events, read by interp (one closure for the whole run: no per-step allocation).
  let stepT = t;
  let stepH = 0;
  const interp = (s: number): number[] => {
    const yS = stepper.y;
    const yN = stepper.yNext;
    const d4 = stepper.history.data;
    for (let i = 0; i < n; i++) yTmp[i] = denseTentative(s, stepT, stepH, i, n, yS, yN, stepper.k1, stepper.k2, d4);
    return yTmp;
  };

  const finite = (a: number[]): boolean => {
    for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i]!)) return false;
    return true;
  };

  while (t < t1 && status === 'ok') {
    if (stats.steps >= maxSteps) {
      fail(`step budget of ${maxSteps} exhausted`);
      break;
    }
    while (stopIdx < stops.length && stops[stopIdx]! <= t) stopIdx++;
    // A predicted echo is a kink: end the step a few ulps before it (every stage on the left branch)
    // and restart a few ulps after it (k1 on the right branch), so no step mixes the two.
    const tEchoRaw = prop.nextPredicted(t + 16 * Number.EPSILON * Math.max(1, Math.abs(t)));
    // 32 ulps each side: the event that caused the echo was placed 4 ulps past its crossing, and t - lag
    // rounds; with 4 ulps the landing stages could already sit on the far side of the kink, and the
    // controller then shrank the step towards zero (normal with 10 Gbit/s access, reno: step collapse).
    const ulps = 32 * Number.EPSILON * Math.max(1, Math.abs(tEchoRaw));
    const tEchoNext = tEchoRaw - ulps;
    const tStop = Math.min(t1, stopIdx < stops.length ? stops[stopIdx]! : Infinity);
    // A timed event (a flow starting) or a forced stop is a switch of the rhs too: end the step 32 ulps
    // before it, so that no stage of the landing step (k7 sits at its end) sees the new branch and the
    // controller does not creep up on it; the step after starts exactly on it.
    const stopUlps = tStop < t1 ? 32 * Number.EPSILON * Math.max(1, Math.abs(tStop)) : 0;
    const tStopLand = tStop - stopUlps;
    const onEcho = tEchoNext < tStopLand;
    const tTarget = onEcho ? tEchoNext : tStopLand;
    let hTry = Math.min(h, hCap);
    const hProposed = hTry;
    const landing = t + hTry >= tTarget - 1e-12 * Math.max(1, Math.abs(tTarget));
    if (landing) hTry = tTarget - t;
    if (hTry < hMin && !landing) {
      fail(`step size collapse (h = ${hTry.toExponential(2)} s)`);
      break;
    }
    pastState.unsettledReads = 0;
    stepper.step(t, hTry);
    stats.steps++;
    let err = stepper.error(atol, rtol);
    if (!finite(stepper.yNext)) err = Infinity;
    if (err <= 1 && hTry > minLag && pastState.unsettledReads === 0) {
      // Longer than the smallest lag, but every delayed value the stages read was already final (the
      // actual lags exceed the step): the step is explicit as it stands, an iteration would repeat it.
      pastState.capture(stepper, t, hTry);
    } else if (err <= 1 && hTry > minLag) {
      // Delayed values inside this step came from extrapolation: iterate on the step's own dense output.
      let converged = false;
      for (let it = 0; it < maxIter && err <= 1; it++) {
        pastState.capture(stepper, t, hTry);
        stepper.step(t, hTry);
        stats.steps++;
        err = stepper.error(atol, rtol);
        if (!finite(stepper.yNext)) err = Infinity;
        let change = 0;
        for (let i = 0; i < n; i++) change = Math.max(change, Math.abs(stepper.yNext[i]! - pastState.capturedEnd(i)) / (atol + rtol * Math.abs(pastState.capturedEnd(i))));
        if (change <= 0.5) {
          converged = true;
          pastState.capture(stepper, t, hTry); // event location inside this step reads the final iterate
          break;
        }
      }
      if (!converged && err <= 1) err = 2; // retry smaller: the fixed point did not settle
    }
    if (!(err <= 1)) {
      pastState.release();
      stats.rejected++;
      rejectedLast = true;
      if (hTry <= hMin) {
        fail(err === Infinity ? 'non-finite state (NaN or Inf): the model blew up' : 'step size collapse');
        break;
      }
      h = hTry * (err === Infinity ? 0.1 : Math.max(MIN_FACTOR, SAFETY * Math.pow(err, -ERR_EXPONENT)));
      continue;
    }
    // Accepted, unless an event fires inside the step.
    const tNext = t + hTry;
    stepT = t;
    stepH = hTry;
    let first = -1;
    let tEv = Infinity;
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
      const tol = Math.max(1e-10 * hTry, 16 * Number.EPSILON * Math.max(1, Math.abs(tNext)));
      const root = findRoot((s) => ev.g(s, interp(s), past), t, tNext, ga, gb, tol);
      if (root < tEv) {
        tEv = root;
        first = k;
      }
    }
    // An echo of an earlier event through a delay: cut the step there too (no action).
    const tEcho = prop.locate(t, tNext, stepper.yNext, interp, Math.max(1e-10 * hTry, 16 * Number.EPSILON * Math.max(1, Math.abs(tNext))));
    if (tEcho < tEv && tEcho > t) {
      hist.push(t, hTry, stepper.y, stepper.yNext, stepper.k1, stepper.k2, stepper.history.data, tEcho);
      pastState.settle();
      const yE = interp(tEcho);
      for (let i = 0; i < n; i++) y[i] = yE[i]!;
      t = tEcho;
      pastState.release();
      prop.advance(t, y);
      restartAt(t);
      h = Math.max(hTry, hProposed); // the cut, not the error, shortened this step
      continue;
    }
    if (first >= 0) {
      // Keep the step's polynomial but end it at the event: the state there is the interpolated one,
      // on the far side of the crossing, so the event cannot fire twice.
      if (tEv > t) {
        hist.push(t, hTry, stepper.y, stepper.yNext, stepper.k1, stepper.k2, stepper.history.data, tEv);
        pastState.settle();
        const yEv = interp(tEv);
        for (let i = 0; i < n; i++) y[i] = yEv[i]!;
      }
      t = tEv;
      pastState.release();
      const ev = events[first]!;
      rearm.disarm(first, gPrev[first]!);
      sameTimeEvents = t === lastEventT ? sameTimeEvents + 1 : 0;
      lastEventT = t;
      if (sameTimeEvents > MAX_EVENTS_AT_ONE_TIME) {
        fail(`event '${ev.name}' keeps firing at one instant (Zeno behaviour)`);
        break;
      }
      stats.events++;
      fired.push({ name: ev.name, t });
      if (ev.action(t, y) === 'stop') break;
      refreshHolds(t);
      if (ev.propagates ?? true) prop.add(t, y);
      stepper.reset(t, y);
      if (!stepper.k1.every(Number.isFinite)) {
        fail('non-finite derivative after an event');
        break;
      }
      gPrev = events.map((e) => (e.active() ? e.g(t, y, past) : NaN));
      // An action that moved g clearly back (L >= 1 -> L = 0) re-arms its event at once.
      for (let k = 0; k < events.length; k++) rearm.observe(k, gPrev[k]!);
      h = Math.max(hProposed, hMin * 10);
      continue;
    }
    // Store the dense output before stepComplete overwrites y and k1 with the step's end values.
    hist.push(t, hTry, stepper.y, stepper.yNext, stepper.k1, stepper.k2, stepper.history.data);
    pastState.settle();
    pastState.release();
    prop.advance(tNext, stepper.y);
    stepper.stepComplete(t, hTry);
    for (let i = 0; i < n; i++) y[i] = stepper.y[i]!;
    t = landing ? (onEcho ? tTarget : tStop) : tNext;
    // g at (tNext, yNext) was computed by the event check above (same t, same state: reuse it).
    const same = t === tNext;
    for (let k = 0; k < events.length; k++) {
      gPrev[k] = events[k]!.active() ? (same ? gNext[k]! : events[k]!.g(t, y, past)) : NaN;
      rearm.observe(k, gPrev[k]!);
    }
    if (landing && onEcho) {
      t = tEchoRaw + ulps; // a 64-ulp shift of time, far below any tolerance
      // Drop the echo just stepped over (and any other that landed here): left pending, `locate` would
      // find it again a few ulps into the next step and cut that step there, wasting it whole.
      prop.advance(t, y);
      restartAt(t);
    }
    // Timed events exactly at this step's end.
    let timedFired = false;
    while (timedIdx < timed.length && timed[timedIdx]!.atS <= t + 1e-12 * Math.max(1, Math.abs(t))) {
      const ev = timed[timedIdx++]!;
      stats.events++;
      fired.push({ name: ev.name, t });
      if (ev.action(t, y) === 'stop') {
        t = t1;
        break;
      }
      timedFired = true;
    }
    if (timedFired) {
      refreshHolds(t);
      prop.add(t, y);
      stepper.reset(t, y);
      gPrev = events.map((e) => (e.active() ? e.g(t, y, past) : NaN));
    } else if (landing && !onEcho && stopUlps > 0) {
      // A forced stop without an event: restart on its right side (k1 was taken 32 ulps before it).
      refreshHolds(t);
      stepper.reset(t, y);
    }
    const grow = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, SAFETY * Math.pow(Math.max(err, 1e-10), -ERR_EXPONENT)));
    h = rejectedLast ? Math.min(hTry, hTry * grow) : hTry * grow;
    // A step cut short to land on a stop says nothing about the scale: keep the proposal from before.
    if (landing) h = Math.max(h, hProposed);
    rejectedLast = false;
  }
  return new Solution(hist, y, t0, t, status, message, stats, fired, box.lo, box.hi);
}
