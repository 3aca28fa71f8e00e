import type { CongestionControl } from '../cc/types.js';
import { windowPacingRateBps } from './pacer.js';
import { RateSampler } from './rate-sampler.js';
import { CwndKeepingRecovery } from './recovery/cwnd-keeping.js';
import type { LossRecovery } from './recovery/index.js';
import type { Scoreboard } from './scoreboard.js';
import type { TcpSender } from './sender.js';

/**
 * The sender's rate-based control path (Linux tcp_congestion_ops.cong_control, ns-3
 * TcpCongestionOps::HasCongControl / CongControl): for an algorithm with a congControl hook the sender
 * samples the delivery rate (src/tcp/rate-sampler.ts, Linux tcp_rate.c) and hands every ACK's sample to
 * the algorithm, which sets cwnd and the pacing rate; recovery keeps retransmitting but no longer
 * writes cwnd. A loss-based algorithm takes none of this (no sampler, no cost).
 */

/**
 * Rate-based control for `cc`, or null for window-based control: the sampler, fed every segment the
 * scoreboard sees delivered (cumulatively or by SACK), and the recovery wrapped so that cwnd stays the
 * algorithm's (Linux tcp_cong_control skips tcp_cwnd_reduction when the ops have cong_control).
 */
export function rateControlFor(cc: CongestionControl, mssBytes: number, sb: Scoreboard, recovery: LossRecovery): { rate: RateSampler; recovery: LossRecovery } | null {
  if (cc.congControl === undefined) return null;
  const rate = new RateSampler(mssBytes);
  sb.onDelivered = (seq, end) => rate.delivered(seq, end);
  return { rate, recovery: new CwndKeepingRecovery(recovery) };
}

/**
 * The algorithm's lost-segment hook, if it has one (Linux tcp_notify_skb_loss_event calling
 * icsk_ca_ops->skb_marked_lost): each segment the scoreboard marks lost reaches it with the send-time
 * state the sampler recorded for it. Looked up on `s.cc` at each loss, so a wrapped hook is seen.
 */
export function wireLostSegmentHook(s: TcpSender, rate: RateSampler): void {
  if (s.cc.onPacketLost === undefined) return;
  const sb = s.sb;
  sb.onMarkedLost = (seq, end) => s.cc.onPacketLost!(s.tcb, rate.lostSegment(seq, end, sb.markedLostBytes), rate, s.nowS);
}

/** Linux tcp_rate_gen then cong_control (ns-3 GenerateSample then CongControl), once per ACK. */
export function runCongControl(s: TcpSender, rate: RateSampler): void {
  const tcb = s.tcb;
  // Linux tcp_packets_in_flight: without SACK each duplicate ACK counts as a SACKed segment
  // (tcp_add_reno_sack); here that is the send window's allowance above cwnd (limited transmit,
  // RFC 5681 inflation), taken out of pipe so the algorithm's cwnd and the sender agree.
  tcb.bytesInFlight = Math.max(0, s.sb.pipeBytes - (s.sendWindowBytes() - tcb.cwndBytes));
  const rs = rate.endAck(s.sb.markedLostBytes);
  s.cc.congControl!(tcb, rs, rate);
}

/** After a send attempt: whether the application, not the network, is what limits the flow (Linux tcp_rate_check_app_limited). */
export function noteAppLimited(s: TcpSender, rate: RateSampler): void {
  const sb = s.sb;
  const unsent = Math.min(s.appEnd, sb.una + s.config.sndBufBytes) - sb.highTx;
  rate.checkAppLimited(unsent, sb.pipeBytes, s.tcb.cwndBytes, sb.lostBytes);
}

/** A paced flow whose algorithm sets no rate: Linux tcp_update_pacing_rate. */
export function updateWindowPacingRate(s: TcpSender): void {
  const tcb = s.tcb;
  tcb.pacingRateBps = windowPacingRateBps(tcb.cwndBytes, s.sb.outstandingBytes, tcb.ssthreshBytes, tcb.srttS);
}
