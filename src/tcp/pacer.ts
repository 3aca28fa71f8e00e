import type { LazyTimer } from '../engine/timer.js';

/**
 * Per-flow pacing, as Linux's internal TCP pacing (tcp_pacing_check / tcp_update_skb_after_send, the
 * same spacing the fq qdisc applies) and ns-3's pacing timer (TcpSocketBase::m_pacingTimer): departure
 * i + 1 is no earlier than departure i + len_i x 8 / rate_i, rate_i being the pacing rate when segment
 * i left. Lengths are payload bytes, as Linux's internal pacing counts skb->len of the write queue and
 * ns-3 the segment size; the rate is in payload bits per second (TcpState.pacingRateBps).
 *
 * Two simplifications, both ns-3's: every segment is paced, including the first ten Linux leaves
 * unpaced, and an idle sender earns no credit (Linux lets up to half a segment's slot be made up
 * after a gap). A sender that is held arms its pacing timer (EV_PACE) for the next allowed time and
 * tries again when it fires.
 */
export class Pacer {
  /** Earliest time of the next departure, ns. */
  nextSendNs = 0;
  /** A fast retransmission the pacing held back: sent first when the timer fires, whatever cwnd says. */
  owedFastRetransmit = false;

  constructor(private readonly timer: LazyTimer) {}

  /** True if sending now would come too soon; then the timer is armed for the allowed time. */
  holds(nowNs: number): boolean {
    if (nowNs >= this.nextSendNs) return false;
    if (this.timer.deadline !== this.nextSendNs) this.timer.armAt(this.nextSendNs);
    return true;
  }

  /** A segment of `len` payload bytes left now at `rateBps` (Infinity: no spacing). */
  sent(nowNs: number, len: number, rateBps: number): void {
    if (!(rateBps > 0)) throw new RangeError(`pacing rate must be > 0 bit/s (Infinity: unpaced), got ${rateBps}`);
    this.nextSendNs = rateBps === Infinity ? nowNs : nowNs + Math.ceil((len * 8e9) / rateBps);
  }

  /** The timer's event fired: true if it is due (not a stale event of a re-armed timer). */
  fire(): boolean {
    return this.timer.fire();
  }
}

/**
 * The pacing rate Linux gives a paced flow whose algorithm sets none (tcp_update_pacing_rate, and
 * ns-3 TcpSocketBase::UpdatePacingRate): cwnd x MSS / SRTT (cwnd at least the outstanding data) times
 * 200% while cwnd < ssthresh / 2 (slow start, net.ipv4.tcp_pacing_ss_ratio) and 120% after
 * (tcp_pacing_ca_ratio). Before the first RTT sample Linux divides by nothing: unpaced.
 */
export function windowPacingRateBps(cwndBytes: number, outstandingBytes: number, ssthreshBytes: number, srttS: number): number {
  if (!(srttS > 0)) return Infinity;
  const ratio = cwndBytes < ssthreshBytes / 2 ? 2 : 1.2;
  return (ratio * Math.max(cwndBytes, outstandingBytes) * 8) / srttS;
}
