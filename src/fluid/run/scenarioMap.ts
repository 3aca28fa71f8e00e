import assert from 'node:assert/strict';
import { InputError } from '../../errors.js';
import { queueParams } from '../../net/qdisc/registry.js';
import { flowCc } from '../../scenario/flowCc.js';
import { baseRttS, handshakeRttS, packetBits, sharedQueue } from '../../scenario/path.js';
import type { Scenario } from '../../scenario/types.js';
import { packetsPerSecond } from '../../units.js';
import { recoveryStyle } from '../../variants.js';

/**
 * How a Scenario's topology becomes the fluid model's parameters. Units: packets are wire packets of
 * MSS + header bytes; rates in packets/s; times in seconds.
 */
export interface FluidLink {
  /** Service rate of the modelled queue, packets/s. */
  C: number;
  /** Its buffer, packets. */
  B: number;
  /** Which link the queue stands for, for the result's notes. */
  where: 'bottleneck' | 'access' | 'receiverAccess';
  /** RED settings when the modelled queue is the RED bottleneck. */
  red: { on: 0 | 1; minTh: number; maxTh: number; maxP: number; wq: number; gentle: 0 | 1 };
  /** Bernoulli loss on data packets. */
  pr: number;
  /** Bernoulli loss on ACKs: the same rate when the scenario's loss strikes both directions, else 0. */
  pra: number;
  /** Smallest base RTT of the flows, s (the loop's fastest time scale). */
  Tmin: number;
  /** The bottleneck model that describes the queue: `bottleneck` (drop-tail, RED) or `bottleneck-<kind>`. */
  model: string;
  /**
   * The discipline's scenario-bound parameters by model name (`ecn`: 1 when the queue marks CE and the
   * flows negotiate ECN; PIE `pieTarget pieAlpha pieBeta tUpdate markEcnTh`; CoDel `codelTarget interval queues`; step `Kmark`).
   */
  aqm: Record<string, number>;
}

export interface FluidFlowParams {
  /** Propagation RTT incl. serialisation of one data packet and one ACK on every link, s. */
  Tp: number;
  b: number;
  W0: number;
  Wmax: number;
  S0: number;
  /** Duplicate ACKs that trigger fast retransmit (segments). */
  D: number;
  /** 1 when the flow negotiates SACK (RFC 6675 recovery). */
  sack: 0 | 1;
  /**
   * 1 when the flow's recovery repairs all losses of a window with one window reduction (SACK, or
   * NewReno's partial ACKs, RFC 6582); 0 for RFC 5681 Reno recovery without SACK, which may cut once
   * per lost packet (Misra-Gong-Towsley's per-packet loss response).
   */
  lossEvents: 0 | 1;
  /**
   * 1 when an ACK that moves SND.UNA and SACKs new data is a duplicate ACK (tcp.sackAdvanceAck
   * 'dupAck' with SACK, ns-3's ProcessAck): the first ACK after a hole then grows no window for the
   * in-order segments it covers (models/README.md, "Recovery episodes", "The ACK after a hole").
   */
  advanceDup: 0 | 1;
  /**
   * The handshake's RTT (header-only SYN and SYN-ACK on empty links), s, when the first RTT sample is
   * the handshake's (tcp.handshakeRtt: ns-3's and Linux's m_minRtt / RTTmin start there); 0 when it
   * is not. Below Tp by a data segment's payload serialised on each link: Westwood+'s cut
   * BWE x RTTmin then reads less than the window at 2-3 segments (models/README.md, "The low mode").
   */
  synRtt: number;
  /** Retransmission timeout after a loss, s: RFC 6298's floor minRto (above SRTT + 4 RTTVAR on these paths). */
  rto: number;
  /** Delayed-ACK timer, s (0 without delayed ACKs): how long a lone segment's ACK waits. */
  delAckTimeout: number;
  /** Segment size, bytes (per-ACK growth adds floor(MSS^2 / cwnd) bytes: whole bytes, as ns-3 and the packet engine). */
  mss: number;
  startS: number;
  stopS: number;
}

/** Unlimited initial ssthresh, in segments (finite so comparisons and LaTeX stay plain). */
export const UNLIMITED_SEGMENTS = 1e9;

/**
 * Map the Scenario to one shared queue plus per-flow parameters.
 *
 * The queue modelled is the path's tightest (see `sharedQueue` in src/scenario/path.ts), not
 * necessarily the one called "bottleneck": in the ns-3-like presets the 10 Mbps sender access link is
 * slower than the `normal` (1 Gbps) and `lfn` (100 Mbps) bottlenecks, so packets queue at the
 * sender's NIC, and that is the queue the model integrates (known gap for asymmetric access links:
 * models/README.md).
 */
/**
 * A scenario the fluid engine has no model for (a queue discipline it does not describe). Bad input
 * for `cclab predict` (exit 2, it is an InputError); for `compare` and the report a failed fluid run
 * beside the packet one (its name is not 'InputError', so src/compare/run.ts's guard keeps it).
 */
export class NoFluidModelError extends InputError {
  constructor(field: string, problem: string) {
    super(field, problem);
    this.name = 'NoFluidModelError';
  }
}

/**
 * The bottleneck model of each queue discipline the fluid engine describes: drop-tail and RED in
 * models/bottleneck.model.yaml, the others in their own `models/bottleneck-<kind>.model.yaml`
 * (test/models checks that each file exists). FQ-CoDel has no published fluid model; with identical
 * flows its per-flow queues hold equal backlogs, each drained at C/N, so every packet's sojourn is
 * the aggregate's q/C and each queue's CoDel state is what one CoDel on the aggregate has, each
 * dropping sqrt(count)/interval of its own C/N: the CoDel model with queues = N (flows that differ are
 * refused: that is where the flow queueing matters).
 */
export const FLUID_QUEUE_MODELS: Readonly<Record<string, string>> = { droptail: 'bottleneck', red: 'bottleneck', pie: 'bottleneck-pie', codel: 'bottleneck-codel', fq_codel: 'bottleneck-codel', step: 'bottleneck-step' };

/** Queue disciplines the fluid engine has a model for. */
export const FLUID_QUEUE_KINDS: readonly string[] = Object.keys(FLUID_QUEUE_MODELS);

export function mapScenario(s: Scenario): { link: FluidLink; flows: FluidFlowParams[] } {
  // Preconditions that validateScenario guarantees (the one user-facing check): failing one is a bug
  // in a caller that skipped it, an AssertionError, not bad input.
  const holds = (ok: boolean, field: string, rule: string, got: unknown): void =>
    assert.ok(ok, `fluid engine: ${field} must be ${rule}, got ${String(got)} (the scenario skipped validateScenario)`);
  const positive = (v: number, field: string): number => {
    holds(v > 0 && Number.isFinite(v), field, 'a positive finite number', v);
    return v;
  };
  holds(s.flows.length > 0, 'flows', 'a non-empty list', s.flows.length);
  positive(s.mssBytes, 'mssBytes');
  positive(s.durationS, 'durationS');
  const pr = s.bottleneck.loss.rate;
  holds(pr >= 0 && pr < 1, 'bottleneck.loss.rate', 'in [0, 1)', pr);
  positive(s.bottleneck.bandwidthBps, 'bottleneck.bandwidthBps');

  for (const [i, f] of s.flows.entries()) {
    positive(f.access.bandwidthBps, `flows[${i}].access.bandwidthBps`);
    if (f.receiverAccess) positive(f.receiverAccess.bandwidthBps, `flows[${i}].receiverAccess.bandwidthBps`);
  }
  if ((s.bottleneck.rateChanges ?? []).length > 0) {
    throw new NoFluidModelError('bottleneck.rateChanges', 'has steps: the fluid models assume a constant bottleneck rate; use the packet engine');
  }
  const bq = s.bottleneck.queue;
  if (!FLUID_QUEUE_KINDS.includes(bq.kind)) {
    throw new NoFluidModelError('bottleneck.queue.kind', `is '${bq.kind}': no fluid model for queue kind ${bq.kind} (the fluid engine models ${FLUID_QUEUE_KINDS.join(', ')}); use the packet engine`);
  }
  if (bq.kind === 'fq_codel' && new Set(s.flows.map((_, i) => `${baseRttS(s, i)} ${flowCc(s, i).variant} ${JSON.stringify(flowCc(s, i).ccParams)} ${s.flows[i]!.startS} ${s.flows[i]!.stopS}`)).size > 1) {
    throw new NoFluidModelError('bottleneck.queue.kind', "is 'fq_codel' with flows that differ (variant, RTT, start or stop): its fluid model is CoDel on the aggregate, exact for identical flows only; use the packet engine");
  }
  const rp = bq.kind === 'red' ? (queueParams(bq) as { minThPackets: number; maxThPackets: number; maxP: number; weight: number; gentle: boolean }) : null;
  const wireBits = packetBits(s);
  const tight = sharedQueue(s);
  const isRed = tight.role === 'bottleneck' && bq.kind === 'red';
  const link: FluidLink = {
    Tmin: Math.min(...s.flows.map((_, i) => baseRttS(s, i))),
    C: packetsPerSecond(tight.bandwidthBps, wireBits),
    B: positive(tight.queuePackets, `the ${tight.role} queue`),
    where: tight.role,
    pr,
    pra: s.bottleneck.loss.direction === 'both' ? pr : 0,
    red: rp !== null && isRed
      ? { on: 1, minTh: rp.minThPackets, maxTh: rp.maxThPackets, maxP: rp.maxP, wq: rp.weight, gentle: rp.gentle ? 1 : 0 }
      : { on: 0, minTh: 0, maxTh: 1, maxP: 0, wq: 0, gentle: 0 },
    model: tight.role === 'bottleneck' ? FLUID_QUEUE_MODELS[bq.kind]! : 'bottleneck',
    aqm: tight.role === 'bottleneck' ? aqmParams(bq, s.tcp.ecn === true, s.flows.length) : { ecn: 0 },
  };

  const flows = s.flows.map((f, i) => {
    if (f.bytes !== null) {
      throw new NoFluidModelError(`flows[${i}].bytes`, `is ${f.bytes}: the fluid models describe bulk transfers only (bytes: null); use the packet engine for finite transfers`);
    }
    const Tp = baseRttS(s, i);
    positive(Tp, `flows[${i}] propagation RTT`);
    const cc = flowCc(s, i);
    const recovery = recoveryStyle(cc.variant, cc.ccParams);
    return {
      Tp,
      sack: s.tcp.sack ? (1 as const) : (0 as const),
      lossEvents: s.tcp.sack || recovery !== 'reno' ? (1 as const) : (0 as const),
      advanceDup: s.tcp.sack && s.tcp.sackAdvanceAck === 'dupAck' ? (1 as const) : (0 as const),
      synRtt: s.tcp.handshakeRtt === true ? handshakeRttS(s, i) : 0,
      rto: Math.min(s.tcp.maxRtoS, Math.max(s.tcp.minRtoS, Tp)),
      mss: s.mssBytes,
      delAckTimeout: s.tcp.delAckCount > 1 ? s.tcp.delAckTimeoutS : 0,
      b: s.tcp.delAckCount,
      W0: s.tcp.initialCwndSegments,
      Wmax: s.tcp.rcvBufBytes / s.mssBytes,
      S0: s.tcp.initialSsthreshBytes === null ? UNLIMITED_SEGMENTS : s.tcp.initialSsthreshBytes / s.mssBytes,
      D: s.tcp.dupAckThreshold,
      startS: f.startS,
      stopS: f.stopS ?? Infinity,
    };
  });
  return { link, flows };
}

/** The discipline's parameters as its bottleneck model names them (seconds, Hz, packets). */
function aqmParams(q: Scenario['bottleneck']['queue'], flowsEcn: boolean, flowCount: number): Record<string, number> {
  const p = queueParams(q) as Record<string, number | boolean>;
  const ecn = flowsEcn && p.ecn === true ? 1 : 0;
  switch (q.kind) {
    case 'pie':
      return { ecn, pieTarget: p.targetS as number, pieAlpha: p.alpha as number, pieBeta: p.beta as number, tUpdate: p.tUpdateS as number, markEcnTh: p.markEcnThreshold as number };
    case 'codel':
      return { ecn, codelTarget: p.targetS as number, interval: p.intervalS as number, queues: 1 };
    case 'fq_codel':
      // Identical flows (checked by the caller) hash to distinct queues while there are buckets for them.
      return { ecn, codelTarget: p.targetS as number, interval: p.intervalS as number, queues: Math.min(flowCount, p.flows as number) };
    case 'step':
      return { ecn, Kmark: p.thresholdPackets as number };
    default:
      return { ecn };
  }
}
