import { rateSample, type LostSegment, type RateConnection, type RateSample } from '../cc/types.js';
import { WindowedFilter } from '../cc/windowedFilter.js';

const APP_LIMITED = 1;
const RETRANS = 2;
/**
 * A segment's send-time record is one row of ROW numbers (64 bytes, one cache line) in a single
 * Float64Array, not one entry in each of seven arrays: each send writes the whole record and each
 * delivered segment reads most of it, and at 100 paced flows seven arrays meant seven cache misses
 * per segment each way. Fields: tx.delivered, tx.delivered_mstamp, tx.first_tx_mstamp, the send
 * time, the flags, BBRv3's tx.in_flight and tx.lost (pipe after the send, bytes ever marked lost).
 */
const ROW = 8;
const DELIVERED = 0;
const DELIVERED_NS = 1;
const FIRST_TX_NS = 2;
const SENT_NS = 3;
const FLAGS = 4;
const IN_FLIGHT = 5;
const LOST = 6;
const NS = 1e-9;
/** Ring slots a sampler starts with: the scoreboard's (src/tcp/segment-ring.ts), above the initial window of 10. */
const INITIAL_SEGMENTS = 16;
/** Linux net.ipv4.tcp_min_rtt_wlen (300 s): the window of the connection's min-RTT filter, ns. */
const MIN_RTT_WINDOW_NS = 300e9;

/**
 * Delivery-rate sampling, as Linux `net/ipv4/tcp_rate.c` (draft-cheng-iccrg-delivery-rate-estimation)
 * and ns-3 `TcpRateLinux` do it, in bytes (as ns-3) rather than Linux's packets.
 *
 * At every transmission (new data or a retransmission) a segment records the connection's delivered
 * count, the time it last grew, the send time of the most recently delivered segment (first_tx) and
 * whether the sender was app-limited (tcp_rate_skb_sent). If nothing is outstanding, first_tx and the
 * delivery time restart at the send time: an ACK then measures a flight from its own start.
 *
 * Each segment the receiver newly holds (SACKed, or cumulatively acknowledged without having been
 * SACKed) adds its bytes to `delivered`, and the most recently sent of them (ties: the highest end)
 * becomes the ACK's sampled segment (tcp_rate_skb_delivered). At the end of the ACK
 * (tcp_rate_gen): delivered = now's count - the sampled segment's, interval = max(send interval, ACK
 * interval) where the send interval runs from the sampled segment's first_tx to its own send and the
 * ACK interval from its recorded delivery time to now; a sample whose interval is below the minimum
 * RTT is invalid (-1), as Linux discards it. The app-limited mark ends once the bytes in flight at the
 * moment it was set are delivered.
 *
 * The sample's RTT and the minimum it is checked against are Linux's: the RTT of the most recently
 * sent segment the ACK delivers that was never retransmitted (ca_rtt_us, from tcp_clean_rtx_queue's
 * last_ackt or the SACK's last_sackt), and tp->rtt_min, a windowed min (win_minmax, 300 s) of those
 * RTTs, updated before tcp_rate_gen (tcp_ack_update_rtt -> tcp_update_rtt_min). Not the timestamp
 * RTT: a delayed ACK echoes the first segment of the pair it covers (RFC 7323 3.4), so on a paced
 * flow every timestamp RTT is one send gap longer than the path's, and intervals of one path RTT
 * would be thrown away. (ns-3 TcpRateLinux is handed tcb->m_minRtt, the min of the smoothed
 * timestamp RTT; Linux is followed here.) Left out: Linux's FLAG_ACK_MAYBE_DELAYED skip, which only
 * concerns a lone sub-MSS segment, and its timestamp fallback when only retransmissions are ACKed
 * (rttS is then -1 and the minimum unchanged).
 *
 * One difference from Linux, kept on purpose: Linux picks the sampled segment when `!prior_delivered
 * || sent_after`, so in the very first flight (every segment recorded delivered = 0) the last segment
 * processed wins even when an earlier-sent one is processed after a later-sent one; here only
 * "sent after" decides (ns-3 compares send times the same way).
 *
 * Per-segment records live in rings indexed by segment number (the sender cuts full MSS segments),
 * grown like the scoreboard's. The sampler exists only for algorithms with a congControl hook: loss-
 * based runs pay nothing for it.
 */
export class RateSampler implements RateConnection {
  deliveredBytes = -0;
  appLimitedUntilBytes = 0;
  rateDeliveredBytes = -0;
  rateIntervalS = -0;
  rateAppLimited = false;
  lostBytes = -0;
  /** tp->delivered_mstamp and tp->first_tx_mstamp, ns. */
  private deliveredNs = -0;
  private firstTxNs = -0;
  /** tp->rtt_min: windowed min of the newest delivered segments' RTTs, ns (Infinity before one). */
  private readonly minRttFilter = new WindowedFilter('min', MIN_RTT_WINDOW_NS, Infinity);
  /** The sample of the ACK being processed (reused: read it before the next ACK). */
  readonly rs: RateSample = rateSample({});
  /** The segment of the last {@link lostSegment} call (reused). */
  private readonly lost: LostSegment = { seq: 0, sizeBytes: 0, txInFlightBytes: 0, lostSinceTxBytes: 0, isAppLimited: false };

  /**
   * Per-segment records, ROW numbers per segment (see ROW), in a ring of `mask + 1` segments. It starts
   * at INITIAL_SEGMENTS and doubles to the largest flight (onSend), as the scoreboard's: a ring of 1024
   * records is 64 KiB per flow, 6.4 MB at 100 flows of ~20-60 segments in flight, walked one cache line
   * per segment, each line cold again 1024 segments later.
   */
  private tx: Float64Array<ArrayBuffer> = new Float64Array(INITIAL_SEGMENTS * ROW);
  private mask = INITIAL_SEGMENTS - 1;

  // State of the ACK being processed.
  private hasPrior = false;
  private priorNs = -0;
  private lastEndSeq = -0;
  private sendIntervalNs = 0;
  private priorTxInFlight = -0;
  private priorTxLost = -0;
  private newestCleanSentNs = -Infinity;
  private deliveredAtAckStart = -0;
  private lostAtAckStart = -0;
  private ackNowNs = -0;
  /**
   * Without SACK, bytes counted as delivered by duplicate ACKs and not yet cumulatively acknowledged
   * (Linux tcp_add_reno_sack counts each duplicate ACK as one delivered segment; tcp_remove_reno_sacks
   * takes them off what the cumulative ACK delivers), so that delivery keeps its pace through a hole.
   */
  private renoSackedBytes = 0;
  /** This ACK has already counted its one segment that does not eat duplicate-ACK credit. */
  private holeCounted = false;

  constructor(readonly mssBytes: number) {
    // The fields declared `= -0` hold doubles (times in ns, byte counts, seconds) and start as one: V8
    // types a field by its first value, and one that starts as a small integer and gets a double later
    // (ns past 2^30, the first loss) moves every object of the class to a new map, which throws away each
    // optimized function that read the old one. At 100 BBR flows that happened after the ACK path was
    // compiled (a 3 s run: 41-44 such deopts, 14-17 with this). Set back to +0 here: a double field
    // stays one, and no -0 is ever read.
    this.deliveredBytes = this.lostBytes = this.rateDeliveredBytes = this.rateIntervalS = 0;
    this.deliveredNs = this.firstTxNs = this.priorNs = this.lastEndSeq = this.ackNowNs = 0;
    this.priorTxInFlight = this.priorTxLost = this.deliveredAtAckStart = this.lostAtAckStart = 0;
  }

  get deliveredTimeS(): number {
    return this.deliveredNs * NS;
  }

  get firstTxTimeS(): number {
    return this.firstTxNs * NS;
  }

  /** The connection's min RTT as Linux keeps it (tcp_min_rtt), s; Infinity before a sample. */
  get minRttS(): number {
    return this.minRttFilter.best * NS;
  }

  /** Offset of the record of the segment starting at seq. */
  private index(seq: number): number {
    return (Math.floor(seq / this.mssBytes) & this.mask) * ROW;
  }

  /**
   * A segment [seq, seq + len) goes on the wire (Linux tcp_rate_skb_sent).
   * @param nothingOutstanding SND.UNA == SND.MAX before this send (Linux !tp->packets_out).
   * @param una SND.UNA, to size the rings.
   * @param inFlightBytes RFC 6675 pipe with this segment counted (Google v3 tx.in_flight).
   * @param markedLostBytes bytes ever marked lost so far (Google v3 tx.lost = tp->lost).
   */
  onSend(seq: number, nowNs: number, isRetx: boolean, nothingOutstanding: boolean, una: number, inFlightBytes = 0, markedLostBytes = 0): void {
    const span = Math.floor(seq / this.mssBytes) - Math.floor(una / this.mssBytes) + 1;
    if (span > this.mask + 1) this.grow(span, una, seq);
    if (nothingOutstanding) {
      this.firstTxNs = nowNs;
      this.deliveredNs = nowNs;
    }
    const i = this.index(seq);
    const tx = this.tx;
    tx[i + DELIVERED] = this.deliveredBytes;
    tx[i + DELIVERED_NS] = this.deliveredNs;
    tx[i + FIRST_TX_NS] = this.firstTxNs;
    tx[i + SENT_NS] = nowNs;
    tx[i + FLAGS] = (this.appLimitedUntilBytes > 0 ? APP_LIMITED : 0) | (isRetx ? RETRANS : 0);
    tx[i + IN_FLIGHT] = inFlightBytes;
    tx[i + LOST] = markedLostBytes;
  }

  private grow(span: number, una: number, top: number): void {
    let cap = this.mask + 1;
    while (cap < span) cap *= 2;
    const mss = this.mssBytes;
    const first = Math.floor(una / mss);
    const last = Math.floor(top / mss);
    const old = this.tx;
    const next = new Float64Array(cap * ROW);
    for (let seg = first; seg < last; seg++) {
      const from = (seg & this.mask) * ROW;
      next.set(old.subarray(from, from + ROW), (seg & (cap - 1)) * ROW);
    }
    this.tx = next;
    this.mask = cap - 1;
  }

  /**
   * An ACK arrives, before the scoreboard takes it.
   * @param pipeBytes RFC 6675 pipe now (rs->prior_in_flight).
   * @param markedLostBytes the scoreboard's running count of bytes ever marked lost (Linux tp->lost).
   */
  beginAck(nowNs: number, pipeBytes: number, markedLostBytes: number): void {
    this.ackNowNs = nowNs;
    this.hasPrior = false;
    this.newestCleanSentNs = -1;
    this.deliveredAtAckStart = this.deliveredBytes;
    this.holeCounted = false;
    this.lostAtAckStart = markedLostBytes;
    this.rs.priorInFlightBytes = pipeBytes;
  }

  /** The receiver newly holds [seq, end): SACKed, or cumulatively acknowledged and not SACKed before (tcp_rate_skb_delivered). */
  delivered(seq: number, end: number): void {
    // Without SACK, Linux tcp_remove_reno_sacks: "One ACK acked hole. The rest eat duplicate ACKs":
    // an ACK that acknowledges data counts max(acked - sacked_out, 1) segments delivered, so its first
    // segment never eats the duplicate-ACK credit (else a NewReno recovery that repairs one hole per
    // round would deliver nothing for rounds on end).
    let len = end - seq;
    if (!this.holeCounted && this.renoSackedBytes > 0) {
      this.holeCounted = true;
      len -= Math.min(len, this.mssBytes);
    }
    const credit = Math.min(len, this.renoSackedBytes);
    this.renoSackedBytes -= credit;
    this.deliveredBytes += end - seq - credit;
    // Linux moves delivered_mstamp and ends the app-limited period in tcp_rate_gen, before anything
    // this ACK sends (tcp_xmit_recovery comes after): here at once, which is the same for those sends.
    this.deliveredNs = this.ackNowNs;
    if (this.appLimitedUntilBytes > 0 && this.deliveredBytes > this.appLimitedUntilBytes) this.appLimitedUntilBytes = 0;
    const i = this.index(seq);
    const tx = this.tx;
    const sentNs = tx[i + SENT_NS]!;
    const flags = tx[i + FLAGS]!;
    if (!this.hasPrior || sentNs > this.firstTxNs || (sentNs === this.firstTxNs && end > this.lastEndSeq)) {
      this.hasPrior = true;
      const rs = this.rs;
      rs.priorDeliveredBytes = tx[i + DELIVERED]!;
      rs.isAppLimited = (flags & APP_LIMITED) !== 0;
      rs.isRetrans = (flags & RETRANS) !== 0;
      this.priorNs = tx[i + DELIVERED_NS]!;
      this.lastEndSeq = end;
      this.firstTxNs = sentNs;
      this.sendIntervalNs = sentNs - tx[i + FIRST_TX_NS]!;
      this.priorTxInFlight = tx[i + IN_FLIGHT]!;
      this.priorTxLost = tx[i + LOST]!;
    }
    // Linux ca_rtt_us: the newest send among delivered segments never retransmitted (Karn).
    if ((flags & RETRANS) === 0 && sentNs > this.newestCleanSentNs) this.newestCleanSentNs = sentNs;
  }

  /**
   * The scoreboard just marked [seq, end) lost: its send-time state as BBRv3 reads it in
   * bbr_skb_marked_lost (tx.in_flight, tp->lost - tx.lost, tx.is_app_limited), from the record of
   * its latest transmission. A segment being marked lost was never SACKed, so its record is live
   * (Linux's tx.delivered_mstamp != 0 check).
   * @param markedLostBytes bytes ever marked lost, this segment included (Linux tp->lost after tcp_sum_lost).
   */
  lostSegment(seq: number, end: number, markedLostBytes: number): LostSegment {
    const i = this.index(seq);
    const p = this.lost;
    p.seq = seq;
    p.sizeBytes = end - seq;
    const tx = this.tx;
    p.txInFlightBytes = tx[i + IN_FLIGHT]!;
    p.lostSinceTxBytes = markedLostBytes - tx[i + LOST]!;
    p.isAppLimited = (tx[i + FLAGS]! & APP_LIMITED) !== 0;
    return p;
  }

  /** Without SACK, a duplicate ACK: one segment has left the network (Linux tcp_add_reno_sack). */
  renoDupAck(): void {
    this.renoSackedBytes += this.mssBytes;
    this.deliveredBytes += this.mssBytes;
    this.deliveredNs = this.ackNowNs;
  }

  /** A timeout forgets the duplicate-ACK credit (Linux tcp_enter_loss: tcp_reset_reno_sack). */
  resetRenoSacks(): void {
    this.renoSackedBytes = 0;
  }

  /**
   * The ACK is processed (Linux tcp_ack_update_rtt's rtt_min, then tcp_rate_gen): fills {@link rs}.
   * Its time is the one {@link beginAck} took: the caller (the end of the sender's onAck, which V8
   * does not inline this into) no longer passes a time past 2^30 ns as an argument, a new heap
   * number per ACK.
   */
  endAck(markedLostBytes: number): RateSample {
    const nowNs = this.ackNowNs;
    const rs = this.rs;
    rs.nowS = nowNs / 1e9; // nsToSeconds, written out: a call V8 does not inline would return a new heap number
    rs.ackedSackedBytes = this.deliveredBytes - this.deliveredAtAckStart;
    rs.lostBytes = markedLostBytes - this.lostAtAckStart;
    this.lostBytes = markedLostBytes;
    if (this.newestCleanSentNs >= 0) {
      const rttNs = nowNs - this.newestCleanSentNs;
      rs.rttS = rttNs * NS;
      this.minRttFilter.update(nowNs, rttNs);
    } else {
      rs.rttS = -1;
    }
    rs.deliveryRateBps = 0;
    rs.txInFlightBytes = this.hasPrior ? this.priorTxInFlight : 0;
    rs.lostSinceTxBytes = this.hasPrior ? markedLostBytes - this.priorTxLost : 0;
    if (!this.hasPrior) {
      rs.deliveredBytes = -1;
      rs.intervalS = -1;
      rs.sendIntervalS = 0;
      rs.ackIntervalS = 0;
      rs.isAppLimited = false;
      rs.isRetrans = false;
      rs.priorDeliveredBytes = 0;
      return rs;
    }
    rs.deliveredBytes = this.deliveredBytes - rs.priorDeliveredBytes;
    rs.sendIntervalS = this.sendIntervalNs * NS;
    rs.ackIntervalS = (nowNs - this.priorNs) * NS;
    const intervalS = Math.max(rs.sendIntervalS, rs.ackIntervalS);
    if (intervalS < this.minRttS) {
      rs.intervalS = -1;
      return rs;
    }
    rs.intervalS = intervalS;
    rs.deliveryRateBps = intervalS > 0 ? (rs.deliveredBytes * 8) / intervalS : 0;
    // Keep the last non-app-limited sample or the highest app-limited one.
    if (!rs.isAppLimited || rs.deliveredBytes * this.rateIntervalS >= this.rateDeliveredBytes * intervalS) {
      this.rateDeliveredBytes = rs.deliveredBytes;
      this.rateIntervalS = intervalS;
      this.rateAppLimited = rs.isAppLimited;
    }
    return rs;
  }

  /**
   * Linux tcp_rate_check_app_limited: the application has less than a segment unsent, the window
   * is not full and nothing is waiting to be retransmitted, so what is in flight now marks the end
   * of an app-limited period (at least 1, as Linux's `?: 1`).
   */
  checkAppLimited(unsentBytes: number, pipeBytes: number, cwndBytes: number, lostBytes: number): void {
    if (unsentBytes < this.mssBytes && pipeBytes < cwndBytes && lostBytes === 0) {
      this.appLimitedUntilBytes = this.deliveredBytes + pipeBytes || 1;
    }
  }
}
