import type { ActiveEvent } from './bounds.js';
import { Rearm } from './bounds.js';
import { sortCandidates, ulp } from './landing.js';
import type { EventRecord, PastFn, SolverStats, TimedEvent } from './problem.js';
import { crossed, findRoot } from './roots.js';

/** Rounds of events at one instant beyond which the run is a modelling loop (Zeno), not progress. */
const MAX_EVENTS_AT_ONE_TIME = 50;

/**
 * The integrator's events between steps: the sign of every state event's g at the accepted point,
 * the crossings inside a trial step (located by root finding on its dense output), firing them in
 * time order with re-arming (an event stays disarmed until its g is back on the near side), the
 * Zeno guard, and the timed events at a step's end. It acts on the integrator's state vector `y` in
 * place; the integrator decides where steps end and restarts after anything fired (`jumped`).
 */
export class EventMonitor {
  /** An action ended the run ('stop'). */
  stopped = false;
  /** Whether something fired since the last restart changed what the delayed terms see. */
  jumped = false;
  /** The first root among the candidates of the step last checked (Infinity: none). */
  tEv = Infinity;

  private readonly rearm: Rearm;
  /** g of each active event at the accepted point (NaN when inactive). */
  private readonly gPrev: Float64Array;
  /** g of each active event at the end of the step being checked. */
  private readonly gNext: Float64Array;
  /** Events whose g crosses zero inside the step being checked, and where (filled per step). */
  private readonly candIdx: Int32Array;
  private readonly candRoot: Float64Array;
  private sameTimeEvents = 0;
  private lastEventT = NaN;
  private readonly timed: TimedEvent[];
  private timedIdx = 0;

  /** `y`: the integrator's state, which actions edit; `records` and `stats`: where firings are counted. */
  constructor(
    private readonly events: ActiveEvent[],
    timedEvents: readonly TimedEvent[],
    private readonly y: number[],
    private readonly past: PastFn,
    private readonly stats: SolverStats,
    private readonly records: EventRecord[],
  ) {
    const m = events.length;
    this.gPrev = new Float64Array(m);
    this.gNext = new Float64Array(m);
    this.candIdx = new Int32Array(m);
    this.candRoot = new Float64Array(m);
    this.rearm = new Rearm(events);
    this.timed = [...timedEvents].sort((a, b) => a.atS - b.atS);
  }

  /** Timed events at t0 itself (e.g. a flow starting at time 0): part of the initial state, no echo. */
  fireInitial(t0: number): void {
    while (this.timedIdx < this.timed.length && this.timed[this.timedIdx]!.atS <= t0) {
      const ev = this.timed[this.timedIdx++]!;
      ev.action(t0, this.y);
      this.record(ev.name, t0);
    }
  }

  /**
   * Every event's sign at a restart point (t, y); an action that moved g clearly back (L >= 1 -> L = 0)
   * re-arms its event at once. With `catchUp` (a restart on an echo, whose state the integrator has
   * just settled on its bounds), an armed event whose g is on the far side here while its last sign
   * (checked just before, on the unsettled state) was on the near side fires now: a hold-off
   * `t - tov >= R` with R = Tp + q/C sits on the echo of the event that set tov, the step's end can
   * leave q past the buffer by its local error (a longer R: g still < 0) and the restart puts it back
   * (g >= 0), so the crossing falls between the two signs and is never seen again (a Reno flow that
   * never cuts at a buffer a competitor keeps full). Returns whether any fired (the caller restarts).
   */
  restartAt(t: number, catchUp = false): boolean {
    const ev = this.events;
    let fired = false;
    for (let k = 0; k < ev.length; k++) {
      const e = ev[k]!;
      const g = e.active() ? e.g(t, this.y, this.past) : NaN;
      if (catchUp && !this.stopped && this.rearm.armed(k) && crossed(this.gPrev[k]!, g, e.direction, e.strict ?? false)) {
        this.fire(k, t);
        fired = true;
      }
      this.gPrev[k] = g;
      this.rearm.observe(k, g);
    }
    return fired;
  }

  /**
   * g of every active event at the step's end (the next signs if the step is accepted as it is), and
   * the roots of the armed ones that cross inside it: candidates in candIdx/candRoot, the first in tEv.
   * `interp` is the trial step's dense output. Returns the number of candidates.
   */
  locate(t: number, tNext: number, hTry: number, yNext: number[], interp: (s: number) => number[]): number {
    const { events, gPrev, gNext, rearm, candIdx, candRoot, past } = this;
    let nCand = 0;
    this.tEv = Infinity;
    for (let k = 0; k < events.length; k++) {
      const ev = events[k]!;
      if (!ev.active()) {
        gNext[k] = NaN;
        continue;
      }
      // Disarmed events too: if the step is accepted as it is, these are the next gPrev.
      const gb = ev.g(tNext, yNext, past);
      gNext[k] = gb;
      if (!rearm.armed(k)) continue;
      const ga = gPrev[k]!;
      if (!crossed(ga, gb, ev.direction, ev.strict ?? false)) continue;
      // Tolerance: relative to the step, but never below a few ulps of t (else t + tol === t).
      const tol = Math.max(1e-10 * hTry, 16 * ulp(tNext));
      const root = findRoot((s) => ev.g(s, interp(s), past), t, tNext, ga, gb, tol);
      candIdx[nCand] = k;
      candRoot[nCand++] = root;
      if (root < this.tEv) this.tEv = root;
    }
    return nCand;
  }

  /**
   * With the state moved to the first crossing t = tEv: every crossing of the step that has happened
   * by t fires now, in time order (ties in index order), each checked on the state the previous
   * actions left: identical flows cross together, and each must fire (restarting past the others
   * would lose them). Later crossings are found again by the steps after the restart.
   * Returns why the run must fail (Zeno behaviour), or ''.
   */
  fireAtCrossing(nCand: number, t: number): string {
    const { events, candIdx, candRoot, rearm, gPrev, past } = this;
    this.sameTimeEvents = t === this.lastEventT ? this.sameTimeEvents + 1 : 0;
    this.lastEventT = t;
    sortCandidates(candIdx, candRoot, nCand);
    if (this.sameTimeEvents > MAX_EVENTS_AT_ONE_TIME) {
      return `event '${events[candIdx[0]!]!.name}' keeps firing at one instant (Zeno behaviour)`;
    }
    this.fire(candIdx[0]!, t);
    for (let c = 1; c < nCand && !this.stopped; c++) {
      const k = candIdx[c]!;
      const ev = events[k]!;
      if (ev.active() && rearm.armed(k) && crossed(gPrev[k]!, ev.g(t, this.y, past), ev.direction, ev.strict ?? false)) this.fire(k, t);
    }
    return '';
  }

  /** The step was accepted whole and the state is now (t, y): the signs there (those at the step's end when t is its end). */
  acceptAt(t: number, atStepEnd: boolean): void {
    const events = this.events;
    for (let k = 0; k < events.length; k++) {
      this.gPrev[k] = events[k]!.active() ? (atStepEnd ? this.gNext[k]! : events[k]!.g(t, this.y, this.past)) : NaN;
      this.rearm.observe(k, this.gPrev[k]!);
    }
  }

  /** Fire, in index order, every armed event whose g has crossed since the last check (at a restart point). */
  fireCrossed(t: number): void {
    const ev = this.events;
    for (let k = 0; k < ev.length && !this.stopped; k++) {
      const e = ev[k]!;
      if (!e.active() || !this.rearm.armed(k)) continue;
      if (crossed(this.gPrev[k]!, e.g(t, this.y, this.past), e.direction, e.strict ?? false)) this.fire(k, t);
    }
  }

  /** Timed events exactly at t (a step's end). Returns whether any fired. */
  fireTimed(t: number): boolean {
    let timedFired = false;
    while (!this.stopped && this.timedIdx < this.timed.length && this.timed[this.timedIdx]!.atS <= t + 1e-12 * Math.max(1, Math.abs(t))) {
      const ev = this.timed[this.timedIdx++]!;
      this.record(ev.name, t);
      if (ev.action(t, this.y) === 'stop') this.stopped = true;
      timedFired = true;
    }
    return timedFired;
  }

  /** Fire state event k at (t, y): it stays disarmed until its g is back on the near side. */
  private fire(k: number, t: number): void {
    const ev = this.events[k]!;
    this.rearm.disarm(k, this.gPrev[k]!);
    this.record(ev.name, t);
    if (ev.action(t, this.y) === 'stop') this.stopped = true;
    if (ev.propagates ?? true) this.jumped = true;
  }

  private record(name: string, t: number): void {
    this.stats.events++;
    this.records.push({ name, t });
  }
}
