import { prrSendQuota } from './prr.js';
import type { AckEvent, LossRecovery, RecoveryContext } from './types.js';

/**
 * RFC 6675 conservative SACK-based loss recovery with ns-3's TcpClassicRecovery window: on entry
 * cwnd = ssthresh and the first lost segment is retransmitted at once (RFC 6675 5 step 4.3); then
 * the connection sends per NextSeg whenever cwnd - pipe >= 1 SMSS; the ACK covering
 * RecoveryPoint ends recovery with cwnd = ssthresh. Since pipe, not an inflated cwnd, tracks what
 * has left the network, a burst of losses in one window costs one window reduction.
 */
export class SackClassicRecovery implements LossRecovery {
  readonly name: 'sack-classic' | 'sack-prr' = 'sack-classic';
  readonly fastRecovery = true;
  readonly usesSack = true;
  readonly guardsRecover = true;
  readonly exitsOnPartialAck = false;
  /** No partial ACK of this recovery has restarted the timer yet (the 'first' policy). */
  protected firstPartial = true;

  /**
   * @param partialAckTimer which partial ACKs restart the retransmission timer: 'every' (RFC 6298
   *   5.3, Linux) or 'first' (RFC 6582 3.2 step 5, the "Impatient" variant of its section 4, as
   *   ns-3's TcpSocketBase does in SACK recovery too: NewAck(ack, m_isFirstPartialAck)).
   */
  constructor(protected readonly partialAckTimer: 'every' | 'first' = 'every') {}

  enter(c: RecoveryContext, _ack: AckEvent): void {
    this.firstPartial = true;
    c.tcb.cwndBytes = c.tcb.ssthreshBytes;
    c.retransmitFirstLost();
  }

  onAck(c: RecoveryContext, ack: AckEvent): void {
    this.restartTimerOnPartialAck(c, ack);
  }

  protected restartTimerOnPartialAck(c: RecoveryContext, ack: AckEvent): void {
    if (ack.ackedBytes <= 0) return;
    if (this.partialAckTimer === 'every' || this.firstPartial) c.restartRtoTimer();
    this.firstPartial = false;
  }

  onTransmit(_bytes: number): void {}

  exit(c: RecoveryContext): void {
    c.tcb.cwndBytes = c.tcb.ssthreshBytes;
  }

  sendWindowBytes(c: RecoveryContext): number {
    return c.tcb.cwndBytes;
  }
}

/**
 * RFC 6937 Proportional Rate Reduction with the slow-start reduction bound (PRR-SSRB, the RFC's
 * recommendation and Linux's and ns-3's default) over RFC 6675 loss detection and NextSeg. On
 * every ACK in recovery, including the one that starts it, cwnd = pipe + sndcnt, so the sender
 * spreads the window reduction over the recovery RTT instead of pausing for half of it. The first
 * ACK may always send one segment (the fast retransmit), as Linux's tcp_cwnd_reduction does.
 */
export class SackPrrRecovery extends SackClassicRecovery {
  override readonly name = 'sack-prr' as const;
  /** RFC 6937 prr_delivered, prr_out, RecoverFS (bytes). */
  prrDelivered = 0;
  prrOut = 0;
  recoverFs = 0;

  override enter(c: RecoveryContext, ack: AckEvent): void {
    this.firstPartial = true;
    this.prrDelivered = 0;
    this.prrOut = 0;
    // RFC 6937: RecoverFS = snd.nxt - snd.una at the start of recovery.
    this.recoverFs = c.sb.outstandingBytes;
    this.onAck(c, ack);
  }

  override onAck(c: RecoveryContext, ack: AckEvent): void {
    this.restartTimerOnPartialAck(c, ack);
    this.prrDelivered += ack.deliveredBytes;
    let sndcnt = prrSendQuota({
      prrDelivered: this.prrDelivered,
      prrOut: this.prrOut,
      recoverFs: this.recoverFs,
      ssthresh: c.tcb.ssthreshBytes,
      pipe: c.sb.pipeBytes,
      deliveredData: ack.deliveredBytes,
      mss: c.mssBytes,
    });
    if (this.prrOut === 0 && sndcnt < c.mssBytes) sndcnt = c.mssBytes;
    c.tcb.cwndBytes = Math.max(c.sb.pipeBytes + sndcnt, c.mssBytes);
  }

  override onTransmit(bytes: number): void {
    this.prrOut += bytes;
  }
}
