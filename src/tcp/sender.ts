import type { AckSample, CaState, CongestionControl } from '../cc/types.js';
import type { Simulator } from '../engine/simulator.js';
import { RtoEstimator } from './rto.js';
import { RttSampler } from './rtt-sampler.js';
import { Tcb } from './tcb.js';
import { onAckArrival as ackMachine } from './ack-machine.js';

// Local binding: an imported function is read through an accessor under tsx/vite on every call.
const onAckArrival = ackMachine;

/** Where the sender hands its segments (the network). */
export interface DataPort {
  sendData(flow: number, seq: number, len: number, isRetransmission: boolean): void;
}

/** Called after the sender handled an ACK or a timeout (traces, statistics). */
export interface SenderObserver {
  onSenderUpdate(sender: TcpSender): void;
}

export interface SenderConfig {
  mssBytes: number;
  initialCwndSegments: number;
  initialSsthreshBytes: number | null;
  minRtoS: number;
  maxRtoS: number;
  clockGranularityS: number;
  dupAckThreshold: number;
  /** Send buffer: unacknowledged + unsent bytes the app may have queued (ns-3 SndBufSize). */
  sndBufBytes: number;
  /** Initial peer window until the first ACK (bytes). */
  initialRwndBytes: number;
  /** Event kind the network dispatches to {@link TcpSender.onRtoEvent}. */
  rtoKind: number;
  /**
   * Reproduce ns-3's Reno-SACK head artefact (default false): when an ACK leaves the new head of the
   * scoreboard carrying one of the dupACK "sack" marks, ns-3 (TcpTxBuffer::DiscardUpTo) unmarks it,
   * marks it lost and so retransmits it, spuriously. See src/packet/README.md.
   */
  ns3HeadSackArtefact?: boolean;
}

/**
 * A TCP sender (one per flow) in a byte sequence space, modelled on ns-3's TcpSocketBase without
 * SACK (so that its numbers can be checked against ns-3's `tcp-variants-comparison`):
 * - window = min(cwnd, rwnd); it sends while window - pipe >= 1 MSS, where pipe is ns-3's
 *   BytesInFlight: SND.NXT - SND.UNA less one MSS per duplicate ACK seen in disorder/recovery
 *   ("Reno SACK"; equivalent to RFC 5681 window inflation and RFC 3042 limited transmit);
 * - duplicate ACKs, fast retransmit and recovery per the algorithm's `recovery` (see ack-machine.ts);
 * - RFC 6298 retransmission timer (rto.ts) armed by the first transmission, restarted on new ACKs;
 *   on expiry: ssthresh from the algorithm (unless the head was already retransmitted in 'loss'),
 *   cwnd = 1 MSS, back-off, and go-back-N from SND.UNA (SND.NXT = SND.UNA) as ns-3 does;
 * - the algorithm only sees the Tcb and AckSamples, never the simulator.
 */
export class TcpSender {
  readonly tcb: Tcb;
  readonly rto: RtoEstimator;
  readonly rtt = new RttSampler();
  readonly mss: number;
  sndUna = 0;
  sndNxt = 0;
  /** Highest sequence number sent + 1 (ns-3 m_highTxMark). */
  highTx = 0;
  /** Bytes the application has handed over (Infinity: unlimited bulk). */
  appEnd = 0;
  rwndBytes: number;
  dupAcks = 0;
  /** Segments inferred to have left the network from duplicate ACKs (ns-3 Reno SACK). */
  sackedSegs = 0;
  /** RFC 6582 `recover`: highest sequence sent when the last recovery or timeout began. */
  recover = 0;
  recoverActive = false;
  firstPartialAck = true;
  /** Remainder of acknowledged bytes not yet counted as a segment (ns-3 m_bytesAckedNotProcessed). */
  ackCarryBytes = 0;
  /** ns-3 artefact only: the head is marked lost and waits for retransmission. */
  headLost = false;
  /** ns-3 artefact only: the head carries ns-3's lost mark (kept after its retransmission). */
  headLostMark = false;
  /** cwnd plus the recovery inflation, for traces (ns-3 m_cWndInfl). */
  cwndInflBytes: number;

  retransmits = 0;
  timeouts = 0;
  fastRecoveries = 0;
  bytesSent = 0;
  segmentsSent = 0;
  /** Reused for every hook call: no allocation per ACK. */
  readonly sample: AckSample = { nowS: 0, bytesAcked: 0, segmentsAcked: 0, duplicate: false, rttS: undefined };

  private rtoDeadlineNs = -1;
  private rtoEventId = -1;
  private rtoEventAtNs = Infinity;

  constructor(
    readonly flow: number,
    readonly sim: Simulator,
    readonly cc: CongestionControl,
    private readonly port: DataPort,
    readonly config: SenderConfig,
    private readonly observer: SenderObserver | null = null,
  ) {
    this.mss = config.mssBytes;
    this.tcb = new Tcb(config.mssBytes, config.initialCwndSegments, config.initialSsthreshBytes);
    this.rto = new RtoEstimator(config.minRtoS, config.maxRtoS, config.clockGranularityS);
    this.rwndBytes = config.initialRwndBytes;
    this.cwndInflBytes = this.tcb.cwndBytes;
  }

  get nowS(): number {
    return this.sim.nowNs / 1e9;
  }

  /** ns-3's BytesInFlight without SACK: outstanding bytes less those inferred delivered by dupACKs. */
  pipeBytes(): number {
    const p = this.sndNxt - this.sndUna - this.sackedSegs * this.mss - (this.headLost ? this.mss : 0);
    return p > 0 ? p : 0;
  }

  /** The application starts: `bytes` to send, or null for unlimited bulk data. */
  startApp(bytes: number | null): void {
    this.appEnd = bytes ?? Infinity;
    this.sendPending();
    this.notify();
  }

  /** The application stops writing; what is already in the send buffer still goes out. */
  stopApp(): void {
    const buffered = Math.max(this.highTx, this.sndUna + this.config.sndBufBytes);
    if (buffered < this.appEnd) this.appEnd = buffered;
  }

  /** An ACK arrived. */
  onAck(ackNo: number, tsEcrNs: number, rwndBytes: number): void {
    onAckArrival(this, ackNo, tsEcrNs, rwndBytes);
    this.notify();
  }

  /** RFC 6298 (5.1)-(5.3) and ns-3: send as much as the window and the data allow. */
  sendPending(): void {
    const mss = this.mss;
    for (;;) {
      const limit = Math.min(this.appEnd, this.sndUna + this.config.sndBufBytes);
      const dataLeft = limit - this.sndNxt;
      if (dataLeft <= 0) return;
      const win = Math.min(this.tcb.cwndBytes, this.rwndBytes);
      const avail = win - this.pipeBytes();
      if (avail <= 0) return;
      if (this.headLost) {
        // ns-3 NextSeg: a head marked lost and not yet resent goes first.
        if (avail < mss) return;
        this.retransmitHead();
        continue;
      }
      // Silly-window avoidance and Nagle (RFC 896), as ns-3 SendPendingData.
      if (avail < mss && dataLeft > avail) return;
      if (dataLeft < mss && this.highTx > this.sndUna) return;
      const len = Math.min(mss, dataLeft, avail);
      this.transmit(this.sndNxt, len);
      this.sndNxt += len;
      if (this.sndNxt > this.highTx) this.highTx = this.sndNxt;
    }
  }

  /** Retransmits the segment at SND.UNA without moving SND.NXT (fast retransmit, partial ACK). */
  retransmitHead(): void {
    this.headLost = false;
    const len = Math.min(this.mss, this.highTx - this.sndUna);
    if (len > 0) this.transmit(this.sndUna, len);
  }

  transmit(seq: number, len: number): void {
    const isRetx = seq < this.highTx;
    if (isRetx) {
      this.retransmits++;
      this.rtt.markRetransmitted(seq, len);
    }
    this.bytesSent += len;
    this.segmentsSent++;
    this.port.sendData(this.flow, seq, len, isRetx);
    // RFC 6298 (5.1): start the timer if it is not running.
    if (this.rtoDeadlineNs < 0) this.armRto();
  }

  /** Changes the congestion state and tells the algorithm (ns-3 CongestionStateSet). */
  setState(state: CaState): void {
    this.tcb.caState = state;
    this.cc.onStateChange?.(this.tcb, state, this.nowS);
  }

  /** (Re)starts the retransmission timer at now + RTO (RFC 6298 5.3). */
  armRto(): void {
    const deadline = this.sim.nowNs + Math.round(this.rto.rtoS * 1e9);
    this.rtoDeadlineNs = deadline;
    // Timers move mostly later; keep the pending event and re-check when it fires (lazy restart).
    if (this.rtoEventId >= 0 && this.rtoEventAtNs <= deadline) return;
    if (this.rtoEventId >= 0) this.sim.cancel(this.rtoEventId);
    this.rtoEventId = this.sim.scheduleAt(deadline, this.config.rtoKind, this.flow);
    this.rtoEventAtNs = deadline;
  }

  /** RFC 6298 (5.2): all outstanding data acknowledged, stop the timer. */
  stopRto(): void {
    this.rtoDeadlineNs = -1;
  }

  get rtoRunning(): boolean {
    return this.rtoDeadlineNs >= 0;
  }

  /** The timer event fired (possibly stale after lazy restarts). */
  onRtoEvent(): void {
    this.rtoEventId = -1;
    this.rtoEventAtNs = Infinity;
    if (this.rtoDeadlineNs < 0) return;
    if (this.sim.nowNs < this.rtoDeadlineNs) {
      this.rtoEventId = this.sim.scheduleAt(this.rtoDeadlineNs, this.config.rtoKind, this.flow);
      this.rtoEventAtNs = this.rtoDeadlineNs;
      return;
    }
    this.rtoDeadlineNs = -1;
    this.onTimeout();
    this.notify();
  }

  /** Retransmission timeout (ns-3 TcpSocketBase::ReTxTimeout). */
  private onTimeout(): void {
    if (this.sndUna >= this.highTx) return;
    this.timeouts++;
    const tcb = this.tcb;
    tcb.bytesInFlight = this.pipeBytes();
    this.dupAcks = 0;
    this.sackedSegs = 0;
    this.headLost = false;
    this.headLostMark = false;
    this.recover = this.highTx;
    this.recoverActive = true;
    this.rto.backoff();
    this.rtt.onTimeout(this.highTx);
    // RFC 5681 (4): cut ssthresh only if the head has not been resent by the timer yet. ns-3 states
    // the same rule, but clears its retransmitted flags first (SetSentListLost), so it cuts on every
    // timeout; on the lossy preset that changes medians by less than 3%.
    if (tcb.caState !== 'loss' || !this.rtt.isRetransmitted(this.sndUna)) {
      tcb.ssthreshBytes = this.cc.ssthresh(tcb, 'timeout', this.nowS);
    }
    this.setState('loss');
    tcb.cwndBytes = this.mss;
    this.cwndInflBytes = this.mss;
    // Go-back-N: everything outstanding is presumed lost (ns-3 SetSentListLost).
    this.sndNxt = this.sndUna;
    this.sendPending();
  }

  private notify(): void {
    this.tcb.bytesInFlight = this.pipeBytes();
    if (this.observer !== null) this.observer.onSenderUpdate(this);
  }
}
