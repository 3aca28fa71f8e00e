import type { AckEvent, LossRecovery, RecoveryContext, RecoveryName } from './types.js';

/**
 * Loss recovery under rate-based control (an algorithm with a congControl hook, e.g. BBR): the inner
 * strategy keeps every retransmission rule (the fast retransmission, NewReno's partial-ACK
 * retransmissions, RFC 6675 NextSeg through its send window) but the cwnd it would write is put back,
 * because the algorithm sets cwnd itself on every ACK. Linux does the same by skipping
 * tcp_cwnd_reduction and tcp_cong_avoid when the ops have cong_control (tcp_cong_control); ns-3 lets
 * its recovery ops write m_cWnd and then overwrites it in CongControl. Without SACK the inner
 * strategy's window inflation stays in the send window: it is how duplicate ACKs count as delivered,
 * as Linux's SACK emulation (tcp_add_reno_sack) takes them out of packets in flight.
 */
export class CwndKeepingRecovery implements LossRecovery {
  readonly name: RecoveryName;
  readonly fastRecovery: boolean;
  readonly usesSack: boolean;
  readonly guardsRecover: boolean;
  readonly exitsOnPartialAck: boolean;

  constructor(private readonly inner: LossRecovery) {
    this.name = inner.name;
    this.fastRecovery = inner.fastRecovery;
    this.usesSack = inner.usesSack;
    this.guardsRecover = inner.guardsRecover;
    this.exitsOnPartialAck = inner.exitsOnPartialAck;
  }

  enter(c: RecoveryContext, ack: AckEvent): void {
    const cwnd = c.tcb.cwndBytes;
    this.inner.enter(c, ack);
    c.tcb.cwndBytes = cwnd;
  }

  onAck(c: RecoveryContext, ack: AckEvent): void {
    const cwnd = c.tcb.cwndBytes;
    this.inner.onAck(c, ack);
    c.tcb.cwndBytes = cwnd;
  }

  onTransmit(bytes: number): void {
    this.inner.onTransmit(bytes);
  }

  exit(c: RecoveryContext): void {
    const cwnd = c.tcb.cwndBytes;
    this.inner.exit(c);
    c.tcb.cwndBytes = cwnd;
  }

  sendWindowBytes(c: RecoveryContext): number {
    return this.inner.sendWindowBytes(c);
  }
}
