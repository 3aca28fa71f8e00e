import { linearRegression } from 'simple-statistics';
import { jainIndex, shares } from '../result/fairness.js';
import type { RunResult } from '../result/types.js';
import { flowCc } from '../scenario/flowCc.js';
import { baseRttS } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import type { Variant } from '../variants.js';
import { resample, uniformGrid, type Interpolation } from './resample.js';

/**
 * How flows that share a bottleneck divide it, by each engine: goodput shares, Jain's fairness index
 * over the whole measurement interval and over time windows, and the RTT unfairness exponent a of
 * G ∝ RTT^-a (the literature's a in [1, 2] for Reno: Lakshman and Madhow 1997, Floyd 1991).
 */
export interface FlowShare {
  flowId: number;
  variant: Variant;
  /** Propagation plus serialisation RTT of the flow's path (src/scenario/path.ts). */
  baseRttS: number;
  packetGoodputBps: number | null;
  fluidGoodputBps: number | null;
  packetShare: number | null;
  fluidShare: number | null;
  /** (fluid - packet) / packet for this flow. */
  goodputRelErr: number | null;
}

/** Jain's index per time window, from each flow's rate estimate cwnd / SRTT (the fluid models' x = W / R). */
export interface FairnessOverTime {
  method: string;
  windowS: number;
  /** Middle of each window, s. */
  t: number[];
  packet: (number | null)[];
  fluid: (number | null)[];
}

/** Goodput of the shortest-RTT flows over that of the longest, against the ratio of their RTTs. */
export interface RttFairness {
  /** Longest over shortest base RTT. */
  rttRatio: number;
  packetRatio: number | null;
  fluidRatio: number | null;
  /** a of G ∝ RTT^-a, least squares on (ln RTT, ln G) over the flows. */
  packetExponent: number | null;
  fluidExponent: number | null;
}

export interface Competition {
  flows: FlowShare[];
  jain: { packet: number | null; fluid: number | null };
  overTime: FairnessOverTime;
  /** Null when every flow has the same base RTT. */
  rtt: RttFairness | null;
}

/** At most this many fairness windows; each at least MIN_WINDOW_RTTS of the longest base RTT long. */
export const FAIRNESS_WINDOWS = 50;
export const MIN_WINDOW_RTTS = 10;
/** Samples of cwnd / SRTT per window. */
const SAMPLES_PER_WINDOW = 20;

export const FAIRNESS_METHOD =
  "Jain's index over the flows active for the whole window, of each flow's mean rate estimate cwnd / SRTT (packet: RFC 6298 SRTT; fluid: R = Tp + q / C)";

/** A run's per-flow figures, when it finished and reports every flow of the scenario. */
function usable(r: RunResult, s: Scenario): boolean {
  return r.status === 'ok' && r.flows.length === s.flows.length;
}

function goodputs(r: RunResult, s: Scenario): number[] | null {
  return usable(r, s) ? r.flows.map((f) => f.summary.goodputBps) : null;
}

function relErr(model: number | null, reference: number | null): number | null {
  return model === null || reference === null || reference === 0 ? null : (model - reference) / reference;
}

/** Mean of cwnd / SRTT (bytes/s) of flow i over [a, b]. */
function meanRate(r: RunResult, i: number, a: number, b: number): number {
  const how: Interpolation = r.engine === 'packet' ? 'step' : 'linear';
  const { cwndBytes, srttS } = r.flows[i]!.trace;
  const grid = uniformGrid(a, b, SAMPLES_PER_WINDOW);
  const w = resample(cwndBytes, grid, how);
  const rtt = resample(srttS, grid, how);
  let acc = 0;
  for (let k = 0; k < grid.length; k++) acc += rtt[k]! > 0 ? w[k]! / rtt[k]! : 0;
  return acc / grid.length;
}

/** Jain's index per window of one run; null where fewer than two flows are active or nothing flows. */
export function fairnessOverTime(r: RunResult, s: Scenario, edges: readonly number[]): (number | null)[] {
  const out: (number | null)[] = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    const a = edges[k]!;
    const b = edges[k + 1]!;
    if (!usable(r, s)) {
      out.push(null);
      continue;
    }
    const active = s.flows.flatMap((f, i) => (f.startS <= a && (f.stopS === null || f.stopS >= b) && r.flows[i]!.trace.srttS.t.length > 0 ? [i] : []));
    out.push(active.length < 2 ? null : jainIndex(active.map((i) => meanRate(r, i, a, b))));
  }
  return out;
}

function exponent(rtts: readonly number[], g: readonly number[] | null): number | null {
  if (g === null || g.some((x) => !(x > 0))) return null;
  const { m } = linearRegression(rtts.map((x, i) => [Math.log(x), Math.log(g[i]!)]));
  return -m;
}

function rttFairness(rtts: readonly number[], packet: number[] | null, fluid: number[] | null): RttFairness | null {
  const lo = Math.min(...rtts);
  const hi = Math.max(...rtts);
  // Distinct to within serialisation round-off: equal paths give equal RTTs exactly.
  if (!(hi > lo * (1 + 1e-9))) return null;
  const ratio = (g: number[] | null): number | null => {
    if (g === null) return null;
    const at = (x: number) => g.filter((_, i) => rtts[i] === x);
    const mean = (v: number[]) => v.reduce((p, q) => p + q, 0) / v.length;
    const slow = mean(at(hi));
    return slow > 0 ? mean(at(lo)) / slow : null;
  };
  return { rttRatio: hi / lo, packetRatio: ratio(packet), fluidRatio: ratio(fluid), packetExponent: exponent(rtts, packet), fluidExponent: exponent(rtts, fluid) };
}

/** The competition figures of a packet and a fluid run of one scenario; null with a single flow. */
export function competition(s: Scenario, packet: RunResult, fluid: RunResult): Competition | null {
  const n = s.flows.length;
  if (n < 2) return null;
  const gp = goodputs(packet, s);
  const gf = goodputs(fluid, s);
  const sp = gp ? shares(gp) : null;
  const sf = gf ? shares(gf) : null;
  const rtts = s.flows.map((_, i) => baseRttS(s, i));
  const flows: FlowShare[] = s.flows.map((_, i) => ({
    flowId: i,
    variant: flowCc(s, i).variant,
    baseRttS: rtts[i]!,
    packetGoodputBps: gp ? gp[i]! : null,
    fluidGoodputBps: gf ? gf[i]! : null,
    packetShare: sp ? sp[i]! : null,
    fluidShare: sf ? sf[i]! : null,
    goodputRelErr: relErr(gf ? gf[i]! : null, gp ? gp[i]! : null),
  }));
  const fromS = s.measureFromS;
  const toS = s.durationS;
  const windows = Math.max(1, Math.min(FAIRNESS_WINDOWS, Math.floor((toS - fromS) / (MIN_WINDOW_RTTS * Math.max(...rtts)))));
  const edges = uniformGrid(fromS, toS, windows + 1);
  return {
    flows,
    jain: { packet: gp ? jainIndex(gp) : null, fluid: gf ? jainIndex(gf) : null },
    overTime: {
      method: FAIRNESS_METHOD,
      windowS: (toS - fromS) / windows,
      t: edges.slice(1).map((b, k) => (edges[k]! + b) / 2),
      packet: fairnessOverTime(packet, s, edges),
      fluid: fairnessOverTime(fluid, s, edges),
    },
    rtt: rttFairness(rtts, gp, gf),
  };
}
