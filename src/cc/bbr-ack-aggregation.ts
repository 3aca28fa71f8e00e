/**
 * BBRv1's ACK-aggregation estimate (Linux tcp_bbr.c bbr_update_ack_aggregation, the ack_epoch_* and
 * extra_acked[] fields; ns-3 TcpBbr::UpdateAckAggregation): within an ACK epoch, how much more data was
 * ACKed than the estimated bandwidth explains; the most of that over the last 5-10 rounds (two
 * buckets of `windowRounds` rounds, swapped in turn) is what BBR adds to cwnd so that a sender whose
 * ACKs come in bursts (delayed ACKs, Wi-Fi, ACK compression) keeps sending between the bursts.
 */

/** Linux bbr_ack_epoch_acked_reset_thresh, in segments: an epoch this long starts over. */
const ACK_EPOCH_RESET_SEGMENTS = 1 << 20;

export class BbrAckAggregation {
  /** Start of the current ACK epoch, s (Linux ack_epoch_mstamp). */
  private epochStampS = 0;
  /** Bytes ACKed (cumulatively or by SACK) since the epoch began (Linux ack_epoch_acked). */
  private epochAckedBytes = 0;
  /** The two buckets of the windowed max (Linux extra_acked[2]). */
  private readonly extraAckedBytes = [0, 0];
  /** Rounds the current bucket has run (Linux extra_acked_win_rtts, at most 31: a 5-bit field). */
  private winRounds = 0;
  private idx = 0;

  constructor(
    /** Rounds per bucket (Linux bbr_extra_acked_win_rtts). */
    private readonly windowRounds: number,
  ) {}

  /** The first epoch starts at the connection's start (bbr_init). */
  start(nowS: number): void {
    this.epochStampS = nowS;
  }

  /**
   * One ACK that acknowledged `ackedBytes` (> 0) when the delivery clock read `deliveredTimeS`, with
   * bandwidth estimate `bwBytesPerS`; `roundStart` when it began a packet-timed round. The excess is
   * capped at cwnd, as Linux caps extra_acked at tp->snd_cwnd.
   */
  update(roundStart: boolean, bwBytesPerS: number, ackedBytes: number, deliveredTimeS: number, mssBytes: number, cwndBytes: number): void {
    if (roundStart) {
      this.winRounds = Math.min(31, this.winRounds + 1);
      if (this.winRounds >= this.windowRounds) {
        this.winRounds = 0;
        this.idx = 1 - this.idx;
        this.extraAckedBytes[this.idx] = 0;
      }
    }
    let expected = bwBytesPerS * (deliveredTimeS - this.epochStampS);
    const resetBytes = ACK_EPOCH_RESET_SEGMENTS * mssBytes;
    // Reset the epoch when the ACKs fell behind the rate (the aggregation is over) or it ran too long.
    if (this.epochAckedBytes <= expected || this.epochAckedBytes + ackedBytes >= resetBytes) {
      this.epochAckedBytes = 0;
      this.epochStampS = deliveredTimeS;
      expected = 0;
    }
    this.epochAckedBytes = Math.min(resetBytes, this.epochAckedBytes + ackedBytes);
    const extra = Math.min(this.epochAckedBytes - expected, cwndBytes);
    if (extra > this.extraAckedBytes[this.idx]!) this.extraAckedBytes[this.idx] = extra;
  }

  /** The windowed max of the excess, bytes (max(extra_acked[0], extra_acked[1])). */
  get extraAckedMaxBytes(): number {
    return Math.max(this.extraAckedBytes[0]!, this.extraAckedBytes[1]!);
  }
}
