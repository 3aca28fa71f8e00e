import type { AckEvent, LossRecovery, RecoveryContext } from './types.js';

/**
 * Tahoe (Jacobson 1988; RFC 5681 3.2 steps 1-2 only): the fast retransmit is followed by slow
 * start from one segment, exactly as after a timeout but without the timer's back-off, so the
 * connection sends it down the timeout path ('loss' state, everything outstanding and unSACKed
 * presumed lost, resent in order as cwnd opens: go-back-N without SACK). `recover` guards
 * against a second fast retransmit for the same window (the ns-2 Tahoe "bugfix"), without which
 * duplicate ACKs for the go-back-N copies would set off one spurious retransmit after another.
 */
export class TahoeRecovery implements LossRecovery {
  readonly name = 'tahoe' as const;
  readonly fastRecovery = false;
  readonly guardsRecover = true;
  readonly exitsOnPartialAck = false;

  constructor(readonly usesSack: boolean) {}

  enter(_c: RecoveryContext, _ack: AckEvent): void {
    throw new Error('Tahoe has no fast recovery: the connection enters the loss state');
  }

  onAck(_c: RecoveryContext, _ack: AckEvent): void {}

  onTransmit(_bytes: number): void {}

  exit(_c: RecoveryContext): void {}

  sendWindowBytes(c: RecoveryContext): number {
    return c.tcb.cwndBytes;
  }
}
