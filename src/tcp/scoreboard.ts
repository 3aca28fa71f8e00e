import { RangeSet } from './ranges.js';
import { emptyDoubles, LOST as LOST_FLAG, RETRANS as RETRANS_FLAG, SACKED as SACKED_FLAG, SegmentRing } from './segment-ring.js';

// Module-local copies: tsx/vite read imported bindings through accessors, a call per hot-path use.
const SACKED: number = SACKED_FLAG;
const LOST: number = LOST_FLAG;
const RETRANS: number = RETRANS_FLAG;

/**
 * The sender's view of its sequence space (RFC 6675 "scoreboard"): SND.UNA, SND.MAX, which segments
 * the receiver has SACKed, which are presumed lost, and which were retransmitted. With SACK off it
 * holds no SACK marks, and the same bookkeeping gives RFC 5681's FlightSize.
 *
 * Representation: the SACKed bytes as sorted intervals (RangeSet, binary-searched), plus one flag
 * byte per outstanding segment for the SACKed, lost and retransmitted marks (the SegmentRing it
 * extends, src/tcp/segment-ring.ts, with SND.UNA and SND.MAX). Three byte counters keep
 *   pipe = outstanding - SACKed - lost + retransmitted
 * (RFC 6675 SetPipe: each unSACKed octet counts once if not lost and once more if retransmitted;
 * Linux's tcp_packets_in_flight is the same sum), so every query is O(1) and an ACK costs O(log n)
 * plus the segments whose state it changes, whatever the window.
 *
 * Lost marks follow RFC 6675 IsLost: a segment is lost when DupThresh SACKed segments lie above it.
 * That boundary only moves up while SACK information grows, so everything unSACKed below it is
 * marked once, incrementally (`lostBelow`).
 */
export class Scoreboard extends SegmentRing {
  readonly sacked = new RangeSet();
  /** Bytes marked lost and not SACKed. */
  lostBytes = -0;
  /** Bytes retransmitted since they were last marked lost, not SACKed. */
  retransBytes = -0;
  /** Every unSACKed byte below this is marked lost. */
  lostBelow = -0;
  /** RFC 6675 HighRxt + 1: retransmission rules 1 and 3 look at and above it. */
  highRxt = -0;
  /** RFC 6675 RescueRxt + 1, or -1 while undefined. */
  rescueRxt = -1;
  /** Bytes ever marked lost, re-marks included (Linux tp->lost): the rate sample's losses per ACK. */
  markedLostBytes = -0;
  /**
   * Told of every segment the receiver newly holds: newly SACKed, or cumulatively acknowledged without
   * having been SACKed (Linux calls tcp_rate_skb_delivered at the same two places). Null unless a
   * delivery-rate sampler listens (src/tcp/rate-sampler.ts).
   */
  onDelivered: ((seq: number, end: number) => void) | null = null;
  /**
   * Told of every segment newly counted in {@link markedLostBytes} (RFC 6675 IsLost marks, the head marked at a fast
   * retransmit without SACK, lost retransmissions, a timeout's marks), just after the count includes it: Linux
   * tcp_mark_skb_lost -> tcp_notify_skb_loss_event. Null unless an algorithm with a lost-segment hook listens (rate-control.ts).
   */
  onMarkedLost: ((seq: number, end: number) => void) | null = null;

  /** Newest last-sent time among the segments SACKed by the ACK being processed, ns (-Infinity: none). */
  private newestSackedSentNs = -Infinity;
  /** Retransmissions in the order they were sent (seq, time): oldest first. */
  private rtxSeq = emptyDoubles();
  private rtxNs = emptyDoubles();
  private rtxHead = 0;
  /** Retransmissions found lost again, to be resent before anything else (ascending order not needed). */
  private relost = emptyDoubles();

  /** @param sack SACK negotiated: without it no SACK marks exist and retransmissions are not queued for loss detection. */
  constructor(mssBytes: number, private readonly sackOn = true) {
    super(mssBytes);
    this.lostBytes = this.retransBytes = this.markedLostBytes = this.lostBelow = this.highRxt = 0; // `= -0`: see RateSampler()
  }

  get sackedBytes(): number {
    return this.sacked.bytes;
  }

  /** RFC 6675 pipe, in bytes. */
  get pipeBytes(): number {
    return this.highTx - this.una - this.sacked.bytes - this.lostBytes + this.retransBytes;
  }

  /** Highest SACKed byte + 1 (una when nothing is SACKed). */
  get highestSacked(): number {
    return this.sacked.count > 0 ? this.sacked.lastEnd : this.una;
  }

  /** The segment at seq was retransmitted. */
  retransmitted(seq: number, nowNs = 0): void {
    const i = this.flagIndex(seq);
    const f = this.flags[i]!;
    const end = this.segEnd(seq);
    if ((f & RETRANS) === 0 && (f & SACKED) === 0) this.retransBytes += end - seq;
    this.flags[i] = f | RETRANS;
    this.sentNs[i] = nowNs;
    if (this.sackOn) {
      this.rtxSeq.push(seq);
      this.rtxNs.push(nowNs);
    }
    if (end > this.highRxt) this.highRxt = end;
  }

  /**
   * Lost retransmissions (Linux tcp_mark_lost_retrans, RFC 8985 RACK's "sent after" rule, ns-3
   * TcpTxBuffer::MarkRetransmittedSegmentsLost): a retransmission still unSACKed below the highest
   * SACK when a segment sent after it has been SACKed was lost too; it is marked lost again, leaves
   * pipe, and is resent first, instead of waiting for the retransmission timer.
   * Call after the ACK's SACK blocks; O(1) amortised (retransmissions are examined in send order).
   */
  markLostRetransmissions(): void {
    const newest = this.newestSackedSentNs;
    this.newestSackedSentNs = -1;
    if (newest < 0) return;
    const below = this.sacked.count > 0 ? this.sacked.startAt(this.sacked.count - 1) : this.una;
    const mss = this.mssBytes;
    while (this.rtxHead < this.rtxSeq.length && this.rtxNs[this.rtxHead]! < newest) {
      const seq = this.rtxSeq[this.rtxHead]!;
      if (seq >= below) break; // ns-3 and Linux look below the highest SACK only
      this.rtxHead++;
      if (seq < this.una) continue;
      const i = Math.floor(seq / mss) & this.mask;
      const f = this.flags[i]!;
      // Only the latest transmission of a segment counts (an older queue entry is stale).
      if ((f & RETRANS) === 0 || (f & SACKED) !== 0 || this.sentNs[i]! >= newest) continue;
      const len = this.segEnd(seq) - seq;
      this.retransBytes -= len;
      if ((f & LOST) === 0) this.lostBytes += len;
      this.markedLostBytes += len;
      this.flags[i] = (f & ~RETRANS) | LOST;
      this.relost.push(seq);
      if (this.onMarkedLost !== null) this.onMarkedLost(seq, seq + len);
    }
    if (this.rtxHead > 1024 && this.rtxHead * 2 > this.rtxSeq.length) {
      this.rtxSeq.splice(0, this.rtxHead);
      this.rtxNs.splice(0, this.rtxHead);
      this.rtxHead = 0;
    }
  }

  /**
   * A cumulative ACK moved SND.UNA to ack: acknowledged segments leave the scoreboard.
   * @returns the bytes that were SACKed before and are now cumulatively acknowledged.
   */
  ackTo(ack: number): number {
    if (ack <= this.una) return 0;
    // Beyond SND.MAX the segment walk below would never end (segEnd caps at highTx): callers must
    // drop such ACKs (RFC 793), so one reaching here is a bug worth stopping at.
    if (ack > this.highTx) throw new RangeError(`ackTo(${ack}) beyond SND.MAX ${this.highTx}`);
    const mss = this.mssBytes;
    const flags = this.flags;
    const delivered = this.onDelivered;
    for (let seq = this.una; seq < ack; ) {
      const end = this.segEnd(seq);
      const i = Math.floor(seq / mss) & this.mask;
      const f = flags[i]!;
      if ((f & SACKED) === 0) {
        if ((f & LOST) !== 0) this.lostBytes -= end - seq;
        if ((f & RETRANS) !== 0) this.retransBytes -= end - seq;
        if (delivered !== null) delivered(seq, end);
      }
      flags[i] = 0;
      seq = end;
    }
    const sackedBefore = this.sacked.bytes;
    this.sacked.removeBelow(ack);
    this.una = ack;
    if (this.lostBelow < ack) this.lostBelow = ack;
    if (this.highRxt < ack) this.highRxt = ack;
    return sackedBefore - this.sacked.bytes;
  }

  /**
   * A SACK block [start, end) arrived; the parts above SND.UNA not SACKed yet are marked.
   * @returns bytes newly SACKed.
   */
  sack(start: number, end: number): number {
    const s = start > this.una ? start : this.una;
    const e = end < this.highTx ? end : this.highTx;
    if (e <= s) return 0;
    const sacked = this.sacked;
    // Most blocks repeat earlier ones (RFC 2018; the first grows by one segment): a block inside the
    // range holding its start changes nothing, one growing it short of the next range SACKs just its
    // new end (as the gap walk below, with fewer searches; Linux's tcp_sack_cache skips likewise).
    let cur = s;
    const r = sacked.indexOf(s);
    if (r >= 0) {
      cur = sacked.endAt(r);
      if (cur >= e) return 0;
      if (r + 1 === sacked.count || e < sacked.startAt(r + 1)) {
        this.markSegmentsSacked(cur, e);
        return sacked.extendEnd(r, e);
      }
    }
    // Walk the gaps of the SACKed set inside [cur, e): only those segments change state.
    while (cur < e) {
      const i = sacked.indexOf(cur);
      if (i >= 0) cur = sacked.endAt(i);
      else {
        const gapEnd = Math.min(e, sacked.nextStartAbove(cur));
        this.markSegmentsSacked(cur, gapEnd);
        cur = gapEnd;
      }
    }
    return sacked.add(s, e);
  }

  private markSegmentsSacked(from: number, to: number): void {
    const mss = this.mssBytes;
    const flags = this.flags;
    for (let seq = from; seq < to; ) {
      const end = this.segEnd(seq);
      const i = Math.floor(seq / mss) & this.mask;
      const f = flags[i]!;
      if ((f & LOST) !== 0) this.lostBytes -= end - seq;
      if ((f & RETRANS) !== 0) this.retransBytes -= end - seq;
      flags[i] = SACKED;
      if (this.sentNs[i]! > this.newestSackedSentNs) this.newestSackedSentNs = this.sentNs[i]!;
      if (this.onDelivered !== null) this.onDelivered(seq, end);
      seq = end;
    }
  }

  /**
   * RFC 6675 IsLost with DupThresh SACKed segments: marks every unSACKed segment lost that has
   * at least dupThresh SACKed segments above it.
   * @returns true if the mark moved.
   */
  markLost(dupThresh: number): boolean {
    const boundary = this.lossBoundary(dupThresh);
    if (boundary <= this.lostBelow) return false;
    this.markLostRange(this.lostBelow, boundary);
    return true;
  }

  /** Start of the dupThresh-th highest SACKed segment (SND.UNA when fewer are SACKed). */
  private lossBoundary(dupThresh: number): number {
    const mss = this.mssBytes;
    const sacked = this.sacked;
    let need = dupThresh;
    for (let r = sacked.count - 1; r >= 0; r--) {
      const start = sacked.startAt(r);
      const end = sacked.endAt(r);
      const segs = Math.ceil(end / mss) - Math.floor(start / mss);
      if (segs >= need) return Math.floor(start / mss) * mss + (segs - need) * mss;
      need -= segs;
    }
    return this.una;
  }

  private markLostRange(from: number, to: number): void {
    const mss = this.mssBytes;
    const flags = this.flags;
    let cur = Math.max(from, this.una);
    while (cur < to) {
      const r = this.sacked.indexOf(cur);
      if (r >= 0) {
        cur = this.sacked.endAt(r);
        continue;
      }
      const end = this.segEnd(cur);
      const i = Math.floor(cur / mss) & this.mask;
      const f = flags[i]!;
      if ((f & LOST) === 0) {
        this.lostBytes += end - cur;
        this.markedLostBytes += end - cur;
        flags[i] = f | LOST;
        if (this.onMarkedLost !== null) this.onMarkedLost(cur, end);
      }
      cur = end;
    }
    if (to > this.lostBelow) this.lostBelow = to;
  }

  /** Marks the head segment lost (fast retransmit or a partial ACK without SACK). */
  markHeadLost(): void {
    if (this.una >= this.highTx) return;
    this.markLostRange(this.una, this.segEnd(this.una));
  }

  /**
   * A retransmission timeout: every unSACKed outstanding segment is presumed lost and earlier
   * retransmissions no longer count as in flight (Linux tcp_timeout_mark_lost). SACK marks are
   * kept, as Linux and ns-3 keep them (RFC 2018's advice to discard them guards against reneging,
   * which cclab's receivers never do).
   */
  markAllLost(): void {
    const mss = this.mssBytes;
    const flags = this.flags;
    for (let seq = this.una; seq < this.highTx; ) {
      const end = this.segEnd(seq);
      const i = Math.floor(seq / mss) & this.mask;
      const f = flags[i]!;
      if ((f & SACKED) === 0) {
        if ((f & RETRANS) !== 0) this.retransBytes -= end - seq;
        flags[i] = LOST;
        if ((f & LOST) === 0) {
          this.lostBytes += end - seq;
          this.markedLostBytes += end - seq;
          if (this.onMarkedLost !== null) this.onMarkedLost(seq, end);
        }
      }
      seq = end;
    }
    this.lostBelow = this.highTx;
    this.highRxt = this.una;
    this.rescueRxt = -1;
    this.relost.length = 0;
    this.rtxSeq.length = 0;
    this.rtxNs.length = 0;
    this.rtxHead = 0;
  }

  /**
   * RFC 6675 NextSeg rule 1 (and the retransmission queue after a timeout): the first segment at
   * or above HighRxt that is lost, not SACKed and not yet retransmitted; -1 if none.
   */
  nextLost(): number {
    // Retransmissions found lost again come first, lowest first (they lie below HighRxt).
    if (this.relost.length > 0) {
      let lowest = -1;
      let kept = 0;
      for (const seq of this.relost) {
        if (seq < this.una || seq >= this.highTx) continue;
        if ((this.flags[this.flagIndex(seq)]! & (LOST | RETRANS | SACKED)) !== LOST) continue;
        this.relost[kept++] = seq;
        if (lowest < 0 || seq < lowest) lowest = seq;
      }
      this.relost.length = kept;
      if (lowest >= 0) return lowest;
    }
    return this.nextUnsacked(this.lostBelow);
  }

  /** RFC 6675 NextSeg rule 3: the first unSACKed segment above HighRxt below the highest SACKed byte. */
  nextUnsackedBelowHighestSack(): number {
    return this.nextUnsacked(this.highestSacked);
  }

  private nextUnsacked(limit: number): number {
    let cur = this.highRxt > this.una ? this.highRxt : this.una;
    while (cur < limit && cur < this.highTx) {
      const r = this.sacked.indexOf(cur);
      if (r < 0) return cur;
      cur = this.sacked.endAt(r);
    }
    return -1;
  }

  /** Start of the segment holding the highest unSACKed outstanding byte (rescue retransmission), or -1. */
  highestUnsacked(): number {
    let top = this.highTx;
    if (this.sacked.count > 0 && this.sacked.lastEnd >= top) top = this.sacked.startAt(this.sacked.count - 1);
    if (top <= this.una) return -1;
    return Math.floor((top - 1) / this.mssBytes) * this.mssBytes;
  }
}
