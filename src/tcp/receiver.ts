import type { Simulator } from '../engine/simulator.js';
import { RangeSet } from './ranges.js';

/** Where the receiver hands its ACKs (the network). */
export interface AckPort {
  sendAck(flow: number, ackNo: number, tsEcrNs: number, rwndBytes: number): void;
}

/**
 * A TCP receiver (one per flow): cumulative ACKs, an out-of-order buffer, delayed ACKs and the
 * advertised window, following ns-3's TcpSocketBase::ReceivedData:
 * - a segment entirely below RCV.NXT (a duplicate) is ACKed at once (RFC 793; RFC 5681 4.2);
 * - if a gap remains after the segment, or the segment filled one, the ACK is immediate
 *   (RFC 5681 4.2: out-of-order data SHOULD be ACKed at once, so the sender sees duplicate ACKs);
 * - otherwise every delAckCount-th in-order segment is ACKed, or the delayed-ACK timer (started by
 *   the first unacknowledged segment, not restarted) sends it after delAckTimeoutS;
 * - sending any ACK clears the count and cancels the timer.
 * The app reads in-order data at once, so the advertised window is the buffer minus the bytes held
 * out of order (ns-3 advertises the whole buffer; on the presets the sender's 2 MB send buffer binds
 * first and the results do not change). The timestamp echoed is that of the segment that advanced RCV.NXT while no ACK was
 * pending (RFC 7323 3.4), which is what ns-3 does with `m_highTxAck`.
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
  /** When the delayed ACK is due (ns), -1 if no ACK is pending. */
  private delAckDueNs = -1;
  /** Time of the timer event in the heap (ns), -1 if none: re-armed lazily, never cancelled. */
  private delAckEventAtNs = -1;
  private highAckSent = 0;
  private tsToEchoNs = 0;

  constructor(
    readonly flow: number,
    private readonly sim: Simulator,
    private readonly port: AckPort,
    private readonly delAckCount: number,
    private readonly delAckTimeoutNs: number,
    private readonly rcvBufBytes: number,
    /** Event kind the network dispatches to {@link onDelAckTimer}. */
    private readonly delAckKind: number,
  ) {}

  /** A data segment [seq, seq + len) arrived carrying timestamp tsValNs. */
  onData(seq: number, len: number, tsValNs: number): void {
    this.arrivedBytes += len;
    this.arrivedSegments++;
    const end = seq + len;
    if (seq === this.rcvNxt && seq <= this.highAckSent) this.tsToEchoNs = tsValNs;
    if (end <= this.rcvNxt || seq >= this.rcvNxt + this.rcvBufBytes) {
      // Duplicate (or beyond the window): nothing to store, ACK at once.
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
    } else {
      this.ooo.add(seq, end);
    }
    if (this.ooo.count > 0 || this.rcvNxt > expected + len) {
      // A gap exists, or this segment filled one: always ACK.
      this.sendAck();
      return;
    }
    if (++this.pendingSegments >= this.delAckCount) {
      this.sendAck();
    } else if (this.delAckDueNs < 0) {
      this.delAckDueNs = this.sim.nowNs + this.delAckTimeoutNs;
      // One timer event in flight at most: a later deadline is picked up when it fires.
      if (this.delAckEventAtNs < 0) {
        this.delAckEventAtNs = this.delAckDueNs;
        this.sim.scheduleAt(this.delAckDueNs, this.delAckKind, this.flow);
      }
    }
  }

  /** The delayed-ACK timer event fired (it may be stale: the ACK went out or the deadline moved). */
  onDelAckTimer(): void {
    this.delAckEventAtNs = -1;
    if (this.delAckDueNs < 0) return;
    const now = this.sim.nowNs;
    if (now < this.delAckDueNs) {
      this.delAckEventAtNs = this.delAckDueNs;
      this.sim.scheduleAt(this.delAckDueNs, this.delAckKind, this.flow);
      return;
    }
    this.sendAck();
  }

  /** Advertised window: the buffer less what is held out of order (bytes). */
  get rwndBytes(): number {
    return this.rcvBufBytes - this.ooo.bytes;
  }

  private sendAck(): void {
    this.pendingSegments = 0;
    this.delAckDueNs = -1;
    if (this.rcvNxt > this.highAckSent) this.highAckSent = this.rcvNxt;
    this.acksSent++;
    this.port.sendAck(this.flow, this.rcvNxt, this.tsToEchoNs, this.rwndBytes);
  }
}
