/**
 * BBR (BBRv1): Linux `net/ipv4/tcp_bbr.c` (mainline) checked against ns-3 `TcpBbr`
 * (src/internet/model/tcp-bbr.cc) and Cardwell et al., "BBR: Congestion-Based Congestion Control",
 * ACM Queue 14(5), 2016. A rate-based algorithm on the congControl hook: per ACK it updates its path
 * model (windowed max delivery rate over 10 packet-timed rounds, min RTT over 10 s) from the rate
 * sample, then sets the pacing rate (pacing gain x bw, 1% below) and cwnd (cwnd gain x BDP plus the
 * ACK-aggregation allowance and the end-host quantisation budget). Bytes and seconds throughout
 * (Linux counts packets and microseconds in fixed point; ns-3 bytes and Time).
 *
 * States: STARTUP (pacing and cwnd gain 2/ln 2) until the full-pipe rule (3 rounds without 25%
 * growth of the max bw) holds; DRAIN (pacing gain 1/high gain) until what is in flight fits one BDP;
 * PROBE_BW cycling 8 phases of one min RTT each (1.25, 0.75, then six of 1), started at a random
 * phase other than 0.75; PROBE_RTT when the min-RTT estimate is 10 s old: cwnd 4 segments for
 * max(200 ms, one round), then back. Loss recovery: packet conservation in the first recovery round,
 * cwnd restored on the way out (bbr_set_cwnd_to_recover_or_restore). The long-term (policer)
 * sampling of Linux is here (ns-3 has none: `longTermSampling` 0).
 *
 * Where Linux and ns-3 differ, Linux is the default and a param gives ns-3's choice:
 * - send quantum: Linux budgets 3 TSO bursts (bbr_tso_segs_goal: ~1 ms of data at the pacing rate,
 *   2..127 segments) in cwnd; ns-3 one segment (`ns3SendQuantum` 1).
 * - random start phase: Linux draws among 7 (never the 0.75 phase first), ns-3 among 6 (`cycleRand`).
 * - long-term sampling: Linux on, ns-3 absent (`longTermSampling`).
 * - high gain: Linux's fixed point gives 739/256 = 2.8867, ns-3 2.89; the default is 2/ln 2 exactly.
 * Left out, with the reason: the idle restart (CA_EVENT_TX_START: cclab's applications never idle
 * mid-transfer with data in flight), undo (cclab's sender has no spurious-loss undo), the EDT
 * correction of bbr_packets_in_net_at_edt (cclab's sender queues nothing below TCP: the departure
 * time is at most one slot away, so in-network = in-flight, as ns-3 takes it), and is_ack_delayed.
 */
import { rngStream, type Uniform } from '../engine/rng.js';
import type { CaState, CcEnvironment, CongestionControl, CongestionControlFactory, LossKind, RateConnection, RateSample, TcpState } from './types.js';
import { BbrAckAggregation } from './bbr-ack-aggregation.js';
import { BbrLongTermSampler, LT_EXPIRED, LT_POLICER_FOUND, RTO_LOSS_SAMPLE } from './bbr-long-term.js';
import { inRecoveryOrLoss, setCwnd } from './bbr-cwnd.js';
import { inflightBytes, tsoSegs } from './bbr-bdp.js';
import { BBR_CYCLE_LEN, BBR_PARAMS } from './bbr-params.js';
import { updateMinRtt } from './bbr-probe-rtt.js';
import { sharedParams } from './shared-params.js';
import { WindowedFilter } from './windowedFilter.js';

export { BBR_CYCLE_LEN, BBR_PARAMS } from './bbr-params.js';

export type BbrMode = 'startup' | 'drain' | 'probe_bw' | 'probe_rtt';

type P = Readonly<Record<string, number>>;

/** One flow's BBR state (Linux struct bbr). Public fields are read by tests and traces. */
export class Bbr implements CongestionControl {
  readonly id = 'bbr' as const;
  readonly recovery = 'newreno' as const;
  readonly needsPacing = true;
  mode: BbrMode = 'startup';
  pacingGain: number;
  cwndGain: number;
  /** Windowed max delivery rate, bytes/s, over bwWindowRounds rounds (Linux bbr->bw). */
  readonly bwFilter: WindowedFilter;
  /** Min RTT estimate, s (Linux min_rtt_us); Infinity before a sample. */
  minRttS = Infinity;
  minRttStampS = -0;
  /** End of PROBE_RTT's minimum-cwnd time, s; -Infinity while not set (a double: the rate sampler's note on `= -0`). */
  probeRttDoneS = -Infinity;
  probeRttRoundDone = false;
  /** Packet-timed rounds so far (Linux rtt_cnt). */
  roundCount = 0;
  roundStart = false;
  /** conn.deliveredBytes at which the next packet-timed round starts (Linux next_rtt_delivered). */
  nextRoundDeliveredBytes = -0;
  packetConservation = false;
  /** The congestion state at the previous ACK (Linux prev_ca_state). */
  prevCaState: CaState = 'open';
  priorCwndBytes = 0;
  fullBwReached = false;
  private fullBwBps = -0;
  /** bbr_bw as of this ACK's update, bytes/s, for the rest of congControl: a double field, as the getter read where
   * V8 did not inline it came back as a new heap number (6 B per event at 100 flows, bench/experiments/bbr-alloc.ts). */
  bwNowBytesPerS = -0;
  /** bbr_ack_aggregation_cwnd as of this ACK, bytes (set by {@link updateAckAggregationCwnd}; a double field, as bwNowBytesPerS). */
  ackAggregationCwndBytes = -0;
  private fullBwCount = 0;
  cycleIndex = 0;
  private cycleStampS = -0;
  private hasSeenRtt = false;
  /** Long-term (policer) sampling (Linux lt_*; src/cc/bbr-long-term.ts). */
  readonly longTerm: BbrLongTermSampler;
  /** ACK-aggregation estimate (Linux ack_epoch_*, extra_acked[]; src/cc/bbr-ack-aggregation.ts). */
  readonly ackAggregation: BbrAckAggregation;
  private readonly random: Uniform;
  /** The connection's delivery state (the sender's sampler; the same object on every call). */
  private conn: RateConnection | null = null;

  constructor(
    readonly p: P,
    env?: CcEnvironment,
  ) {
    this.pacingGain = p.highGain!;
    this.cwndGain = p.highGain!;
    this.bwFilter = new WindowedFilter('max', p.bwWindowRounds!, 0);
    this.random = rngStream(env?.seed ?? 0, `bbr:${env?.flow ?? 0}`);
    this.longTerm = new BbrLongTermSampler({
      ltIntervalMinRounds: p.ltIntervalMinRounds!,
      ltLossThresh: p.ltLossThresh!,
      ltBwRatio: p.ltBwRatio!,
      ltBwDiffBps: p.ltBwDiffBps!,
      ltBwMaxRounds: p.ltBwMaxRounds!,
      pacingMarginPercent: p.pacingMarginPercent!,
    });
    this.ackAggregation = new BbrAckAggregation(p.extraAckedWindowRounds!);
    // Declared `= -0`, held as doubles from the start, +0 from here (src/tcp/rate-sampler.ts says why).
    this.minRttStampS = this.nextRoundDeliveredBytes = this.fullBwBps = this.cycleStampS = 0;
    this.bwNowBytesPerS = this.ackAggregationCwndBytes = 0;
  }

  /** A policer was found and its rate is in use (Linux lt_use_bw). */
  get ltUseBw(): boolean {
    return this.longTerm.useBw;
  }

  /** The long-term (policed) rate, bytes/s (Linux lt_bw). */
  get ltBwBytesPerS(): number {
    return this.longTerm.bwBytesPerS;
  }

  /** Windowed max bandwidth, bytes/s (bbr_max_bw). */
  get maxBwBytesPerS(): number {
    return this.bwFilter.best;
  }

  /** The bandwidth BBR uses: the policed long-term rate when it found one, else the max (bbr_bw). */
  get bwBytesPerS(): number {
    return this.longTerm.useBw ? this.longTerm.bwBytesPerS : this.bwFilter.best;
  }

  /** bbr_init: ssthresh infinite, min RTT from the connection, the first pacing rate from cwnd / 1 ms. */
  init(tcb: TcpState, nowS: number): void {
    tcb.ssthreshBytes = Infinity;
    this.minRttS = tcb.minRttS;
    this.minRttStampS = nowS;
    this.ackAggregation.start(nowS);
    this.enterStartup();
    this.initPacingRate(tcb);
  }

  enterStartup(): void {
    this.mode = 'startup';
    this.updateGains();
  }

  enterDrain(): void {
    this.mode = 'drain';
    this.updateGains();
  }

  /** bbr_reset_probe_bw_mode: a random phase other than the 0.75 one (Linux), then the next. */
  enterProbeBw(nowS = 0): void {
    this.mode = 'probe_bw';
    this.cycleIndex = BBR_CYCLE_LEN - 1 - Math.floor(this.random() * this.p.cycleRand!);
    this.advanceCyclePhase(nowS);
    this.updateGains();
  }

  enterProbeRtt(): void {
    this.mode = 'probe_rtt';
    this.updateGains();
  }

  /** bbr_update_gains. */
  private updateGains(): void {
    const p = this.p;
    switch (this.mode) {
      case 'startup':
        this.pacingGain = p.highGain!;
        this.cwndGain = p.highGain!;
        break;
      case 'drain':
        this.pacingGain = p.drainGain!;
        this.cwndGain = p.highGain!;
        break;
      case 'probe_bw':
        this.pacingGain = this.longTerm.useBw ? 1 : this.cycleGain(this.cycleIndex);
        this.cwndGain = p.cwndGain!;
        break;
      case 'probe_rtt':
        this.pacingGain = 1;
        this.cwndGain = 1;
        break;
    }
  }

  /** Linux bbr_pacing_gain[]: 1.25, 0.75, then six phases of 1. */
  cycleGain(index: number): number {
    if (index === 0) return this.p.probeUpGain!;
    if (index === 1) return this.p.probeDownGain!;
    return 1;
  }

  /** bbr_ssthresh: a loss event; save cwnd for the restore, ssthresh unchanged. */
  ssthresh(tcb: TcpState, _kind: LossKind, _nowS: number): number {
    this.saveCwnd(tcb);
    return tcb.ssthreshBytes;
  }

  increaseWindow(): void {
    // Never called: congControl sets cwnd (the sender skips increaseWindow for rate-based control).
  }

  /** bbr_set_state: an RTO ends the round and restarts full-pipe detection. */
  onStateChange(tcb: TcpState, state: CaState, _nowS: number): void {
    if (state !== 'loss') return;
    this.prevCaState = 'loss';
    this.fullBwBps = 0;
    this.roundStart = true;
    // Linux feeds the long-term sampler a sample of one loss (struct rate_sample rs = { .losses = 1 }).
    if (this.p.longTermSampling === 1 && this.conn !== null) this.ltBwSampling(RTO_LOSS_SAMPLE, this.conn);
  }

  /** bbr_main. */
  congControl(tcb: TcpState, rs: RateSample, conn: RateConnection): void {
    this.conn = conn;
    this.updateBw(rs, conn);
    // Nothing below changes the filter or the long-term state (only updateBw and an RTO's ltBwSampling do).
    this.bwNowBytesPerS = this.longTerm.useBw ? this.longTerm.bwBytesPerS : this.bwFilter.best;
    this.updateAckAggregation(tcb, rs, conn);
    if (this.mode === 'probe_bw' && this.isNextCyclePhase(tcb, rs, conn)) this.advanceCyclePhase(conn.deliveredTimeS);
    this.checkFullBwReached(rs);
    this.checkDrain(tcb, conn);
    updateMinRtt(this, tcb, rs, conn);
    this.updateGains();
    this.setPacingRate(tcb, this.bwNowBytesPerS, this.pacingGain);
    setCwnd(this, tcb, rs, conn);
  }

  private initPacingRate(tcb: TcpState): void {
    let rttS = 0.001; // Linux: nominal 1 ms before any RTT sample
    if (tcb.srttS > 0) {
      rttS = tcb.srttS;
      this.hasSeenRtt = true;
    }
    tcb.pacingRateBps = this.pacingRateBps(tcb.cwndBytes / rttS, this.p.highGain!);
  }

  /** bbr_bw_to_pacing_rate: bits/s, the margin below the estimate. */
  private pacingRateBps(bwBytesPerS: number, gain: number): number {
    return bwBytesPerS * 8 * gain * (1 - this.p.pacingMarginPercent! / 100);
  }

  /**
   * bbr_set_pacing_rate: never slower than now until the pipe is full. A bandwidth estimate of 0 (every
   * sample of the window delivered nothing: a loss episode without SACK) leaves the rate in force, as
   * bbr3 does: a rate of 0 would never send again.
   */
  private setPacingRate(tcb: TcpState, bw: number, gain: number): void {
    const rate = this.pacingRateBps(bw, gain);
    if (!this.hasSeenRtt && tcb.srttS > 0) this.initPacingRate(tcb);
    if (rate <= 0) return;
    if (this.fullBwReached || rate > tcb.pacingRateBps) tcb.pacingRateBps = rate;
  }

  /** bbr_update_bw: rounds and the max-bandwidth filter. */
  private updateBw(rs: RateSample, conn: RateConnection): void {
    this.roundStart = false;
    if (rs.deliveredBytes < 0 || rs.intervalS <= 0) return;
    if (rs.priorDeliveredBytes >= this.nextRoundDeliveredBytes) {
      this.nextRoundDeliveredBytes = conn.deliveredBytes;
      this.roundCount++;
      this.roundStart = true;
      this.packetConservation = false;
    }
    if (this.p.longTermSampling === 1) this.ltBwSampling(rs, conn);
    const bw = rs.deliveredBytes / rs.intervalS;
    // App-limited samples only when they show at least the current estimate.
    if (!rs.isAppLimited || bw >= this.bwFilter.best) this.bwFilter.update(this.roundCount, bw);
  }

  /** bbr_update_ack_aggregation: the most data ACKed beyond bw x time in an epoch, over 5-10 rounds. */
  private updateAckAggregation(tcb: TcpState, rs: RateSample, conn: RateConnection): void {
    const p = this.p;
    if (p.extraAckedGain === 0 || rs.ackedSackedBytes <= 0 || rs.deliveredBytes < 0 || rs.intervalS <= 0) return;
    this.ackAggregation.update(this.roundStart, this.bwNowBytesPerS, rs.ackedSackedBytes, conn.deliveredTimeS, tcb.mssBytes, tcb.cwndBytes);
  }

  /** bbr_ack_aggregation_cwnd, into {@link ackAggregationCwndBytes} (a double returned from a call V8 does not
   * inline is a new heap number). Reads bwNowBytesPerS: call it from congControl only. */
  updateAckAggregationCwnd(): void {
    const p = this.p;
    const on = p.extraAckedGain !== 0 && this.fullBwReached;
    this.ackAggregationCwndBytes = on ? Math.min(p.extraAckedGain! * this.ackAggregation.extraAckedMaxBytes, this.bwNowBytesPerS * p.extraAckedMaxS!) : 0;
  }

  /** bbr_is_next_cycle_phase. */
  private isNextCyclePhase(tcb: TcpState, rs: RateSample, conn: RateConnection): boolean {
    const fullLength = conn.deliveredTimeS - this.cycleStampS > this.minRttS;
    if (this.pacingGain === 1) return fullLength;
    const bw = this.bwFilter.best;
    if (this.pacingGain > 1) {
      const inflight = rs.priorInFlightBytes + tsoSegs(this, tcb) * tcb.mssBytes;
      return fullLength && (rs.lostBytes > 0 || inflight >= inflightBytes(this, tcb, bw, this.pacingGain));
    }
    return fullLength || rs.priorInFlightBytes <= inflightBytes(this, tcb, bw, 1);
  }

  private advanceCyclePhase(deliveredTimeS: number): void {
    this.cycleIndex = (this.cycleIndex + 1) % BBR_CYCLE_LEN;
    this.cycleStampS = deliveredTimeS;
  }

  /** bbr_check_full_bw_reached: 3 non-app-limited rounds without 25% growth. */
  private checkFullBwReached(rs: RateSample): void {
    if (this.fullBwReached || !this.roundStart || rs.isAppLimited) return;
    const maxBw = this.bwFilter.best;
    if (maxBw >= this.fullBwBps * this.p.fullBwThresh!) {
      this.fullBwBps = maxBw;
      this.fullBwCount = 0;
      return;
    }
    this.fullBwCount++;
    this.fullBwReached = this.fullBwCount >= this.p.fullBwRounds!;
  }

  /** bbr_check_drain. */
  private checkDrain(tcb: TcpState, conn: RateConnection): void {
    if (this.mode === 'startup' && this.fullBwReached) {
      this.enterDrain();
      tcb.ssthreshBytes = inflightBytes(this, tcb, this.bwFilter.best, 1);
    }
    if (this.mode === 'drain' && tcb.bytesInFlight <= inflightBytes(this, tcb, this.bwFilter.best, 1)) this.enterProbeBw(conn.deliveredTimeS);
  }

  /** bbr_save_cwnd: the last good cwnd, for after recovery or PROBE_RTT. */
  saveCwnd(tcb: TcpState): void {
    if (!inRecoveryOrLoss(this.prevCaState) && this.mode !== 'probe_rtt') this.priorCwndBytes = tcb.cwndBytes;
    else this.priorCwndBytes = Math.max(this.priorCwndBytes, tcb.cwndBytes);
  }

  /** bbr_lt_bw_sampling (src/cc/bbr-long-term.ts), and what its outcome does to the state machine. */
  private ltBwSampling(rs: RateSample, conn: RateConnection): void {
    const outcome = this.longTerm.sample(rs, conn, this.roundStart, this.mode === 'probe_bw');
    if (outcome === LT_POLICER_FOUND) this.pacingGain = 1;
    else if (outcome === LT_EXPIRED) this.enterProbeBw(conn.deliveredTimeS);
  }
}

export const bbr: CongestionControlFactory = {
  id: 'bbr',
  title: 'BBR (v1)',
  params: BBR_PARAMS,
  create: (params, env) => new Bbr(sharedParams(BBR_PARAMS, params), env),
};
