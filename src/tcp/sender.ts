import type { AckSample, CaState, CongestionControl } from '../cc/types.js';
import type { LazyTimer } from '../engine/timer.js';
import { EcnSender } from './ecn.js';
import { respondToEcn } from './ecn-response.js';
import { onDupAck, onRetransmissionTimeout } from './loss-detection.js';
import { onAdvancingDupAck, onNewAck } from './new-ack.js';
import { createRecovery, recoveryName, type AckEvent, type LossRecovery, type RecoveryContext } from './recovery/index.js';
import { nsToSeconds, secondsToNs } from '../units.js';
import { Pacer } from './pacer.js';
import { noteAppLimited, rateControlFor, runCongControl, updateWindowPacingRate, wireLostSegmentHook } from './rate-control.js';
import type { RateSampler } from './rate-sampler.js';
import { RtoEstimator } from './rto.js';
import { RttSampler } from './rtt-sampler.js';
import { Scoreboard } from './scoreboard.js';
import { fillWindow, retransmit } from './send-loop.js';
import { initialWindowBytes, type DataPort, type SenderAudit, type SenderConfig, type SenderObserver } from './sender-config.js';
import { Tcb } from './tcb.js';

export { initialWindowBytes, type DataPort, type SenderAudit, type SenderConfig, type SenderObserver } from './sender-config.js';

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
  /** One past the last segment shorter than the MSS sent (Linux tp->snd_sml), for Nagle's 'minshall' rule. */
  shortSentEndSeq = 0;
  /** Duplicate ACKs in a row (RFC 5681). */
  dupAcks = 0;
  /**
   * One past the highest byte sent when the last loss event (fast retransmit or timeout) began:
   * RFC 6582 `recover` + 1 and RFC 6675 RecoveryPoint + 1. -1 before any (the ISN).
   */
  recoverEnd = -1;
  /** FlightSize when the first duplicate ACK arrived, before limited transmit added to it (RFC 5681 3.2 step 2). */
  flightAtDisorderBytes = -0;
  /** Remainder of acknowledged bytes not yet counted as a segment (ns-3 m_bytesAckedNotProcessed). */
  ackCarryBytes = -0;

  /** ECN state (RFC 3168 6.1), null for a flow without ECN. */
  readonly ecn: EcnSender | null;

  retransmits = 0;
  timeouts = 0;
  fastRecoveries = 0;
  bytesSent = -0;
  segmentsSent = 0;
  /** Reused for every hook call: no allocation per ACK. */
  readonly sample: AckSample = { nowS: 0, bytesAcked: 0, segmentsAcked: 0, duplicate: false, rttS: undefined };
  private readonly ackEvent: AckEvent = { ackedBytes: 0, deliveredBytes: 0, duplicate: false };

  constructor(
    readonly flow: number,
    readonly clock: { readonly nowNs: number },
    readonly cc: CongestionControl,
    readonly port: DataPort,
    readonly config: SenderConfig,
    /** The retransmission timer; its event is dispatched to {@link onRtoEvent}. */
    readonly rtoTimer: LazyTimer,
    private readonly observer: SenderObserver | null = null,
    readonly audit: SenderAudit | null = null,
    /** The pacing timer (EV_PACE); needed only when the flow is paced. */
    paceTimer: LazyTimer | null = null,
  ) {
    this.mssBytes = config.mssBytes;
    this.tcb = new Tcb(config.mssBytes, initialWindowBytes(config.initialCwndSegments, config.mssBytes, config.initialWindow), config.initialSsthreshBytes, config.sack);
    this.rto = new RtoEstimator(config.minRtoS, config.maxRtoS, config.clockGranularityS);
    this.rwndBytes = config.initialRwndBytes;
    this.sb = new Scoreboard(config.mssBytes, config.sack);
    const recovery = createRecovery(recoveryName(cc.recovery, config.sack, config.recovery), config.sack, config.sackPartialAckTimer);
    // Rate-based control (Linux cong_control): the algorithm owns cwnd, recovery only retransmits.
    const rateControl = rateControlFor(cc, config.mssBytes, this.sb, recovery);
    this.recovery = rateControl?.recovery ?? recovery;
    this.rate = rateControl?.rate ?? null;
    if (this.rate !== null) wireLostSegmentHook(this, this.rate);
    if (config.pacing === true || cc.needsPacing === true) {
      if (paceTimer === null) throw new Error(`flow ${flow}: pacing needs a pacing timer`);
      this.pacer = new Pacer(paceTimer);
    }
    this.ecn = config.ecn === true ? new EcnSender() : null;
    this.flightAtDisorderBytes = this.ackCarryBytes = this.bytesSent = 0; // `= -0`: doubles from the start, see RateSampler()
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
    if (this.appEnd === 0 && this.sb.highTx === 0) {
      this.takeHandshakeSample();
      this.cc.init?.(this.tcb, this.nowS);
    }
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
    if (this.ecn !== null) respondToEcn(this, ackNo, ece, ev.deliveredBytes);
    if (ev.duplicate && !this.config.sack && this.rate !== null) this.rate.renoDupAck();
    if (this.config.sackAdvanceAck === 'dupAck' && ackedBytes > 0 && newlySacked > 0 && (this.tcb.caState === 'open' || this.tcb.caState === 'disorder')) {
      onAdvancingDupAck(this, ev);
    } else if (ev.duplicate || ackedBytes > 0) {
      if (ackedBytes > 0) onNewAck(this, ackNo, una0, ev);
      else onDupAck(this, ev);
    }
    if (this.rate !== null) runCongControl(this, this.rate);
    else if (this.pacer !== null) updateWindowPacingRate(this);
    this.sendPending();
    this.notify();
  }

  /**
   * The SYN / SYN-ACK exchange's RTT sample (TcpSpec.handshakeRtt), before any data: the RTO
   * estimator and SRTT start from it, as ns-3's EstimateRtt on the SYN-ACK. tcb.minRttS (the smallest
   * data-ACK sample, which Linux's Westwood+ and BBR filters read) is left to the data.
   */
  private takeHandshakeSample(): void {
    const r = this.config.handshakeRttS;
    if (r === undefined || r <= 0 || this.rto.hasSample) return;
    this.rto.sample(r);
    this.tcb.srttS = this.rto.srttS;
  }

  /** Window growth by the algorithm (none for rate-based control: congControl sets cwnd). */
  increaseWindow(): void {
    if (this.rate === null) this.cc.increaseWindow(this.tcb, this.sample);
  }

  private takeRttSample(una0: number, ackNo: number, tsEcrNs: number): void {
    const sample = this.sample;
    // nsToSeconds written out: the getter, where V8 does not inline it here, returned a new heap number per ACK.
    sample.nowS = this.clock.nowNs / 1e9;
    sample.rttS = undefined;
    if (!this.rtt.eligible(una0, ackNo, this.sb.highTx, this.mssBytes, this.config.rttSamples === 'timestamps')) return;
    let r = nsToSeconds(this.clock.nowNs - tsEcrNs);
    if (r <= 0) r = 1e-6;
    this.rto.sample(r);
    sample.rttS = r;
    const tcb = this.tcb;
    tcb.srttS = this.rto.srttS;
    if (r < tcb.minRttS) tcb.minRttS = r;
  }

  /** Hands the algorithm the ACK (ns-3 PktsAcked) with pipe as it now stands. */
  callOnAck(): void {
    this.tcb.bytesInFlight = this.sb.pipeBytes;
    this.cc.onAck?.(this.tcb, this.sample);
  }

  /**
   * The window to fill: cwnd; in recovery what the strategy says (RFC 5681 inflation); in disorder
   * without SACK one more segment for each of the first two duplicate ACKs (RFC 3042 limited
   * transmit; with SACK, pipe already leaves out what they SACKed).
   */
  sendWindowBytes(): number {
    const state = this.tcb.caState;
    if (state === 'recovery') return this.recovery.sendWindowBytes(this);
    if (state === 'disorder' && !this.config.sack) return this.tcb.cwndBytes + Math.min(this.dupAcks, 2) * this.mssBytes;
    return this.tcb.cwndBytes;
  }

  /** RFC 6675 NextSeg and RFC 5681: sends as much as cwnd, the peer's window, the data and pacing allow. */
  sendPending(): void {
    fillWindow(this);
    if (this.rate !== null) noteAppLimited(this, this.rate);
  }

  /** Pacing holds the next departure (and arms its timer): send-loop.ts asks before every departure. */
  paced(): boolean {
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

  /** RecoveryContext: RFC 6675 (4.3) / RFC 5681 fast retransmit, sent whatever cwnd says. */
  retransmitFirstLost(): void {
    if (this.paced()) {
      this.pacer!.owedFastRetransmit = true;
      return;
    }
    const sb = this.sb;
    // ns-3 EnterRecovery sends SND.UNA, resent already or not (SendDataPacket(m_highRxAckMark)).
    const seq = this.config.sackRecoveryStart === 'dupAck' && this.recovery.usesSack && sb.una < sb.highTx ? sb.una : sb.nextLost();
    if (seq >= 0) retransmit(this, seq, sb.segmentLength(seq));
  }

  /** Changes the congestion state and tells the algorithm (ns-3 CongestionStateSet). */
  setState(state: CaState): void {
    this.tcb.caState = state;
    this.cc.onStateChange?.(this.tcb, state, this.nowS);
  }

  /** Arms the retransmission timer one RTO from now (RFC 6298 5.1). */
  armRto(): void {
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
    onRetransmissionTimeout(this);
    this.notify();
  }

  private notify(): void {
    this.tcb.bytesInFlight = this.sb.pipeBytes;
    if (this.observer !== null) this.observer.onSenderUpdate(this);
  }
}
