import type { AckSample, CaState, CongestionControl } from '../cc/types.js';
import type { LazyTimer } from '../engine/timer.js';
import { EcnSender } from './ecn.js';
import { createRecovery, recoveryName, type AckEvent, type LossRecovery, type RecoveryContext } from './recovery/index.js';
import { CwndKeepingRecovery } from './recovery/cwnd-keeping.js';
import { nsToSeconds, secondsToNs } from '../units.js';
import { Pacer, windowPacingRateBps } from './pacer.js';
import { RateSampler } from './rate-sampler.js';
import { RtoEstimator } from './rto.js';
import { RttSampler } from './rtt-sampler.js';
import { Scoreboard } from './scoreboard.js';
import { Tcb } from './tcb.js';

/** Where the sender hands its segments (the network). */
export interface DataPort {
  /** @param ecnBits the segment's IP ECN field and TCP CWR flag (src/tcp/ecn.ts; 0 for a flow without ECN). */
  sendData(flow: number, seq: number, len: number, isRetransmission: boolean, ecnBits: number): void;
}

/** Called after the sender handled an ACK or a timeout (traces, statistics). */
export interface SenderObserver {
  onSenderUpdate(sender: TcpSender): void;
}

/** Checks the sender's decisions against what it could know (src/packet/invariants.ts); null in bare tests. */
export interface SenderAudit {
  /** A fast recovery (or Tahoe fast retransmit) starts. */
  recoveryStarts(sender: TcpSender): void;
  /** A segment is about to be retransmitted. */
  retransmits(sender: TcpSender, seq: number, len: number): void;
  /** A paced flow sends `len` payload bytes now at `rateBps` (its pacing rate then). */
  pacedDeparture?(sender: TcpSender, nowNs: number, len: number, rateBps: number): void;
  /** An ECN-Echo is about to cut the window (before `ecn.windowReduced`: `ecn.highSeq` is the previous cut's). */
  ecnReduces?(sender: TcpSender, ackNo: number): void;
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
  /** SACK negotiated (RFC 2018): the scoreboard reads the ACKs' blocks and recovery follows RFC 6675. */
  sack: boolean;
  /** Window policy in SACK recovery: 'classic' (cwnd = ssthresh) or 'prr' (RFC 6937). */
  recovery: 'classic' | 'prr';
  /** Initial window rule (TcpSpec.initialWindow); default 'rfc6928'. */
  initialWindow?: 'rfc6928' | 'segments';
  /** What clears an RTO back-off (TcpSpec.rtoBackoffReset); default 'newAck'. */
  rtoBackoffReset?: 'newAck' | 'rttSample';
  /** With SACK, the flight handed to ssthresh() at a fast retransmit (TcpSpec.sackSsthreshInput); default 'pipe'. */
  sackSsthreshInput?: 'pipe' | 'flightSize';
  /** Without SACK, the RFC 6582 `recover` reading (TcpSpec.recoverCheck); default 'above'. */
  recoverCheck?: 'above' | 'atLeast';
  /** Which partial ACKs of a SACK recovery restart the timer (TcpSpec.sackPartialAckTimer); default 'every'. */
  sackPartialAckTimer?: 'every' | 'first';
  /** RFC 6675 NextSeg rule 4 in SACK recovery (TcpSpec.rescueRetransmission); default true. */
  rescueRetransmission?: boolean;
  /** Pace departures (src/tcp/pacer.ts); forced on for an algorithm with `needsPacing`. Default off. */
  pacing?: boolean;
  /** ECN negotiated (RFC 3168): ECT on new data, the ECN-Echo response, CWR. Absent = off. */
  ecn?: boolean;
}

/**
 * The initial window in bytes. 'rfc6928' (default): IW = min(segments x MSS, max(2 MSS, 14600 bytes))
 * (RFC 6928 2 with the configured segment count); 'segments': segments x MSS (ns-3 InitialCwnd,
 * Linux TCP_INIT_CWND), which differs once MSS > 1460 B.
 */
export function initialWindowBytes(segments: number, mssBytes: number, rule: 'rfc6928' | 'segments' = 'rfc6928'): number {
  if (rule === 'segments') return segments * mssBytes;
  return Math.min(segments * mssBytes, Math.max(2 * mssBytes, 14600));
}

/**
 * A TCP sender (one per flow) in a byte sequence space:
 * - sequence state in a {@link Scoreboard} (SND.UNA, SND.MAX, SACKed / lost / retransmitted marks,
 *   RFC 6675 pipe); it sends while cwnd - pipe >= 1 MSS, lost segments first (RFC 6675 NextSeg);
 * - loss detection by duplicate ACKs (RFC 5681) or, with SACK, RFC 6675 IsLost; the recovery itself
 *   is a {@link LossRecovery} strategy chosen once (Tahoe, Reno, NewReno, SACK classic, SACK PRR);
 * - RFC 6298 retransmission timer with Karn's rule; on expiry ssthresh from the algorithm, cwnd =
 *   1 MSS, back-off, and everything unSACKed presumed lost and resent in order (go-back-N without SACK);
 * - RFC 6582 `recover`: a new fast retransmit needs an ACK beyond the data outstanding at the last
 *   loss event, so duplicate ACKs caused by go-back-N copies never start one;
 * - the congestion-control algorithm only sees the Tcb and AckSamples, never the simulator.
 */
export class TcpSender implements RecoveryContext {
  readonly tcb: Tcb;
  readonly rto: RtoEstimator;
  readonly rtt = new RttSampler();
  readonly sb: Scoreboard;
  readonly mssBytes: number;
  readonly recovery: LossRecovery;
  /** Delivery-rate sampling, only for an algorithm with a congControl hook (else null: no cost). */
  readonly rate: RateSampler | null = null;
  /** Pacing, only when on (else null: no cost). */
  readonly pacer: Pacer | null = null;
  /** Bytes the application has handed over (Infinity: unlimited bulk). */
  appEnd = 0;
  rwndBytes: number;
  /** Duplicate ACKs in a row (RFC 5681). */
  dupAcks = 0;
  /**
   * One past the highest byte sent when the last loss event (fast retransmit or timeout) began:
   * RFC 6582 `recover` + 1 and RFC 6675 RecoveryPoint + 1. -1 before any (the ISN).
   */
  recoverEnd = -1;
  /** FlightSize when the first duplicate ACK arrived, before limited transmit added to it (RFC 5681 3.2 step 2). */
  private flightAtDisorderBytes = 0;
  /** Remainder of acknowledged bytes not yet counted as a segment (ns-3 m_bytesAckedNotProcessed). */
  ackCarryBytes = 0;

  /** ECN state (RFC 3168 6.1), null for a flow without ECN. */
  readonly ecn: EcnSender | null;

  retransmits = 0;
  timeouts = 0;
  fastRecoveries = 0;
  bytesSent = 0;
  segmentsSent = 0;
  /** Reused for every hook call: no allocation per ACK. */
  readonly sample: AckSample = { nowS: 0, bytesAcked: 0, segmentsAcked: 0, duplicate: false, rttS: undefined };
  private readonly ackEvent: AckEvent = { ackedBytes: 0, deliveredBytes: 0, duplicate: false };

  constructor(
    readonly flow: number,
    private readonly clock: { readonly nowNs: number },
    readonly cc: CongestionControl,
    private readonly port: DataPort,
    readonly config: SenderConfig,
    /** The retransmission timer; its event is dispatched to {@link onRtoEvent}. */
    private readonly rtoTimer: LazyTimer,
    private readonly observer: SenderObserver | null = null,
    private readonly audit: SenderAudit | null = null,
    /** The pacing timer (EV_PACE); needed only when the flow is paced. */
    paceTimer: LazyTimer | null = null,
  ) {
    this.mssBytes = config.mssBytes;
    this.tcb = new Tcb(config.mssBytes, initialWindowBytes(config.initialCwndSegments, config.mssBytes, config.initialWindow), config.initialSsthreshBytes);
    this.rto = new RtoEstimator(config.minRtoS, config.maxRtoS, config.clockGranularityS);
    this.rwndBytes = config.initialRwndBytes;
    this.sb = new Scoreboard(config.mssBytes, config.sack);
    const recovery = createRecovery(recoveryName(cc.recovery, config.sack, config.recovery), config.sack, config.sackPartialAckTimer);
    this.recovery = recovery;
    if (cc.congControl !== undefined) {
      // Rate-based control (Linux cong_control): the algorithm owns cwnd, recovery only retransmits.
      const rate = new RateSampler(config.mssBytes);
      this.rate = rate;
      this.sb.onDelivered = (seq, end) => rate.delivered(seq, end);
      this.recovery = new CwndKeepingRecovery(recovery);
    }
    if (config.pacing === true || cc.needsPacing === true) {
      if (paceTimer === null) throw new Error(`flow ${flow}: pacing needs a pacing timer`);
      this.pacer = new Pacer(paceTimer);
    }
    this.ecn = config.ecn === true ? new EcnSender() : null;
  }

  get nowS(): number {
    return nsToSeconds(this.clock.nowNs);
  }

  get sndUna(): number {
    return this.sb.una;
  }

  get highTx(): number {
    return this.sb.highTx;
  }

  /** RFC 6675 pipe (bytes); RFC 5681 FlightSize without SACK. */
  pipeBytes(): number {
    return this.sb.pipeBytes;
  }

  /** The application starts: `bytes` to send, or null for unlimited bulk data. */
  startApp(bytes: number | null): void {
    if (this.appEnd === 0 && this.sb.highTx === 0) this.cc.init?.(this.tcb, this.nowS);
    this.appEnd = bytes ?? Infinity;
    this.sendPending();
    this.notify();
  }

  /** The application stops writing; what is already in the send buffer still goes out. */
  stopApp(): void {
    const buffered = Math.max(this.sb.highTx, this.sb.una + this.config.sndBufBytes);
    if (buffered < this.appEnd) this.appEnd = buffered;
  }

  /**
   * An ACK arrived.
   * @param sackBlocks [start, end) pairs for `sackCount` blocks (ignored without SACK).
   * @param ece the ACK's ECN-Echo flag (read only when ECN was negotiated).
   */
  onAck(ackNo: number, tsEcrNs: number, rwndBytes: number, sackCount = 0, sackBlocks: Float64Array | null = null, ece = false): void {
    const sb = this.sb;
    const una0 = sb.una;
    // RFC 793: an ACK below SND.UNA is stale; one above what was sent is ignored.
    if (ackNo < una0 || ackNo > sb.highTx) return;
    this.rwndBytes = rwndBytes;
    this.takeRttSample(una0, ackNo, tsEcrNs);
    if (this.rate !== null) this.rate.beginAck(this.clock.nowNs, sb.pipeBytes, sb.markedLostBytes);

    const sackedBefore = sb.sackedBytes;
    let newlySacked = 0;
    if (this.config.sack && sackBlocks !== null) {
      for (let i = 0; i < sackCount; i++) newlySacked += sb.sack(sackBlocks[2 * i]!, sackBlocks[2 * i + 1]!);
      if (newlySacked > 0) sb.markLostRetransmissions();
    }
    const ackedBytes = ackNo - una0;
    if (ackedBytes > 0) {
      sb.ackTo(ackNo);
      this.rtt.acked(ackNo);
    }
    if (this.recovery.usesSack) sb.markLost(this.config.dupAckThreshold);
    const ev = this.ackEvent;
    ev.ackedBytes = ackedBytes;
    ev.deliveredBytes = ackedBytes + (sb.sackedBytes - sackedBefore);
    // RFC 5681 duplicate ACK (an identical window: our receivers advertise a constant one);
    // with SACK, RFC 6675 also asks that it SACK new data.
    ev.duplicate = ackedBytes === 0 && una0 < sb.highTx && (!this.config.sack || newlySacked > 0);
    if (this.ecn !== null) this.onEcnAck(ackNo, ece, ev.deliveredBytes);
    if (ev.duplicate && !this.config.sack && this.rate !== null) this.rate.renoDupAck();
    if (ev.duplicate || ackedBytes > 0) {
      if (ackedBytes > 0) this.onNewAck(ackNo, una0, ev);
      else this.onDupAck(ev);
    }
    if (this.rate !== null) this.runCongControl();
    else if (this.pacer !== null) this.updateWindowPacingRate();
    this.sendPending();
    this.notify();
  }

  /** Linux tcp_rate_gen then cong_control (ns-3 GenerateSample then CongControl), once per ACK. */
  private runCongControl(): void {
    const tcb = this.tcb;
    const rate = this.rate!;
    // Linux tcp_packets_in_flight: without SACK each duplicate ACK counts as a SACKed segment
    // (tcp_add_reno_sack); here that is the send window's allowance above cwnd (limited transmit,
    // RFC 5681 inflation), taken out of pipe so the algorithm's cwnd and the sender agree.
    tcb.bytesInFlight = Math.max(0, this.sb.pipeBytes - (this.sendWindowBytes() - tcb.cwndBytes));
    const rs = rate.endAck(this.clock.nowNs, this.sb.markedLostBytes, tcb.minRttS);
    this.cc.congControl!(tcb, rs, rate, this.nowS);
  }

  /** A paced flow whose algorithm sets no rate: Linux tcp_update_pacing_rate. */
  private updateWindowPacingRate(): void {
    const tcb = this.tcb;
    tcb.pacingRateBps = windowPacingRateBps(tcb.cwndBytes, this.sb.outstandingBytes, tcb.ssthreshBytes, tcb.srttS);
  }

  /** Window growth by the algorithm (none for rate-based control: congControl sets cwnd). */
  private increaseWindow(): void {
    if (this.rate === null) this.cc.increaseWindow(this.tcb, this.sample);
  }

  private takeRttSample(una0: number, ackNo: number, tsEcrNs: number): void {
    const sample = this.sample;
    sample.nowS = this.nowS;
    sample.rttS = undefined;
    if (!this.rtt.eligible(una0, ackNo, this.sb.highTx, this.mssBytes)) return;
    let r = nsToSeconds(this.clock.nowNs - tsEcrNs);
    if (r <= 0) r = 1e-6;
    this.rto.sample(r);
    sample.rttS = r;
    const tcb = this.tcb;
    tcb.srttS = this.rto.srttS;
    if (r < tcb.minRttS) tcb.minRttS = r;
  }

  private onDupAck(ev: AckEvent): void {
    const tcb = this.tcb;
    const sample = this.sample;
    sample.bytesAcked = 0;
    sample.segmentsAcked = 1; // ns-3 PktsAcked(1): one segment left the network
    sample.duplicate = true;
    this.callOnAck();
    const state = tcb.caState;
    // Duplicate ACKs after a timeout may come from go-back-N copies: they start nothing.
    if (state === 'loss') return;
    if (state === 'recovery') {
      this.recovery.onAck(this, ev);
      return;
    }
    this.dupAcks++;
    if (state === 'open') {
      this.flightAtDisorderBytes = this.sb.outstandingBytes;
      this.setState('disorder');
    }
    if (this.lossDetected()) this.startRecovery(ev);
  }

  /** Whether the evidence in hand says the head is lost (RFC 5681 DupThresh or RFC 6675 IsLost), outside a guarded window. */
  private lossDetected(): boolean {
    const sb = this.sb;
    if (this.recovery.usesSack) {
      // RFC 6675 5.1: no new recovery until HighACK reaches the RecoveryPoint of the last one.
      return sb.una >= this.recoverEnd && sb.isLost(sb.una);
    }
    // RFC 6582 3.2 step 1: the duplicate ACKs must cover more than `recover`. By default read strictly
    // as Linux does for Reno ("hold old state until something *above* high_seq is ACKed"): an ACK equal
    // to SND.MAX at the last loss event does not qualify, because the go-back-N copies of segments the
    // receiver held come back as exactly such duplicate ACKs. 'atLeast' accepts equality: the RFC's
    // recover is the highest sequence number sent (SND.MAX - 1), and ns-3 tests m_highRxAckMark >= m_recover.
    if (this.dupAcks !== this.config.dupAckThreshold) return false;
    return this.config.recoverCheck === 'atLeast' ? sb.una >= this.recoverEnd : sb.una > this.recoverEnd;
  }

  private startRecovery(ev: AckEvent): void {
    const tcb = this.tcb;
    const sb = this.sb;
    this.audit?.recoveryStarts(this);
    this.fastRecoveries++;
    // What ssthresh is cut from: without SACK RFC 5681's FlightSize, leaving out what limited
    // transmit sent (3.2 step 2, a MUST); with SACK RFC 6675's pipe, as ns-3 passes BytesInFlight()
    // (RFC 6675 4.2 writes FlightSize; on the seed's lossy line that choice is +64% vs ns-3's NewReno).
    // `sackSsthreshInput: flightSize` hands RFC 6675 4.2's FlightSize (SND.MAX - SND.UNA) instead.
    tcb.bytesInFlight = !this.config.sack
      ? Math.min(sb.outstandingBytes, this.flightAtDisorderBytes)
      : this.config.sackSsthreshInput === 'flightSize' ? sb.outstandingBytes : sb.pipeBytes;
    // A loss in a window ECN already cut is not cut again (RFC 3168 6.1.2: once per window for CE and
    // loss alike; Linux tcp_enter_recovery skips tcp_init_cwnd_reduction when in CWR).
    if (tcb.caState !== 'cwr') tcb.ssthreshBytes = this.cc.ssthresh(tcb, 'dupacks', this.nowS);
    this.ecn?.windowReduced(sb.highTx);
    if (this.recovery.guardsRecover) this.recoverEnd = sb.highTx;
    if (!this.recovery.fastRecovery) {
      this.enterLoss();
      return;
    }
    this.setState('recovery');
    sb.rescueRxt = -1;
    this.recovery.enter(this, ev);
  }

  /** Slow start from one segment with everything unSACKed presumed lost (timeout, Tahoe). */
  private enterLoss(): void {
    const tcb = this.tcb;
    this.setState('loss');
    tcb.cwndBytes = this.mssBytes;
    this.dupAcks = 0;
    this.recoverEnd = this.sb.highTx;
    this.sb.markAllLost();
    this.ecn?.windowReduced(this.sb.highTx);
  }

  private onNewAck(ackNo: number, una0: number, ev: AckEvent): void {
    const tcb = this.tcb;
    const mss = this.mssBytes;
    const bytesAcked = ackNo - una0;
    // The segments this ACK delivered (newly SACKed + newly acknowledged, not bytes SACKed before:
    // ns-3's currentDelivered, Linux's acked_sacked). Without SACK nothing is ever SACKed, so this is
    // the cumulative count.
    const delivered = ev.deliveredBytes;
    let segs = Math.floor(delivered / mss);
    this.ackCarryBytes += delivered % mss;
    if (this.ackCarryBytes >= mss) {
      segs++;
      this.ackCarryBytes -= mss;
    }
    const oldDup = this.dupAcks;
    this.dupAcks = 0;
    const sample = this.sample;
    sample.bytesAcked = bytesAcked;
    sample.duplicate = false;
    const state = tcb.caState;

    if (state === 'recovery') {
      if (ackNo < this.recoverEnd && !this.recovery.exitsOnPartialAck) {
        sample.segmentsAcked = 1; // ns-3 PktsAcked(1) on a partial ACK
        this.callOnAck();
        this.recovery.onAck(this, ev);
        return;
      }
      segs = Math.floor(bytesAcked / mss);
      sample.segmentsAcked = segs;
      this.callOnAck();
      this.recovery.exit(this);
      this.setState('open');
    } else if (state === 'loss') {
      if (ackNo < this.recoverEnd) {
        // Still repairing after a timeout (or Tahoe's fast retransmit): slow start continues.
        sample.segmentsAcked = segs;
        this.callOnAck();
        this.increaseWindow();
        this.restartRtoTimer();
        return;
      }
      segs = Math.max(0, Math.floor((ackNo - this.recoverEnd) / mss));
      sample.segmentsAcked = segs;
      this.callOnAck();
      this.setState('open');
    } else if (state === 'disorder') {
      sample.segmentsAcked = Math.max(0, segs - oldDup);
      this.callOnAck();
      this.setState('open');
    } else if (state === 'cwr') {
      // ECN window reduction under way (onEcnAck ends it): no growth until it ends (Linux
      // tcp_cong_control grows cwnd only outside tcp_in_cwnd_reduction; ns-3 CA_CWR likewise).
      sample.segmentsAcked = segs;
      this.callOnAck();
      this.restartRtoTimer();
      if (this.recovery.usesSack && this.sb.una < this.sb.highTx && this.lossDetected()) this.startRecovery(ev);
      return;
    } else {
      sample.segmentsAcked = segs;
      this.callOnAck();
    }
    sample.segmentsAcked = segs;
    this.increaseWindow();
    this.restartRtoTimer();
    // With SACK, an ACK that moves SND.UNA can still leave the new head lost (Linux tcp_time_to_recover).
    if (this.recovery.usesSack && this.sb.una < this.sb.highTx && this.lossDetected()) {
      this.setState('disorder');
      this.startRecovery(ev);
    }
  }

  /**
   * ECN on an arriving ACK (RFC 3168 6.1.2; Linux tcp_ack -> tcp_in_ack_event(CA_ACK_ECE), then
   * tcp_fastretrans_alert: end CWR once something above high_seq is ACKed, tcp_try_to_open ->
   * tcp_enter_cwr on ECE). An ECN-Echo in 'open' or 'disorder' cuts the window once: the variant's
   * ssthresh as for a loss, cwnd = ssthresh at once (ns-3's classic recovery; Linux walks down to it
   * with PRR over the round), no retransmission, CWR owed; in 'cwr', 'recovery' or 'loss' the window
   * has already been cut for this window of data and ECE is ignored.
   */
  private onEcnAck(ackNo: number, ece: boolean, deliveredBytes: number): void {
    const ecn = this.ecn!;
    const tcb = this.tcb;
    const e = ecn.ack;
    e.nowS = this.nowS;
    e.ece = ece;
    e.deliveredBytes = deliveredBytes;
    e.ackNo = ackNo;
    e.sndNxt = this.sb.highTx;
    tcb.bytesInFlight = this.sb.pipeBytes;
    this.cc.onEcnAck?.(tcb, e);
    if (tcb.caState === 'cwr' && ecn.endsCwr(ackNo)) this.setState('open');
    if (!ece) return;
    ecn.eceAcks++;
    // Only ACKs above SND.NXT at the last cut (of any cause) belong to a new window: the echo of a CE
    // from the cut window goes on until the receiver sees CWR, on the first segment above it.
    if ((tcb.caState !== 'open' && tcb.caState !== 'disorder') || !ecn.endsCwr(ackNo)) return;
    this.audit?.ecnReduces?.(this, ackNo);
    ecn.reductions++;
    tcb.ssthreshBytes = this.cc.ssthresh(tcb, 'ecn', this.nowS);
    tcb.cwndBytes = Math.max(tcb.ssthreshBytes, this.mssBytes);
    ecn.windowReduced(this.sb.highTx);
    this.setState('cwr');
  }

  private callOnAck(): void {
    this.tcb.bytesInFlight = this.sb.pipeBytes;
    this.cc.onAck?.(this.tcb, this.sample);
  }

  /**
   * The window to fill: cwnd; in recovery what the strategy says (RFC 5681 inflation); in disorder
   * without SACK one more segment for each of the first two duplicate ACKs (RFC 3042 limited
   * transmit; with SACK, pipe already leaves out what they SACKed).
   */
  private sendWindowBytes(): number {
    const state = this.tcb.caState;
    if (state === 'recovery') return this.recovery.sendWindowBytes(this);
    if (state === 'disorder' && !this.config.sack) return this.tcb.cwndBytes + Math.min(this.dupAcks, 2) * this.mssBytes;
    return this.tcb.cwndBytes;
  }

  /** RFC 6675 NextSeg and RFC 5681: sends as much as cwnd, the peer's window, the data and pacing allow. */
  sendPending(): void {
    this.fillWindow();
    const rate = this.rate;
    if (rate !== null) {
      const sb = this.sb;
      const unsent = Math.min(this.appEnd, sb.una + this.config.sndBufBytes) - sb.highTx;
      rate.checkAppLimited(unsent, sb.pipeBytes, this.tcb.cwndBytes, sb.lostBytes);
    }
  }

  /** Pacing holds the next departure (and arms its timer). */
  private paced(): boolean {
    return this.pacer !== null && this.pacer.holds(this.clock.nowNs);
  }

  /** The pacing timer fired: a held fast retransmission first, then whatever the window allows. */
  onPaceEvent(): void {
    const pacer = this.pacer;
    if (pacer === null || !pacer.fire()) return;
    if (pacer.owedFastRetransmit) {
      pacer.owedFastRetransmit = false;
      this.retransmitFirstLost();
    }
    this.sendPending();
    this.notify();
  }

  private fillWindow(): void {
    const sb = this.sb;
    const mss = this.mssBytes;
    const inSackRecovery = this.recovery.usesSack && this.tcb.caState === 'recovery';
    for (;;) {
      const room = this.sendWindowBytes() - sb.pipeBytes;
      if (room <= 0) return;
      // Rule 1 (and the timeout's retransmission queue): a lost segment not yet resent.
      const lost = sb.nextLost();
      if (lost >= 0) {
        const len = sb.segmentLength(lost);
        if (room < len || this.paced()) return;
        this.retransmit(lost, len);
        continue;
      }
      // Rule 2: new data.
      const limit = Math.min(this.appEnd, sb.una + this.config.sndBufBytes, sb.una + this.rwndBytes);
      const dataLeft = limit - sb.highTx;
      if (dataLeft > 0) {
        // Silly-window avoidance and Nagle (RFC 896), as ns-3 SendPendingData.
        if (room < mss && dataLeft > room) return;
        if (dataLeft < mss && sb.highTx > sb.una) return;
        if (this.paced()) return;
        const len = Math.min(mss, dataLeft, room);
        const seq = sb.highTx;
        sb.sentNew(seq, len, this.clock.nowNs);
        this.transmit(seq, len, false);
        continue;
      }
      if (!inSackRecovery) return;
      // Rule 3: an unSACKed segment below the highest SACK, not yet resent.
      const next = sb.nextUnsackedBelowHighestSack();
      if (next >= 0) {
        const len = sb.segmentLength(next);
        if (room < len || this.paced()) return;
        this.retransmit(next, len);
        continue;
      }
      // Rule 4: one rescue retransmission per recovery, of the highest unSACKed segment (a SHOULD;
      // `rescueRetransmission: false` leaves it out, as ns-3's TcpTxBuffer::NextSeg does).
      if (this.config.rescueRetransmission !== false && (sb.rescueRxt < 0 || sb.una > sb.rescueRxt)) {
        const top = sb.highestUnsacked();
        if (top < 0) return;
        const len = sb.segmentLength(top);
        if (room < len || this.paced()) return;
        sb.rescueRxt = this.recoverEnd;
        this.transmit(top, len, true);
        continue;
      }
      return;
    }
  }

  /** RecoveryContext: RFC 6675 (4.3) / RFC 5681 fast retransmit, sent whatever cwnd says. */
  retransmitFirstLost(): void {
    if (this.paced()) {
      this.pacer!.owedFastRetransmit = true;
      return;
    }
    const seq = this.sb.nextLost();
    if (seq >= 0) this.retransmit(seq, this.sb.segmentLength(seq));
  }

  private retransmit(seq: number, len: number): void {
    this.sb.retransmitted(seq, this.clock.nowNs);
    this.transmit(seq, len, true);
  }

  private transmit(seq: number, len: number, isRetx: boolean): void {
    if (isRetx) {
      this.audit?.retransmits(this, seq, len);
      this.retransmits++;
      this.rtt.markRetransmitted(seq, len);
    }
    if (this.tcb.caState === 'recovery') this.recovery.onTransmit(len);
    const nowNs = this.clock.nowNs;
    // New data with nothing outstanding: sentNew has just moved SND.MAX from seq (== SND.UNA).
    if (this.rate !== null) this.rate.onSend(seq, nowNs, isRetx, !isRetx && seq === this.sb.una, this.sb.una, this.sb.pipeBytes, this.sb.markedLostBytes);
    if (this.pacer !== null) {
      this.audit?.pacedDeparture?.(this, nowNs, len, this.tcb.pacingRateBps);
      this.pacer.sent(nowNs, len, this.tcb.pacingRateBps);
    }
    this.bytesSent += len;
    this.segmentsSent++;
    this.port.sendData(this.flow, seq, len, isRetx, this.ecn === null ? 0 : this.ecn.segmentBits(isRetx));
    // RFC 6298 (5.1): start the timer if it is not running.
    if (!this.rtoTimer.running) this.armRto();
  }

  /** Changes the congestion state and tells the algorithm (ns-3 CongestionStateSet). */
  setState(state: CaState): void {
    this.tcb.caState = state;
    this.cc.onStateChange?.(this.tcb, state, this.nowS);
  }

  private armRto(): void {
    this.rtoTimer.armAt(this.clock.nowNs + secondsToNs(this.rto.rtoS));
  }

  /**
   * RecoveryContext: new data acknowledged, timer restarted; stopped when nothing is outstanding
   * (RFC 6298 5.2, 5.3). The RTO comes from the estimator, dropping any back-off, as ns-3's NewAck
   * does; with `rtoBackoffReset: rttSample` the backed-off RTO stays until a valid RTT sample clears
   * it (RFC 6298 5.5-5.7 with Karn's algorithm; Linux tcp_ack_update_rtt).
   */
  restartRtoTimer(): void {
    if (this.config.rtoBackoffReset !== 'rttSample') this.rto.restart();
    if (this.sb.una >= this.sb.highTx) this.rtoTimer.stop();
    else this.armRto();
  }

  get rtoRunning(): boolean {
    return this.rtoTimer.running;
  }

  /** The timer's event fired (possibly stale after lazy restarts). */
  onRtoEvent(): void {
    if (!this.rtoTimer.fire()) return;
    this.onTimeout();
    this.notify();
  }

  /** Retransmission timeout (RFC 6298 5.4-5.6, RFC 5681 eq. (4), RFC 6675 5.1). */
  private onTimeout(): void {
    const sb = this.sb;
    if (sb.una >= sb.highTx) return;
    this.timeouts++;
    const tcb = this.tcb;
    tcb.bytesInFlight = sb.pipeBytes;
    this.rto.backoff();
    this.rtt.onTimeout(sb.highTx);
    // RFC 5681 (4): ssthresh is held if the head has already been resent by the timer.
    if (tcb.caState !== 'loss' || !this.rtt.isRetransmitted(sb.una)) {
      tcb.ssthreshBytes = this.cc.ssthresh(tcb, 'timeout', this.nowS);
    }
    if (this.rate !== null) this.rate.resetRenoSacks();
    this.enterLoss();
    this.sendPending();
  }

  private notify(): void {
    this.tcb.bytesInFlight = this.sb.pipeBytes;
    if (this.observer !== null) this.observer.onSenderUpdate(this);
  }
}
