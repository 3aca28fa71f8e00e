import { InputError } from '../errors.js';
import type { LinkSpec, Scenario } from '../scenario/types.js';

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
  startS: number;
  stopS: number;
}

/** Unlimited initial ssthresh, in segments (finite so comparisons and LaTeX stay plain). */
export const UNLIMITED_SEGMENTS = 1e9;

/**
 * Map the Scenario to one shared queue plus per-flow parameters.
 *
 * The queue modelled is the tightest link of the path, not necessarily the one called "bottleneck":
 * in the ns-3-like presets the 10 Mbps sender access link is slower than the `normal` (1 Gbps) and
 * `lfn` (100 Mbps) bottlenecks, so packets queue at the sender's NIC, and that is the queue the model
 * integrates. With N flows the candidates are the shared bottleneck (rate C_b) and the N access
 * links together (rate sum of C_a,i, buffer sum of B_a,i), and likewise the receiver access links:
 * the smallest aggregate rate wins. Aggregating N identical access queues into one is exact for
 * symmetric flows under the mean-field model (each flow sees C_a and B_a); for asymmetric access
 * links it is an approximation (known gap, see models/README.md).
 */
export function mapScenario(s: Scenario): { link: FluidLink; flows: FluidFlowParams[] } {
  if (s.flows.length === 0) throw new InputError('flows', 'must list at least one flow');
  if (!(s.mssBytes > 0)) throw new InputError('mssBytes', `must be > 0, got ${s.mssBytes}`);
  if (!(s.durationS > 0)) throw new InputError('durationS', `must be > 0, got ${s.durationS}`);
  const wireBits = 8 * (s.mssBytes + s.headerBytes);
  const ackBits = 8 * s.headerBytes;
  const pr = s.bottleneck.loss.rate;
  if (!(pr >= 0 && pr < 1)) throw new InputError('bottleneck.loss.rate', `must be in [0, 1), got ${pr}`);
  const positive = (v: number, field: string): number => {
    if (!(v > 0) || !Number.isFinite(v)) throw new InputError(field, `must be a positive finite number, got ${v}`);
    return v;
  };
  positive(s.bottleneck.bandwidthBps, 'bottleneck.bandwidthBps');

  const bq = s.bottleneck.queue;
  const bottleneck = { C: s.bottleneck.bandwidthBps / wireBits, B: bq.limitPackets, where: 'bottleneck' as const };
  const sumAccess = (pick: (i: number) => LinkSpec | null, where: 'access' | 'receiverAccess') => {
    let C = 0;
    let B = 0;
    for (let i = 0; i < s.flows.length; i++) {
      const l = pick(i);
      if (!l) return undefined; // an ideal link never limits
      C += positive(l.bandwidthBps, `flows[${i}].${where}.bandwidthBps`) / wireBits;
      B += l.queuePackets;
    }
    return { C, B, where };
  };
  const candidates = [bottleneck, sumAccess((i) => s.flows[i]!.access, 'access'), sumAccess((i) => s.flows[i]!.receiverAccess, 'receiverAccess')]
    .filter((c): c is NonNullable<typeof c> => c !== undefined);
  // Ties go to the shared bottleneck (listed first): that is where RED, if any, acts.
  const tight = candidates.reduce((a, c) => (c.C < a.C * (1 - 1e-12) ? c : a));
  const isRed = tight.where === 'bottleneck' && bq.kind === 'red';
  const link: FluidLink = {
    C: tight.C,
    B: Math.max(1, tight.B),
    where: tight.where,
    pr,
    red: bq.kind === 'red' && isRed
      ? { on: 1, minTh: bq.minThPackets, maxTh: bq.maxThPackets, maxP: bq.maxP, wq: bq.weight, gentle: bq.gentle ? 1 : 0 }
      : { on: 0, minTh: 0, maxTh: 1, maxP: 0, wq: 0, gentle: 0 },
  };

  const flows = s.flows.map((f, i) => {
    if (f.bytes !== null) {
      throw new InputError(`flows[${i}].bytes`, `is ${f.bytes}: the fluid models describe bulk transfers only (bytes: null); use the packet engine for finite transfers`);
    }
    const links: LinkSpec[] = [f.access, { bandwidthBps: s.bottleneck.bandwidthBps, delayS: s.bottleneck.delayS, queuePackets: 0 }];
    if (f.receiverAccess) links.push(f.receiverAccess);
    let Tp = 0;
    for (const l of links) Tp += 2 * l.delayS + (wireBits + ackBits) / l.bandwidthBps;
    positive(Tp, `flows[${i}] propagation RTT`);
    return {
      Tp,
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
