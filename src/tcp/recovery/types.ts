import type { Tcb } from '../tcb.js';
import type { Scoreboard } from '../scoreboard.js';

/** The loss-recovery strategies a connection can run (chosen once, when it is created). */
export const RECOVERY_NAMES = ['tahoe', 'reno', 'newreno', 'sack-classic', 'sack-prr'] as const;
export type RecoveryName = (typeof RECOVERY_NAMES)[number];

/** What one ACK changed, as the strategy needs it. */
export interface AckEvent {
  /** Bytes newly acknowledged cumulatively (SND.UNA moved by this much). */
  ackedBytes: number;
  /** RFC 6937 DeliveredData: change in SND.UNA plus change in SACKed bytes. */
  deliveredBytes: number;
  /** A duplicate ACK (RFC 5681; with SACK, RFC 6675: it SACKs new data). */
  duplicate: boolean;
}

/** The connection as a recovery strategy sees it. */
export interface RecoveryContext {
  readonly tcb: Tcb;
  readonly sb: Scoreboard;
  readonly mssBytes: number;
  /** Duplicate ACKs in a row (RFC 5681), counted by the connection. */
  readonly dupAcks: number;
  /** Retransmits the first segment presumed lost now, whatever cwnd allows (fast retransmit). */
  retransmitFirstLost(): void;
  /** Restarts the retransmission timer (RFC 6298 5.3). */
  restartRtoTimer(): void;
}

/**
 * One loss-recovery algorithm, in the spirit of ns-3's TcpRecoveryOps: the connection detects the
 * loss (duplicate ACKs or IsLost), cuts ssthresh through the congestion control, and keeps the
 * scoreboard; the strategy owns cwnd while in recovery and decides what a partial ACK does.
 * Tahoe has no fast recovery: the connection treats its fast retransmit like a timeout.
 */
export interface LossRecovery {
  readonly name: RecoveryName;
  /** false for Tahoe: a fast retransmit falls back to slow start ('loss' state). */
  readonly fastRecovery: boolean;
  /** True if the strategy reads SACK information (RFC 6675 loss detection). */
  readonly usesSack: boolean;
  /** True if a fast retransmit (re)sets `recover`, guarding against a second one for the same window (RFC 6582). */
  readonly guardsRecover: boolean;
  /** Entering recovery; ssthresh is already cut. Sets cwnd and sends the fast retransmission. */
  enter(c: RecoveryContext, ack: AckEvent): void;
  /** True if a new cumulative ACK that does not reach `recover` ends recovery (RFC 5681 Reno). */
  exitsOnPartialAck: boolean;
  /** An ACK during recovery that does not end it (partial or duplicate). */
  onAck(c: RecoveryContext, ack: AckEvent): void;
  /** Bytes the connection just put on the wire while in recovery. */
  onTransmit(bytes: number): void;
  /** Leaving recovery on the ACK that covers `recover`: sets cwnd. */
  exit(c: RecoveryContext): void;
  /**
   * The window the sender may fill while in recovery (bytes): cwnd, or for RFC 5681 recovery cwnd
   * plus its inflation, which is kept apart so that cwnd (what the algorithm and the traces see)
   * stays ssthresh, as ns-3 keeps m_cWnd apart from m_cWndInfl.
   */
  sendWindowBytes(c: RecoveryContext): number;
}
