/**
 * Shared window arithmetic, after the building blocks Linux exports from `net/ipv4/tcp_cong.c`
 * (`tcp_slow_start`, `tcp_cong_avoid_ai`, `tcp_reno_ssthresh`) and the ns-3 `TcpNewReno` rules in
 * `tcp-congestion-ops.cc`. Every window here is in bytes, as in ns-3's TcpSocketState; segment counts
 * are derived from `tcb.mssBytes`. Results are whole bytes (ns-3 keeps cwnd in a uint32), so every
 * rounding below is a floor, and the comment says where it matters.
 */
import type { TcpState } from './types.js';

/** cwnd in whole segments, at least 1 (Linux `snd_cwnd`; ns-3 `GetCwndInSegments`). */
export function cwndSegments(tcb: TcpState): number {
  return Math.max(1, Math.floor(tcb.cwndBytes / tcb.mssBytes));
}

/** True while cwnd < ssthresh: RFC 5681 (3.1) slow start; Linux `tcp_in_slow_start`. */
export function inSlowStart(tcb: TcpState): boolean {
  return tcb.cwndBytes < tcb.ssthreshBytes;
}

/**
 * Slow start by acknowledged segments (Linux `tcp_slow_start`, ns-3 `TcpNewReno::SlowStart`):
 * cwnd += segmentsAcked x MSS, capped at ssthresh. A delayed ACK covering 2 segments grows cwnd by
 * 2 MSS, which is RFC 3465 byte counting with L = 2 SMSS (RFC 5681 allows it).
 *
 * @returns the segments left over once ssthresh is reached, to be spent in congestion avoidance.
 *   As in ns-3, the segments used are floor(increase / MSS), so a cap that falls mid-segment leaves
 *   the whole ACKed segment to congestion avoidance.
 */
export function slowStart(tcb: TcpState, segmentsAcked: number): number {
  if (segmentsAcked <= 0) return 0;
  const before = tcb.cwndBytes;
  tcb.cwndBytes = Math.min(before + segmentsAcked * tcb.mssBytes, tcb.ssthreshBytes);
  // cwnd above ssthresh on entry (not a slow-start call) would make the increase negative.
  const used = Math.max(0, Math.floor((tcb.cwndBytes - before) / tcb.mssBytes));
  return Math.max(0, segmentsAcked - used);
}

/**
 * Slow start by ACKs, not segments: ns-3 `TcpNewReno::SlowStart` adds one MSS for an ACK of new data
 * however many segments it covers (RFC 5681 eq. (2) with the byte count clipped at one SMSS), and does
 * not clip at ssthresh. Under delayed ACKs this grows cwnd by about 1.5x per RTT instead of 2x, which is
 * what ns-3's TcpNewReno (and TcpWestwoodPlus, which inherits it) does in the reference runs.
 *
 * @returns segmentsAcked - 1: the segments not used, which ns-3 passes to congestion avoidance
 *   when cwnd has reached ssthresh.
 */
export function slowStartPerAck(tcb: TcpState, segmentsAcked: number): number {
  if (segmentsAcked < 1) return 0;
  tcb.cwndBytes += tcb.mssBytes;
  return segmentsAcked - 1;
}

/** Per-flow credit of acknowledged segments for {@link congAvoidAI} (Linux `snd_cwnd_cnt`). */
export interface AiCredit {
  /** Segments acknowledged since cwnd last grew by one segment. */
  cnt: number;
}

/**
 * Additive increase by segment counting (Linux `tcp_cong_avoid_ai`, ns-3
 * `TcpLinuxReno::CongestionAvoidance`): +1 MSS for every `w` segments acknowledged, carried in a
 * per-flow credit so that delayed ACKs (2 segments each) grow cwnd as fast as per-segment ACKs.
 * With w = cwnd in segments this is +1 MSS per RTT, like RFC 3465 byte counting.
 *
 * @param w segments to acknowledge per 1 MSS of growth (>= 1).
 * @param acked segments acknowledged by this ACK.
 */
export function congAvoidAI(tcb: TcpState, credit: AiCredit, w: number, acked: number): void {
  const win = Math.max(1, Math.floor(w));
  // Credit accumulated at a larger w (before a window cut) is applied gently: one segment, then reset.
  if (credit.cnt >= win) {
    credit.cnt = 0;
    tcb.cwndBytes += tcb.mssBytes;
  }
  credit.cnt += acked;
  if (credit.cnt >= win) {
    const delta = Math.floor(credit.cnt / win);
    credit.cnt -= delta * win;
    tcb.cwndBytes += delta * tcb.mssBytes;
  }
}

/**
 * RFC 5681 (3.1) per-ACK congestion avoidance, eq. (3): cwnd += SMSS x SMSS / cwnd for each ACK of
 * new data, whatever it acknowledges (ns-3 `TcpNewReno::CongestionAvoidance`). About +1 MSS per RTT
 * when every segment is ACKed, +1/2 MSS per RTT under delayed ACKs. As ns-3 does, the increment is
 * truncated to whole bytes and is at least 1 byte (RFC 5681: "at least 1 byte").
 */
export function congAvoidPerAck(tcb: TcpState): void {
  const adder = Math.max(1, (tcb.mssBytes * tcb.mssBytes) / tcb.cwndBytes);
  tcb.cwndBytes += Math.floor(adder);
}

/**
 * Linux `tcp_reno_ssthresh` / ns-3 `TcpLinuxReno::GetSsThresh`: half of cwnd, at least 2 MSS.
 * Cut from cwnd (not flight size). Whole bytes (ns-3 `m_cWnd / 2`).
 */
export function renoSsthresh(tcb: TcpState): number {
  return Math.max(Math.floor(tcb.cwndBytes / 2), 2 * tcb.mssBytes);
}

/**
 * RFC 5681 (3.1) eq. (4) / ns-3 `TcpNewReno::GetSsThresh`: ssthresh = max(FlightSize / 2, 2 SMSS).
 * Cut from the data in flight, which is smaller than cwnd when the sender is application- or
 * receiver-window-limited.
 */
export function flightSsthresh(tcb: TcpState): number {
  return Math.max(Math.floor(tcb.bytesInFlight / 2), 2 * tcb.mssBytes);
}
