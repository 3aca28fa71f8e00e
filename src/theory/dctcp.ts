import { queueParams } from '../net/qdisc/registry.js';
import { flowCc } from '../scenario/flowCc.js';
import { baseRttS, packetBits, sharedQueue } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';

/**
 * DCTCP's steady state on a step-marking queue: the queue's oscillation around K, as a closed form.
 *
 * N synchronised DCTCP flows share C packets/s with base RTT R; the queue marks every packet that
 * finds K or more waiting. Alizadeh et al. (SIGCOMM 2010, s. 3.3; the limit cycle that "Analysis of
 * DCTCP", SIGMETRICS 2011, proves stable for their fluid model): each window grows by one segment per
 * RTT until the queue reaches K, when the windows sum to C R + K, i.e. W* = (C R + K) / N each; one
 * RTT of marks later each window has reached W* + 1 and the queue Q_max = N (W* + 1) - C R = K + N.
 * The marked fraction per cycle, alpha, solves alpha^2 (1 - alpha / 4) = (2 W* + 1) / (W* + 1)^2
 * (about sqrt(2 / W*)); each window then drops by D = (W* + 1) alpha / 2, so the queue swings by
 * A = N D ~ (1/2) sqrt(2 N (C R + K)) down to Q_min = Q_max - A, and a cycle lasts D RTTs (one
 * segment per RTT back up).
 *
 * What the sources say could not all be read here: only the SIGMETRICS paper's abstract (its fluid model
 * has limit cycles, not a fixed point, so no linearisation) was available; the amplitude above is the
 * SIGCOMM 2010 analysis that paper refines, as the packet engine's test cites it.
 */
export interface DctcpOscillation {
  flows: number;
  /** C R, the bandwidth-delay product in packets (base RTT). */
  bdpPackets: number;
  kPackets: number;
  /** Each flow's window when the queue reaches K, segments. */
  wStar: number;
  /** The marked fraction per cycle, the steady alpha. */
  alpha: number;
  /** Peak-to-trough swing of the queue, packets. */
  amplitudePackets: number;
  qMaxPackets: number;
  qMinPackets: number;
  /** Period of the sawtooth in RTTs, and in seconds at the RTT of a queue at K (R + K / C). */
  periodRtts: number;
  periodS: number;
  /** Whether the analysis's assumptions hold, with one sentence per failed one. */
  valid: boolean;
  reasons: string[];
}

/** The closed form for N flows, C packets/s, base RTT R (s), threshold K (packets), EWMA gain g. */
export function dctcpOscillation(o: { flows: number; capacityPps: number; rttS: number; kPackets: number; g?: number; bufferPackets?: number }): DctcpOscillation {
  const N = o.flows;
  const bdp = o.capacityPps * o.rttS;
  const K = o.kPackets;
  const W = (bdp + K) / N;
  let alpha = Math.sqrt(2 / W);
  for (let k = 0; k < 50; k++) alpha = Math.min(1, Math.sqrt((2 * W + 1) / (W + 1) ** 2 / (1 - alpha / 4)));
  const D = ((W + 1) * alpha) / 2;
  const A = N * D;
  const qMax = K + N;
  const reasons: string[] = [];
  if (W < 10) reasons.push(`each window at K is ${W.toFixed(1)} segments; the analysis expands in 1/W* and needs W* >= 10`);
  if (qMax - A < 0) reasons.push(`the queue would swing ${A.toFixed(1)} packets below Q_max = ${qMax}: it empties (K < C R / 7 = ${(bdp / 7).toFixed(1)}), the link idles and the sawtooth is cut`);
  const g = o.g ?? 1 / 16;
  const gMax = 1.386 / Math.sqrt(2 * (bdp + K));
  if (g > gMax) reasons.push(`g = ${g} is above 1.386 / sqrt(2 (C R + K)) = ${gMax.toFixed(4)}: alpha does not average over a cycle`);
  if (o.bufferPackets !== undefined && qMax > o.bufferPackets) reasons.push(`Q_max = K + N = ${qMax} exceeds the buffer (${o.bufferPackets} packets): losses, not marks, end the cycles`);
  return {
    flows: N,
    bdpPackets: bdp,
    kPackets: K,
    wStar: W,
    alpha,
    amplitudePackets: A,
    qMaxPackets: qMax,
    qMinPackets: qMax - A,
    periodRtts: D,
    periodS: D * (o.rttS + K / o.capacityPps),
    valid: reasons.length === 0,
    reasons,
  };
}

/** The closed form for a Scenario: its step-marking bottleneck, flow 0's base RTT, the flows' g. */
export function scenarioDctcpOscillation(s: Scenario): DctcpOscillation {
  const q = s.bottleneck.queue;
  const C = sharedQueue(s).bandwidthBps / packetBits(s);
  const K = q.kind === 'step' ? (queueParams(q).thresholdPackets as number) : NaN;
  const out = dctcpOscillation({ flows: s.flows.length, capacityPps: C, rttS: baseRttS(s), kPackets: K, g: (flowCc(s, 0).ccParams.g as number | undefined) ?? 1 / 16, bufferPackets: q.limitPackets });
  const extra: string[] = [];
  if (q.kind !== 'step') extra.push(`the queue is ${q.kind}, not a step marker at K (queue kind: step)`);
  else if (!(queueParams(q).ecn as boolean) || s.tcp.ecn !== true) extra.push('ECN is off: packets above K are dropped, not marked');
  if (sharedQueue(s).role !== 'bottleneck') extra.push(`the ${sharedQueue(s).role} link is slower than the bottleneck: its queue, not the marking one, fills`);
  const rtts = s.flows.map((_, i) => baseRttS(s, i));
  if (Math.max(...rtts) > 1.01 * Math.min(...rtts)) extra.push('the flows have different RTTs: the analysis assumes synchronised identical flows');
  if (s.flows.some((_, i) => flowCc(s, i).variant !== 'dctcp')) extra.push('not every flow runs DCTCP');
  const reasons = [...extra, ...out.reasons];
  return { ...out, reasons, valid: reasons.length === 0 };
}
