import type { LazyTimer } from '../engine/timer.js';
import { EcnReceiver, type EcnEchoMode } from './ecn.js';
import { RangeSet } from './ranges.js';
import { MAX_SACK_BLOCKS_WITH_TIMESTAMPS, SackBlocks } from './sack-blocks.js';

/** Where the receiver hands its ACKs (the network). */
export interface AckPort {
  /**
   * @param sackBlocks [start, end) pairs, valid for `sackCount` blocks and only during the call
   *   (the receiver reuses the array).
   * @param ece the ECN-Echo flag (always false for a flow without ECN).
   */
  sendAck(flow: number, ackNo: number, tsEcrNs: number, rwndBytes: number, sackCount: number, sackBlocks: Float64Array, ece: boolean): void;
}

export interface ReceiverConfig {
  delAckCount: number;
  /** Receive buffer = the advertised window (bytes). */
  rcvBufBytes: number;
  /** RFC 2018 SACK option on the ACKs. */
  sack: boolean;
  /** ECN negotiated, and how CE is echoed (src/tcp/ecn.ts); absent or null = no ECN. */
  ecn?: EcnEchoMode | null;
}

/**
 * A TCP receiver (one per flow): cumulative ACKs, an out-of-order buffer, SACK blocks, delayed ACKs
 * and the advertised window, following ns-3's TcpSocketBase::ReceivedData:
 * - a segment entirely below RCV.NXT (a duplicate) is ACKed at once (RFC 793; RFC 5681 4.2);
 * - if a gap remains after the segment, or the segment filled one, the ACK is immediate
 *   (RFC 5681 4.2: out-of-order data SHOULD be ACKed at once, so the sender sees duplicate ACKs);
 * - otherwise every delAckCount-th in-order segment is ACKed, or the delayed-ACK timer (started by
 *   the first unacknowledged segment, not restarted) sends it after its timeout;
 * - sending any ACK clears the count and stops the timer;
 * - with SACK on, every ACK carries up to 3 blocks chosen per RFC 2018 section 4 (sack-blocks.ts).
 * The application reads in-order data at once, so the buffer always covers [RCV.NXT, RCV.NXT + buffer)
 * and the advertised window is the whole buffer: out-of-order data sits inside it, and the right
 * edge never moves left (as ns-3 and RFC 793 would have it). The timestamp echoed is that of the
 * segment that advanced RCV.NXT while no ACK was pending (RFC 7323 3.4), as ns-3's `m_highTxAck`.
 */
export class TcpReceiver {
  rcvNxt = 0;
  readonly ooo = new RangeSet();
  /** Bytes delivered in order to the application so far. */
  deliveredBytes = 0;
  /** Payload bytes of every data packet that arrived (duplicates included). */
  arrivedBytes = 0;
  arrivedSegments = 0;
  acksSent = 0;
  private pendingSegments = 0;
  private highAckSent = 0;
  private tsToEchoNs = 0;
  private readonly blocks = new SackBlocks();
  private readonly blockBuf = new Float64Array(2 * MAX_SACK_BLOCKS_WITH_TIMESTAMPS);
  /** ECN echo state, null for a flow without ECN. */
  readonly ecn: EcnReceiver | null;

  constructor(
    readonly flow: number,
    private readonly port: AckPort,
    private readonly config: ReceiverConfig,
    /** The delayed-ACK timer; its event is dispatched to {@link onDelAckTimer}. */
    private readonly delAckTimer: LazyTimer,
    private readonly delAckTimeoutNs: number,
    private readonly clock: { readonly nowNs: number },
  ) {
    this.ecn = config.ecn ? new EcnReceiver(config.ecn) : null;
  }

  /** True if the receiver holds byte seq (delivered or buffered out of order). */
  holds(seq: number): boolean {
    return seq < this.rcvNxt || this.ooo.contains(seq);
  }

  /**
   * A data segment [seq, seq + len) arrived carrying timestamp tsValNs.
   * @param ecnBits its IP ECN field and TCP CWR flag (src/tcp/ecn.ts; 0 without ECN).
   */
  onData(seq: number, len: number, tsValNs: number, ecnBits = 0): void {
    let ackNow = false;
    const ecn = this.ecn;
    if (ecn !== null) {
      if (ecn.ackBefore(ecnBits, this.pendingSegments)) this.sendAck();
      ackNow = ecn.arrive(ecnBits);
    }
    this.arrivedBytes += len;
    this.arrivedSegments++;
    const end = seq + len;
    if (seq === this.rcvNxt && seq <= this.highAckSent) this.tsToEchoNs = tsValNs;
    if (end <= this.rcvNxt || seq >= this.rcvNxt + this.config.rcvBufBytes || this.ooo.covers(seq, end)) {
      // Duplicate (or beyond the window): nothing to store, ACK at once; a duplicate of buffered
      // data still leads the SACK blocks (RFC 2018 4: the first block holds the triggering segment).
      if (this.config.sack && seq >= this.rcvNxt && end > this.rcvNxt) this.blocks.onOutOfOrder(seq, this.ooo);
      this.sendAck();
      return;
    }
    const expected = this.rcvNxt;
    if (seq <= this.rcvNxt) {
      this.rcvNxt = end;
      // Pull in any buffered data now contiguous.
      while (this.ooo.count > 0 && this.ooo.firstStart <= this.rcvNxt) {
        this.rcvNxt = this.ooo.takeContiguousFrom(this.rcvNxt);
      }
      this.deliveredBytes += this.rcvNxt - expected;
      if (this.config.sack) this.blocks.onCumulative(this.rcvNxt);
    } else {
      this.ooo.add(seq, end);
      if (this.config.sack) this.blocks.onOutOfOrder(seq, this.ooo);
    }
    if (this.ooo.count > 0 || this.rcvNxt > expected + len || ackNow) {
      // A gap exists, or this segment filled one (or turned the ECN echo on): always ACK.
      this.sendAck();
      return;
    }
    if (++this.pendingSegments >= this.config.delAckCount) {
      this.sendAck();
    } else if (!this.delAckTimer.running) {
      this.delAckTimer.armAt(this.clock.nowNs + this.delAckTimeoutNs);
    }
  }

  /** The delayed-ACK timer's event fired (it may be stale). */
  onDelAckTimer(): void {
    if (this.delAckTimer.fire()) this.sendAck();
  }

  /** Advertised window (bytes). */
  get rwndBytes(): number {
    return this.config.rcvBufBytes;
  }

  private sendAck(): void {
    this.pendingSegments = 0;
    this.delAckTimer.stop();
    if (this.rcvNxt > this.highAckSent) this.highAckSent = this.rcvNxt;
    this.acksSent++;
    const n = this.config.sack ? this.blocks.write(this.blockBuf, MAX_SACK_BLOCKS_WITH_TIMESTAMPS) : 0;
    this.port.sendAck(this.flow, this.rcvNxt, this.tsToEchoNs, this.rwndBytes, n, this.blockBuf, this.ecn !== null && this.ecn.ece);
  }
}
