import type { Scenario } from '../../scenario/types.js';
import type { DropCounters, FlowSummary, FlowTrace, QueueDelaySummary, RunResult } from '../../result/types.js';
import type { Solution } from '../../solver/index.js';
import type { FluidSystem } from './problem.js';
import { Z_A, Z_DELAY } from '../compiler/layout.js';

/*
 * What a fluid run reports, read off the dense solution: the trace series on a time grid, exact time
 * integrals over the measurement interval, and the per-group and per-flow summaries, shaped like the
 * packet engine's (runFluid.ts assembles the RunResult).
 */

/** Where each group's outputs and the bottleneck's sit in the state (y) and the snapshot (z); -1 where a model has none. */
export interface OutputIndices {
  flows: { cwnd: number; ssthresh: number; inflight: number; rate: number; R: number }[];
  zp: number;
  zpq: number;
  /** The share of arrivals delivered now (departures over arrivals, less random loss); without it, 1 - p. */
  zDelivered: number;
  qIdx: number;
}

export function outputIndices(sys: FluidSystem): OutputIndices {
  const { layout } = sys;
  return {
    flows: sys.groups.map((_, g) => ({
      cwnd: layout.zFlow(g, 'cwnd'),
      ssthresh: layout.zFlow(g, 'ssthresh'),
      inflight: layout.zFlow(g, 'inflight') >= 0 ? layout.zFlow(g, 'inflight') : layout.zFlow(g, 'cwnd'),
      rate: layout.zFlow(g, 'rate'),
      R: layout.zFlow(g, 'R'),
    })),
    zp: layout.zBottleneck('p'),
    zpq: layout.zBottleneck('pq'),
    zDelivered: layout.zBottleneck('delivered'),
    qIdx: layout.yBottleneck('q'),
  };
}

/** The measurement interval's integrals, and the whole run's losses, sends and drops. */
export interface Measured {
  acc: { cwnd: number; sent: number; delivered: number; lost: number }[];
  lostWhole: number[];
  sentWhole: number[];
  queueDrops: number;
  randomDrops: number;
  /** Over the measurement interval: packets the queue admitted, and the integral of admitted x queueing delay. */
  admitted: number;
  delayArea: number;
}

/**
 * Time integrals over the measurement interval [from, tEnd], per group: cwnd, sent rate, delivered
 * rate, lost rate. Counts (losses, retransmissions, timeouts, reductions) and the loss rate cover the
 * whole run, as the packet engine's do; rates and means cover the measurement interval. So the part
 * before it is added.
 */
export function measure(sol: Solution, sys: FluidSystem, ix: OutputIndices, from: number): Measured {
  const zCwnd = ix.flows.map((f) => f.cwnd);
  const zRate = ix.flows.map((f) => f.rate);
  const { acc, queueDrops, randomDrops, admitted, delayArea } = integrate(sol, sys, zCwnd, zRate, ix.zp, ix.zpq, ix.zDelivered, from, sol.tEnd);
  const early = from > 0 ? integrate(sol, sys, zCwnd, zRate, ix.zp, ix.zpq, ix.zDelivered, 0, from) : null;
  return {
    acc,
    lostWhole: acc.map((a, g) => a.lost + (early ? early.acc[g]!.lost : 0)),
    sentWhole: acc.map((a, g) => a.sent + (early ? early.acc[g]!.sent : 0)),
    queueDrops: queueDrops + (early?.queueDrops ?? 0),
    randomDrops: randomDrops + (early?.randomDrops ?? 0),
    admitted,
    delayArea,
  };
}

/** One flow's summary per group (identical flows share it). */
export function summariseGroups(sol: Solution, sys: FluidSystem, m: Measured, span: number, mss: number, nan: (v: number) => number): FlowSummary[] {
  const { groups, layout } = sys;
  const tEnd = sol.tEnd;
  // Window reductions by events, one per flow of the group that fired it: hybrid models' loss events,
  // mean-field models' queue-overflow cuts and slow-start exits.
  const reductionsOf = new Float64Array(groups.length);
  for (const e of sol.events) {
    const g = sys.reductionGroup.get(e.name);
    if (g !== undefined) reductionsOf[g]++;
  }
  return m.acc.map((a, g) => {
    const meanCwndSeg = a.cwnd / span;
    const hybrid = groups[g]!.system.flow.form === 'hybrid';
    // A model with a state `nto` counts its expected retransmission timeouts (models/README.md).
    const counted = (name: string): number | null => {
      const y = layout.yFlow(g, name);
      return y >= 0 ? sol.at(tEnd, y) - sol.at(0, y) : null;
    };
    const timeouts = counted('nto') ?? 0;
    // Fast recoveries: a hybrid model's reduction events that did not end in a timeout (of its
    // timeouts, `nack` came with no loss event: every ACK of a round lost); a mean-field model's
    // expected fast recoveries (`nred`) plus its overflow cuts; lacking nred, lost packets.
    const nred = counted('nred');
    const eventTimeouts = timeouts - (counted('nack') ?? 0);
    const fastRecoveries = hybrid ? reductionsOf[g]! - eventTimeouts : nred !== null ? nred + reductionsOf[g]! : m.lostWhole[g]! - timeouts;
    return {
      flowId: groups[g]!.members[0]!,
      goodputBps: nan((a.delivered * mss * 8) / span),
      throughputBps: nan((a.sent * mss * 8) / span),
      meanCwndBytes: nan(meanCwndSeg * mss),
      meanCwndSegments: nan(meanCwndSeg),
      bytesDelivered: nan(a.delivered * mss),
      bytesSent: nan(a.sent * mss),
      // Expected counts over the whole run; every lost packet is retransmitted once.
      retransmits: nan(Math.round(m.lostWhole[g]!)),
      timeouts: nan(Math.round(timeouts)),
      fastRecoveries: nan(Math.max(0, Math.round(fastRecoveries))),
      lossRate: nan(m.sentWhole[g]! > 0 ? m.lostWhole[g]! / m.sentWhole[g]! : 0),
    };
  });
}

/** Every flow's summary and trace (those of its group) and the run's summary over all flows. */
export function flowsAndSummary(scenario: Scenario, sys: FluidSystem, m: Measured, groupSummaries: FlowSummary[], groupTraces: FlowTrace[], nan: (v: number) => number): Pick<RunResult, 'summary' | 'flows'> {
  const { groups } = sys;
  const flows = scenario.flows;
  const groupOf = new Int32Array(flows.length);
  groups.forEach((grp, g) => grp.members.forEach((i) => (groupOf[i] = g)));
  const flowSummaries: FlowSummary[] = flows.map((_, i) => ({ ...groupSummaries[groupOf[i]!]!, flowId: i }));
  const sum = (f: (s: FlowSummary) => number): number => flowSummaries.reduce((x, s) => x + f(s), 0);
  const drops: DropCounters = {
    queue: nan(Math.round(m.queueDrops)),
    random: nan(Math.round(m.randomDrops)),
    ackRandom: 0,
    ackQueue: 0,
  };
  const totalLost = groups.reduce((x, grp, g) => x + grp.members.length * m.lostWhole[g]!, 0);
  const totalSent = groups.reduce((x, grp, g) => x + grp.members.length * m.sentWhole[g]!, 0);
  return {
    summary: {
      goodputBps: sum((s) => s.goodputBps),
      throughputBps: sum((s) => s.throughputBps),
      meanCwndBytes: sum((s) => s.meanCwndBytes) / flows.length,
      meanCwndSegments: sum((s) => s.meanCwndSegments) / flows.length,
      retransmits: sum((s) => s.retransmits),
      timeouts: sum((s) => s.timeouts),
      fastRecoveries: sum((s) => s.fastRecoveries),
      drops,
      lossRate: nan(totalSent > 0 ? totalLost / totalSent : 0),
    },
    // Flows of one group share its trace series (they are the same numbers).
    flows: flowSummaries.map((summary, i) => ({ summary, trace: groupTraces[groupOf[i]!]! })),
  };
}

/**
 * Time integrals over [from, tEnd] per group (one flow's cwnd, sent, delivered and lost rate) and the
 * expected queue and random drops of all flows, on the snapshot (outputs) of the dense solution
 * ({@link Solution.integrate}: Gauss-Legendre per step, exact for the step's polynomial).
 */
function integrate(
  sol: Solution,
  sys: FluidSystem,
  zCwnd: readonly number[],
  zRate: readonly number[],
  zp: number,
  zpq: number,
  zDelivered: number,
  from: number,
  tEnd: number,
): { acc: { cwnd: number; sent: number; delivered: number; lost: number }[]; queueDrops: number; randomDrops: number; admitted: number; delayArea: number } {
  const G = zCwnd.length;
  const Z = new Float64Array(sys.layout.zSize);
  // Components: 4 per group (cwnd, sent, delivered, lost), then the queue's and the random drops,
  // the packets the queue admits and those times their queueing delay q/C (each component is its own
  // quadrature on the same nodes, so adding the last two changes none of the others).
  const I = sol.integrate(from, tEnd, 4 * G + 4, (s, y, out) => {
    const z = sys.snapshot(s, y, Z);
    const p = z[zp]!;
    const pq = zpq >= 0 ? z[zpq]! : 0;
    // Of the lost fraction p, pq is the queue's; the rest is random loss among the packets it admits.
    const pRandom = (1 - pq) * (p > pq ? (p - pq) / Math.max(1 - pq, 1e-12) : 0);
    const dv = zDelivered >= 0 ? z[zDelivered]! : 1 - p;
    // The aggregate arrival rate A (the snapshot's sum over groups of multiplicity x rate).
    const arrivals = z[Z_A]!;
    for (let g = 0; g < G; g++) {
      const rate = z[zRate[g]!]!;
      out[4 * g] = z[zCwnd[g]!]!;
      out[4 * g + 1] = rate;
      out[4 * g + 2] = rate * dv;
      out[4 * g + 3] = rate * p;
    }
    out[4 * G] = arrivals * pq;
    out[4 * G + 1] = arrivals * pRandom;
    out[4 * G + 2] = arrivals * (1 - pq);
    out[4 * G + 3] = arrivals * (1 - pq) * z[Z_DELAY]!;
  });
  const acc = Array.from({ length: G }, (_, g) => ({ cwnd: I[4 * g]!, sent: I[4 * g + 1]!, delivered: I[4 * g + 2]!, lost: I[4 * g + 3]! }));
  return { acc, queueDrops: I[4 * G]!, randomDrops: I[4 * G + 1]!, admitted: I[4 * G + 2]!, delayArea: I[4 * G + 3]! };
}

/** Points of the grid the 99th percentile of the queueing delay is read on (about 2 ms apart over 10 s). */
const DELAY_QUANTILE_POINTS = 5000;

/**
 * The queueing delay of the packets the bottleneck admits over [from, tEnd], as the packet engine
 * reports it per data packet (RunResult.queue.delay): the mean is exact (the admitted-weighted
 * integral of q/C over the dense solution, {@link integrate}); the 99th percentile is the
 * admitted-weighted quantile of q/C on a uniform grid of DELAY_QUANTILE_POINTS. A packet's sojourn
 * is the delay q/C at its arrival, as the fluid queue is FIFO.
 */
export function queueDelaySummary(sol: Solution, sys: FluidSystem, m: Measured, ix: OutputIndices, from: number): QueueDelaySummary | undefined {
  const tEnd = sol.tEnd;
  if (!(m.admitted > 0) || !(tEnd > from)) return undefined;
  const Z = new Float64Array(sys.layout.zSize);
  const y = new Float64Array(sys.layout.n);
  const n = DELAY_QUANTILE_POINTS;
  const delay = new Float64Array(n);
  const weight = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) {
    const t = from + ((k + 0.5) * (tEnd - from)) / n;
    sol.stateInto(t, y);
    const z = sys.snapshot(t, y, Z);
    const pq = ix.zpq >= 0 ? z[ix.zpq]! : 0;
    delay[k] = z[Z_DELAY]!;
    weight[k] = Math.max(0, z[Z_A]! * (1 - pq));
    total += weight[k]!;
  }
  const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => delay[a]! - delay[b]! || a - b);
  let cum = 0;
  let p99 = delay[order[n - 1]!]!;
  for (const k of order) {
    cum += weight[k]!;
    if (cum >= 0.99 * total) {
      p99 = delay[k]!;
      break;
    }
  }
  return { meanS: m.delayArea / m.admitted, p99S: p99, packets: Math.round(m.admitted) };
}

/** The trace series on the time grid (a function of its own, so it is optimised as a tight loop). */
export function sampleGrid(
  sol: Solution,
  sys: FluidSystem,
  grid: readonly number[],
  idx: readonly { cwnd: number; ssthresh: number; inflight: number; R: number }[],
  qIdx: number,
  mss: number,
): { cw: number[][]; ssth: number[][]; rtt: number[][]; infl: number[][]; qv: number[]; bad: string } {
  const N = idx.length;
  const gridN = grid.length;
  const cw = idx.map(() => new Array<number>(gridN).fill(0));
  const ssth = idx.map(() => new Array<number>(gridN).fill(0));
  const rtt = idx.map(() => new Array<number>(gridN).fill(0));
  const infl = idx.map(() => new Array<number>(gridN).fill(0));
  const qv = new Array<number>(gridN).fill(0);
  const Z = new Float64Array(sys.layout.zSize);
  const y = new Float64Array(sys.layout.n);
  let bad = '';
  for (let g = 0; g < gridN; g++) {
    const t = grid[g]!;
    sol.stateInto(t, y);
    const z = sys.snapshot(t, y, Z);
    for (let i = 0; i < N; i++) {
      const ix = idx[i]!;
      const c = z[ix.cwnd]!;
      const r = z[ix.R]!;
      cw[i]![g] = c * mss;
      ssth[i]![g] = ix.ssthresh >= 0 ? z[ix.ssthresh]! * mss : c * mss;
      rtt[i]![g] = r;
      infl[i]![g] = z[ix.inflight]! * mss;
      if (!bad && !(c >= 0 && Number.isFinite(r))) bad = `window or RTT invalid (cwnd ${c}, R ${r}) at t = ${t.toPrecision(6)}`;
    }
    qv[g] = qIdx >= 0 ? y[qIdx]! : NaN;
  }
  return { cw, ssth, rtt, infl, qv, bad };
}
