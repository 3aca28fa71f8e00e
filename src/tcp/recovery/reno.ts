import type { AckEvent, LossRecovery, RecoveryContext } from './types.js';

/**
 * RFC 5681 section 3.2 fast retransmit / fast recovery without SACK: cwnd = ssthresh + 3 SMSS on
 * the third duplicate ACK, one SMSS more per further duplicate ACK (window inflation), and the
 * first ACK of new data ends recovery, deflating cwnd to ssthresh. A second hole in the same window
 * needs three new duplicate ACKs (a second window cut) or the timer: Reno's textbook weakness.
 */
export class RenoRecovery implements LossRecovery {
  readonly name: 'reno' | 'newreno' = 'reno';
  readonly fastRecovery = true;
  readonly usesSack = false;
  readonly guardsRecover: boolean = false;
  exitsOnPartialAck = true;
  /** RFC 5681 window inflation: the segments the duplicate ACKs say have left the network (bytes). */
  protected inflationBytes = 0;

  enter(c: RecoveryContext, _ack: AckEvent): void {
    c.tcb.cwndBytes = c.tcb.ssthreshBytes;
    this.inflationBytes = c.dupAcks * c.mssBytes;
    c.sb.markHeadLost();
    c.retransmitFirstLost();
  }

  onAck(c: RecoveryContext, ack: AckEvent): void {
    if (ack.duplicate) this.inflationBytes += c.mssBytes;
  }

  onTransmit(_bytes: number): void {}

  exit(c: RecoveryContext): void {
    c.tcb.cwndBytes = c.tcb.ssthreshBytes;
    this.inflationBytes = 0;
  }

  sendWindowBytes(c: RecoveryContext): number {
    return Math.max(c.tcb.cwndBytes + this.inflationBytes, c.mssBytes);
  }
}

/**
 * RFC 6582 NewReno: as Reno, but a partial ACK (new data acknowledged, `recover` not reached)
 * retransmits the first unacknowledged segment, deflates cwnd by the data it acknowledged (adding
 * one SMSS back if that was at least one SMSS) and stays in recovery; the retransmission timer is
 * reset on the first partial ACK only (the "Impatient" variant, RFC 6582 section 4.1, as ns-3 and
 * Linux). The full ACK sets cwnd = ssthresh (RFC 6582 3.2 step 3, the second option).
 */
export class NewRenoRecovery extends RenoRecovery {
  override readonly name = 'newreno' as const;
  override readonly guardsRecover = true;
  override exitsOnPartialAck = false;
  private firstPartial = true;

  override enter(c: RecoveryContext, ack: AckEvent): void {
    this.firstPartial = true;
    super.enter(c, ack);
  }

  override onAck(c: RecoveryContext, ack: AckEvent): void {
    if (ack.duplicate) {
      this.inflationBytes += c.mssBytes;
      return;
    }
    if (ack.ackedBytes <= 0) return;
    // Deflate the (inflated) window by what the partial ACK acknowledged, one SMSS back.
    this.inflationBytes -= ack.ackedBytes;
    if (ack.ackedBytes >= c.mssBytes) this.inflationBytes += c.mssBytes;
    if (!c.sb.isRetransmitted(c.sb.una)) {
      c.sb.markHeadLost();
      c.retransmitFirstLost();
    }
    if (this.firstPartial) c.restartRtoTimer();
    this.firstPartial = false;
  }
}
