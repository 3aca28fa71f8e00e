import type { BbrMode } from './bbr.js';
import { INIT_CWND_SEGMENTS, tsoSegsGoal } from './bbr-params.js';
import type { TcpState } from './types.js';

/**
 * BBRv1's window targets from its path model (Linux tcp_bbr.c bbr_bdp, bbr_inflight,
 * bbr_quantization_budget, bbr_tso_segs_goal; ns-3 TcpBbr::InFlight): the BDP at a gain in whole segments, plus the budget for the sender's send bursts.
 * Read by the state machine (bbr.ts: cycle phases, drain) and the cwnd (bbr-cwnd.ts).
 */

/** What the targets read of one flow's BBR state. */
export interface BdpState {
  readonly p: Readonly<Record<string, number>>;
  /** Min RTT estimate, s; Infinity before a sample. */
  readonly minRttS: number;
  readonly mode: BbrMode;
  readonly cycleIndex: number;
}

/** bbr_bdp: ceil(bw x min RTT x gain) in whole segments; 10 segments before any RTT sample. */
export function bdpBytes(b: BdpState, tcb: TcpState, bwBytesPerS: number, gain: number): number {
  if (b.minRttS === Infinity) return INIT_CWND_SEGMENTS * tcb.mssBytes;
  return Math.ceil((bwBytesPerS * b.minRttS * gain) / tcb.mssBytes) * tcb.mssBytes;
}

/** bbr_inflight: BDP x gain plus the quantisation budget. */
export function inflightBytes(b: BdpState, tcb: TcpState, bwBytesPerS: number, gain: number): number {
  return quantizationBudget(b, tcb, bdpBytes(b, tcb, bwBytesPerS, gain));
}

/** bbr_quantization_budget: 3 send bursts, rounded up to an even segment count, +2 in the 1.25 phase. */
export function quantizationBudget(b: BdpState, tcb: TcpState, cwndBytes: number): number {
  const mss = tcb.mssBytes;
  let segs = Math.ceil(cwndBytes / mss) + 3 * tsoSegs(b, tcb);
  segs = (segs + 1) & ~1;
  if (b.mode === 'probe_bw' && b.cycleIndex === 0) segs += 2;
  return segs * mss;
}

/** bbr_tso_segs_goal at the current pacing rate. */
export function tsoSegs(b: BdpState, tcb: TcpState): number {
  return tsoSegsGoal(tcb.pacingRateBps, tcb.mssBytes, b.p.ns3SendQuantum === 1);
}
