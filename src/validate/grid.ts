import { InputError } from '../errors.js';
import { dumbbellScenario } from '../scenario/defaults.js';
import { flowPath, packetBits } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import { validateScenario } from '../scenario/check/validate.js';
import { DEFAULT_MAX_RUNS, pointIdOf, type RunSpec } from '../runs/spec.js';
import { deriveSeed } from '../runs/seed.js';
import { fluidRunPlan } from '../runs/modelRuns.js';
import { HEADLINE_AXES } from '../runs/axes.js';
import { applyRtt } from '../runs/scenarioAxes.js';
import { closedForms, effectiveB, mathisWindow } from '../theory/closedForms.js';
import { MODELLED_VARIANTS, VARIANT_FACTS, type Variant } from '../variants.js';

/**
 * The `cclab validate` grid: variants x random loss x base RTT on one bottleneck, every point run
 * with the packet engine (several seeds) and the fluid engine (deterministic: once), each long
 * enough for a fixed number of loss events after the first slow start, measured after it.
 */

export interface ValidateGrid {
  variants: Variant[];
  losses: number[];
  /** Base (propagation) RTTs, s. */
  rttsS: number[];
  /** Packet runs per point (distinct derived seeds). */
  seeds: number;
  /** The seed every run seed is derived from. */
  seed: number;
  bandwidthBps: number;
  /** Loss events each run must see after its first slow start. */
  minLossEvents: number;
}

export const DEFAULT_GRID: Readonly<ValidateGrid> = {
  variants: [...MODELLED_VARIANTS],
  losses: [1e-5, 1e-4, 1e-3, 1e-2, 5e-2],
  rttsS: [0.01, 0.03, 0.1, 0.3],
  seeds: 5,
  seed: 1,
  bandwidthBps: 100e6,
  minLossEvents: 20,
};

/** Access links this many times faster than the bottleneck never limit (the dumbbell's are 10x). */
export const ACCESS_SPEEDUP = 10;
/** Margin on the estimated run length (the estimate is a mean; runs vary by seed). */
export const LENGTH_MARGIN = 1.5;
/**
 * Loss events a run aims at, where packets are cheap: about TARGET_PACKETS x p (so 50 at p = 1e-4, the
 * cap at p >= 4e-4), never fewer than the grid's minimum, never more than MAX_EVENTS. With 20 events a
 * run's mean still moves by 30% between seeds at p = 1e-2 (the slow-start overshoot's recovery is a
 * large part of it); the p = 1e-5 points, which need 1/p packets per event, keep the minimum.
 */
export const TARGET_PACKETS = 5e5;
export const MAX_EVENTS = 200;
/** Loss events after the first slow start that are left out of the measurement (the recovery from its overshoot). */
export const SETTLE_EVENTS = 2;

/**
 * One grid point's scenario: the generic dumbbell (MSS 1448 B, delayed ACKs of 2, minRto 1 s) with a
 * `bandwidthBps` bottleneck and access links ACCESS_SPEEDUP times faster, every delay scaled to the
 * base RTT, a drop-tail buffer of one BDP, a receive window that never limits, random loss p on
 * data packets; run length from {@link runLength}.
 */
export function pointScenario(variant: Variant, loss: number, rttS: number, bandwidthBps: number, minLossEvents: number): Scenario {
  const s = dumbbellScenario(variant);
  s.name = 'validate';
  s.bottleneck.bandwidthBps = bandwidthBps;
  for (const f of s.flows) {
    f.access.bandwidthBps = ACCESS_SPEEDUP * bandwidthBps;
    if (f.receiverAccess) f.receiverAccess.bandwidthBps = ACCESS_SPEEDUP * bandwidthBps;
  }
  applyRtt(s, rttS);
  const bdp = Math.max(1, Math.ceil(flowPath(s).bdpPackets));
  s.bottleneck.queue = { kind: 'droptail', limitPackets: bdp };
  for (const f of s.flows) {
    f.access.queuePackets = bdp;
    if (f.receiverAccess) f.receiverAccess.queuePackets = bdp;
  }
  s.bottleneck.loss = { rate: loss, direction: 'data' };
  // Nor does the receive window: 4 x (BDP + buffer) (the default 2 MiB is 1448 segments, below the
  // 2520-packet BDP at 300 ms).
  s.tcp.rcvBufBytes = Math.max(s.tcp.rcvBufBytes, 4 * 2 * bdp * s.mssBytes);
  const len = runLength(s, minLossEvents);
  s.measureFromS = len.measureFromS;
  s.durationS = len.durationS;
  return s;
}

export interface RunLength {
  /** Expected loss events per second in steady state. */
  eventRatePerS: number;
  /** Expected end of the first slow start. */
  slowStartS: number;
  measureFromS: number;
  durationS: number;
}

/**
 * How long a run must be for `minLossEvents` loss events after its first slow start, estimated from
 * the path and textbook windows (it need not be exact: `validate` checks the count the packet runs
 * saw). Two sources of loss events: random losses, one per lost packet but at most one per RTT
 * (x p with x = min(link, W / R)); and, when the loss-limited window (Mathis' square-root law, or
 * CUBIC's response function) does not fit in BDP + buffer, buffer overflows once per sawtooth period (Reno family:
 * (1 - beta) W_cap b_eff RTTs of +1/b_eff per RTT; CUBIC: K = cbrt(W_cap (1 - beta) / C) s). The
 * measurement starts SETTLE_EVENTS events after the expected end of slow start (window growth
 * x(1 + 1/b) per RTT from the initial window up to the first loss or W_cap).
 */
export function runLength(s: Scenario, minLossEvents: number): RunLength {
  if (VARIANT_FACTS[s.variant].control === 'rate') return rateBasedRunLength(s);
  const path = flowPath(s);
  const C = path.tightest.bandwidthBps / packetBits(s);
  const R = path.baseRttS;
  const B = s.bottleneck.queue.limitPackets;
  const wCap = C * R + B;
  const p = s.bottleneck.loss.rate;
  const b = effectiveB(s);
  const cubic = s.variant === 'cubic';
  // The variant's response to random loss: CUBIC's response function, Westwood+'s equilibrium (its
  // estimate holds the window near the link: on the SACK engine it fills 100 Mbit/s at p = 1e-2), else
  // the square-root law.
  const forms = closedForms(s);
  const own = forms.find((c) => c.formula === (cubic ? 'cubic' : 'westwood'));
  const wLoss = p > 0 ? ((cubic || s.variant === 'westwood') && own ? own.validity.rawCwndSegments! : mathisWindow(p, b)) : Infinity;
  const w = Math.min(wLoss, wCap);
  const rAvg = R + (wLoss > wCap ? B / (2 * C) : 0);
  const x = Math.min(C, w / rAvg);
  const random = Math.min(x * p, 1 / rAvg);
  let overflow = 0;
  if (wLoss > 0.8 * wCap) {
    const beta = cubic ? 0.7 : 0.5;
    const periodS = cubic
      ? Math.cbrt((wCap * (1 - beta)) / 0.4) + rAvg
      : s.variant === 'tahoe'
        ? rAvg * (Math.log2(Math.max(2, wCap / 2)) + (wCap / 2) * b)
        : (1 - beta) * wCap * b * rAvg;
    overflow = 1 / periodS;
  }
  const eventRatePerS = random + overflow;
  const growth = Math.log(1 + 1 / s.tcp.delAckCount);
  const firstLossWindow = Math.min(wCap, p > 0 ? 1 / (2 * p) : wCap);
  const slowStartS = (R * Math.log(Math.max(2, firstLossWindow / s.tcp.initialCwndSegments))) / growth + 2 * R;
  const measureFromS = slowStartS + SETTLE_EVENTS / eventRatePerS;
  const events = Math.max(minLossEvents, Math.min(MAX_EVENTS, TARGET_PACKETS * p));
  const durationS = measureFromS + (LENGTH_MARGIN * events) / eventRatePerS;
  return { eventRatePerS, slowStartS, measureFromS: round3(measureFromS), durationS: round3(durationS) };
}

/** ProbeRTT cycles a rate-based variant's run measures (BBR: one every 10 s, BBRv3 every 5 s). */
export const RATE_BASED_MEASURE_S = 30;

/**
 * A rate-based variant (BBR) acts on its delivery-rate and RTT estimates, not on loss events: its run
 * measures RATE_BASED_MEASURE_S (three BBRv1 ProbeRTT cycles) after STARTUP and DRAIN (doubling per
 * RTT from the initial window to the BDP, plus DRAIN and the full-pipe rule's three rounds) and 10 RTTs.
 */
function rateBasedRunLength(s: Scenario): RunLength {
  const path = flowPath(s);
  const R = path.baseRttS;
  const slowStartS = R * (Math.log2(Math.max(2, path.bdpPackets / s.tcp.initialCwndSegments)) + 5);
  const measureFromS = slowStartS + 10 * R;
  return { eventRatePerS: 0, slowStartS, measureFromS: round3(measureFromS), durationS: round3(measureFromS + RATE_BASED_MEASURE_S) };
}

/** Run lengths in ms resolution: stable cache keys, readable CSVs. */
function round3(x: number): number {
  return Math.ceil(x * 1000) / 1000;
}

/** One grid point (variant x loss x RTT) and its scenario. */
export interface ValidatePoint {
  pointId: string;
  variant: Variant;
  loss: number;
  rttS: number;
  scenario: Scenario;
}

/** Which fluid runs go once per packet seed with Poisson loss events (shared with report and compare). */
export { randomLossEvents } from '../runs/modelRuns.js';

/**
 * Counted before anything is built or compiled, as a sweep does (two 10,000-point ranges are 10^8
 * runs). A lower bound with hybrid models, which add seeds - 1 fluid runs per point: the guard is for 10^8.
 */
export function checkGridSize(g: Pick<ValidateGrid, 'variants' | 'losses' | 'rttsS' | 'seeds'>): void {
  const total = g.variants.length * g.losses.length * g.rttsS.length * (g.seeds + 1);
  if (!(total <= DEFAULT_MAX_RUNS)) {
    throw new InputError('--loss/--rtt/--reps', `give ${total} runs (${g.variants.length} variants x ${g.losses.length} x ${g.rttsS.length} points x ${g.seeds + 1} runs), more than the ${DEFAULT_MAX_RUNS} a grid may have`);
  }
}

/**
 * The points and runs of a grid, in plan order (point by point: the packet seeds, then the fluid
 * runs). Seeds come from the sweep's derivation (common random numbers across variants). Every
 * point's scenario passes validateScenario before any run starts.
 * @param hybrid whether a point's fluid run goes once per packet seed with Poisson loss events ({@link randomLossEvents})
 */
export function expandGrid(g: ValidateGrid, hybrid: (scenario: Scenario) => boolean = () => false): { points: ValidatePoint[]; runs: RunSpec[] } {
  checkGridSize(g);
  const axes = [
    { ...HEADLINE_AXES.loss, values: g.losses },
    { ...HEADLINE_AXES.rtt, values: g.rttsS },
  ];
  const points: ValidatePoint[] = [];
  const runs: RunSpec[] = [];
  for (const variant of g.variants) {
    for (const loss of g.losses) {
      for (const rttS of g.rttsS) {
        const point = [loss, rttS];
        const pointId = `${pointIdOf(axes, point)}-${variant}`;
        const scenario = pointScenario(variant, loss, rttS, g.bandwidthBps, g.minLossEvents);
        validateScenario(scenario, `validate point ${variant}, loss=${loss}, rtt=${rttS}s`);
        points.push({ pointId, variant, loss, rttS, scenario });
        const seeds = Array.from({ length: g.seeds }, (_, rep) => deriveSeed(g.seed, { loss, rttS }, rep));
        seeds.forEach((seed, rep) => {
          runs.push({ index: runs.length, runId: `${pointId}-packet-r${rep}`, pointId, point, variant, engine: 'packet', rep, seed, scenario: { ...structuredClone(scenario), seed } });
        });
        for (const f of fluidRunPlan(hybrid(scenario), seeds)) {
          runs.push({ index: runs.length, runId: `${pointId}-fluid-r${f.rep}`, pointId, point, variant, engine: 'fluid', rep: f.rep, seed: f.seed, scenario: { ...structuredClone(scenario), seed: f.seed }, ...(f.lossProcess ? { lossProcess: f.lossProcess } : {}) });
        }
      }
    }
  }
  return { points, runs };
}
