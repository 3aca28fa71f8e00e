import type { EcnAck } from '../cc/types.js';
import { ECN_CE, ECN_ECT0, ECN_FIELD, TCP_CWR } from '../net/packets.js';

/**
 * The TCP side of Explicit Congestion Notification (RFC 3168 section 6.1), kept apart from the
 * sender and receiver so that a flow without ECN carries no ECN state and takes no ECN branch.
 *
 * A data segment's ECN bits travel in one byte, the layout of the packet pool's ECN column: bits 0-1
 * the IP ECN field (RFC 3168 5: 0b10 ECT(0), 0b11 CE), bit 3 the TCP CWR flag. The network sets CE;
 * the receiver reads the byte. An ACK's ECE flag is passed as a boolean.
 * There is no handshake in the simulator: both ends of a flow are configured from `tcp.ecn`, which
 * stands for a successful ECN-setup SYN / SYN-ACK exchange (RFC 3168 6.1.1).
 */

/** IP ECN field mask and codepoints (RFC 3168 5) and the TCP CWR flag (6.1.2), as the packet pool keeps them. */
export const IP_ECN_FIELD: number = ECN_FIELD;
export const IP_ECT0: number = ECN_ECT0;
export const IP_CE: number = ECN_CE;
export const TCP_CWR_BIT: number = TCP_CWR;

/** How the receiver echoes CE: RFC 3168's ECE-until-CWR, or DCTCP's exact echo (RFC 8257 3.2). */
export type EcnEchoMode = 'classic' | 'dctcp';

/**
 * Sender-side ECN state (Linux `tp->ecn_flags` TCP_ECN_OK / TCP_ECN_QUEUE_CWR with `high_seq`;
 * ns-3 `TcpSocketState::m_ecnState` ECN_IDLE / ECN_ECE_RCVD / ECN_CWR_SENT). The window arithmetic
 * stays with the sender and the algorithm; this object says which segments carry which bits, when
 * an ECN-Echo may start a reduction, and counts.
 */
export class EcnSender {
  /** CWR is owed on the next new data segment (Linux TCP_ECN_QUEUE_CWR). */
  private cwrQueued = false;
  /**
   * SND.NXT when the last window reduction began (Linux `high_seq`, ns-3 `m_recover`): the 'cwr'
   * state lasts until an ACK acknowledges something above it (Linux tcp_fastretrans_alert: "CWR is
   * to be held something *above* high_seq is ACKed for CWR bit to reach receiver").
   */
  highSeq = -1;
  /** ACKs that carried ECN-Echo. */
  eceAcks = 0;
  /** Window reductions started by ECN-Echo (at most one per window of data, RFC 3168 6.1.2). */
  reductions = 0;
  /** Segments sent with CWR. */
  cwrSent = 0;
  /** Reused for every `onEcnAck` call. */
  readonly ack: EcnAck = { nowS: 0, ece: false, deliveredBytes: 0, ackNo: 0, sndNxt: 0 };

  /**
   * The ECN bits of an outgoing data segment. New data is ECT(0); a retransmission is not ECN-capable
   * (RFC 3168 6.1.5: a router must not be able to hide the loss of a retransmission behind a mark;
   * Linux INET_ECN_dontxmit for a resent skb). CWR rides on the first new segment after a reduction.
   */
  segmentBits(isRetransmission: boolean): number {
    if (isRetransmission) return 0;
    if (!this.cwrQueued) return IP_ECT0;
    this.cwrQueued = false;
    this.cwrSent++;
    return IP_ECT0 | TCP_CWR_BIT;
  }

  /**
   * The window was cut (ECN-Echo, fast recovery or timeout) with `sndNxt` outstanding: owe CWR, so
   * the receiver stops echoing (Linux tcp_init_cwnd_reduction and tcp_enter_loss call
   * tcp_ecn_queue_cwr whatever the cause), and remember where the reduced window ends.
   */
  windowReduced(sndNxt: number): void {
    this.cwrQueued = true;
    this.highSeq = sndNxt;
  }

  /** Whether an ACK up to `ackNo` ends a 'cwr' state begun at {@link highSeq}. */
  endsCwr(ackNo: number): boolean {
    return ackNo > this.highSeq;
  }
}

/**
 * Receiver-side ECN: what the next ACK's ECE flag says.
 * - 'classic' (RFC 3168 6.1.3; Linux TCP_ECN_DEMAND_CWR; ns-3 ECN_CE_RCVD / ECN_SENDING_ECE): a CE
 *   segment turns ECE on for every ACK until a segment with CWR arrives. CWR is read before CE, so a
 *   CWR segment that is itself CE keeps the echo on (Linux tcp_ecn_accept_cwr, then tcp_ecn_check_ce).
 *   The segment that turns the echo on is ACKed at once, as Linux's quick-ACK mode does there, so a
 *   sender with a small window hears of the mark without waiting for the delayed-ACK timer.
 * - 'dctcp' (RFC 8257 3.2, Linux dctcp_ece_ack_update, ns-3 TcpDctcp::CeState0to1 / 1to0): ECE
 *   equals the CE bit of the data it acknowledges. A delayed ACK would mix marked and unmarked
 *   segments, so when the CE bit of an arriving segment differs from the state, the segments already
 *   received and not yet ACKed are ACKed at once with the old state before the state flips.
 */
export class EcnReceiver {
  /** The ECE flag the next ACK carries. */
  ece = false;
  /** Data segments that arrived marked CE (duplicates included). */
  ceArrivals = 0;
  /** Data segments that arrived ECN-capable (ECT or CE). */
  ectArrivals = 0;

  constructor(readonly mode: EcnEchoMode) {}

  /**
   * DCTCP only: whether the segments pending a delayed ACK must be ACKed now, with the current ECE,
   * before a segment whose CE bit differs is taken in (RFC 8257 3.2, the two-state machine).
   */
  ackBefore(bits: number, pendingSegments: number): boolean {
    return this.mode === 'dctcp' && ((bits & IP_ECN_FIELD) === IP_CE) !== this.ece && pendingSegments > 0;
  }

  /**
   * A data segment arrived with ECN byte `bits` (IP field and CWR, as above). Returns true when it
   * must be ACKed at once (classic: it turned the echo on).
   */
  arrive(bits: number): boolean {
    const field = bits & IP_ECN_FIELD;
    const ce = field === IP_CE;
    const cwr = (bits & TCP_CWR_BIT) !== 0;
    if (field !== 0) this.ectArrivals++;
    if (ce) this.ceArrivals++;
    if (this.mode === 'dctcp') {
      this.ece = ce;
      return false;
    }
    if (cwr) this.ece = false;
    if (ce && !this.ece) {
      this.ece = true;
      return true;
    }
    return false;
  }
}
