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
import type { CaState, CcEnvironment, CongestionControl, CongestionControlFactory, LossKind, ParamSpec, RateConnection, RateSample, TcpState } from './types.js';
import { WindowedFilter } from './windowedFilter.js';

export type BbrMode = 'startup' | 'drain' | 'probe_bw' | 'probe_rtt';

/** Phases of the PROBE_BW gain cycle (Linux CYCLE_LEN). */
export const BBR_CYCLE_LEN = 8;
/** Linux TCP_INIT_CWND: cwnd cap before any RTT sample, and slow start below it. */
const INIT_CWND_SEGMENTS = 10;
/** Linux sk_pacing_shift: TSO autosizing aims at 1/2^10 s (~1 ms) of data per burst. */
const PACING_SHIFT = 10;
/** GSO_MAX_SIZE - 1 - MAX_TCP_HEADER (x86-64): the largest TSO burst, bytes. */
const GSO_MAX_BYTES = 65536 - 1 - 320;
/** bbr_min_tso_rate: below 1.2 Mbit/s one-segment bursts. */
const MIN_TSO_RATE_BPS = 1.2e6;
/** Linux bbr_ack_epoch_acked_reset_thresh, in segments. */
const ACK_EPOCH_RESET_SEGMENTS = 1 << 20;

const CA_ORDER: Readonly<Record<CaState, number>> = { open: 0, disorder: 1, cwr: 2, recovery: 3, loss: 4 };

export const BBR_PARAMS: readonly ParamSpec[] = [
  { name: 'highGain', doc: 'STARTUP pacing and cwnd gain, 2/ln 2 (Linux 739/256 in fixed point, ns-3 HighGain 2.89)', unit: 'ratio', default: 2 / Math.LN2, min: 1.01, max: 10 },
  { name: 'drainGain', doc: 'DRAIN pacing gain, 1/high gain (Linux bbr_drain_gain)', unit: 'ratio', default: Math.LN2 / 2, min: 0.01, max: 1 },
  { name: 'cwndGain', doc: 'PROBE_BW cwnd gain (Linux bbr_cwnd_gain)', unit: 'ratio', default: 2, min: 0.1, max: 10 },
  { name: 'probeUpGain', doc: 'PROBE_BW phase 0 pacing gain, probing for more bandwidth (Linux bbr_pacing_gain[0])', unit: 'ratio', default: 1.25, min: 1, max: 4 },
  { name: 'probeDownGain', doc: 'PROBE_BW phase 1 pacing gain, draining the probe\'s queue (Linux bbr_pacing_gain[1])', unit: 'ratio', default: 0.75, min: 0.01, max: 1 },
  { name: 'cycleRand', doc: 'PROBE_BW starts at phase 8 - 1 - U{0..cycleRand-1} + 1: Linux 7 (never the 0.75 phase), ns-3 6', unit: 'count', default: 7, min: 1, max: 7 },
  { name: 'bwWindowRounds', doc: 'Max-bandwidth filter window, packet-timed rounds (Linux bbr_bw_rtts = CYCLE_LEN + 2)', unit: 'count', default: 10, min: 1, max: 1000 },
  { name: 'minRttWindowS', doc: 'Min-RTT filter window; PROBE_RTT when the estimate is this old (Linux bbr_min_rtt_win_sec)', unit: 's', default: 10, min: 0.01, max: 3600 },
  { name: 'probeRttS', doc: 'Least time at the minimum cwnd in PROBE_RTT (Linux bbr_probe_rtt_mode_ms); 0: never PROBE_RTT', unit: 's', default: 0.2, min: 0, max: 10 },
  { name: 'minCwndSegments', doc: 'Smallest cwnd, and PROBE_RTT\'s cwnd (Linux bbr_cwnd_min_target)', unit: 'segments', default: 4, min: 1, max: 100 },
  { name: 'fullBwThresh', doc: 'Full-pipe rule: growth of the max bw that counts as still growing (Linux bbr_full_bw_thresh)', unit: 'ratio', default: 1.25, min: 1.001, max: 4 },
  { name: 'fullBwRounds', doc: 'Full-pipe rule: rounds without that growth before STARTUP ends (Linux bbr_full_bw_cnt)', unit: 'count', default: 3, min: 1, max: 100 },
  { name: 'pacingMarginPercent', doc: 'Pace this much below the estimated bandwidth (Linux bbr_pacing_margin_percent)', unit: '%', default: 1, min: 0, max: 50 },
  { name: 'extraAckedGain', doc: 'Gain on the ACK-aggregation allowance added to cwnd (Linux bbr_extra_acked_gain); 0: none', unit: 'ratio', default: 1, min: 0, max: 10 },
  { name: 'extraAckedWindowRounds', doc: 'ACK-aggregation filter window, rounds (Linux bbr_extra_acked_win_rtts)', unit: 'count', default: 5, min: 1, max: 31 },
  { name: 'extraAckedMaxS', doc: 'ACK-aggregation allowance at most bw x this (Linux bbr_extra_acked_max_us)', unit: 's', default: 0.1, min: 0, max: 10 },
  { name: 'longTermSampling', doc: 'Long-term (policer) bandwidth sampling (Linux bbr_lt_bw_sampling): 1 on, 0 off (ns-3 TcpBbr has none)', unit: 'flag', default: 1, min: 0, max: 1 },
  { name: 'ltIntervalMinRounds', doc: 'Long-term sampling: shortest interval, rounds (Linux bbr_lt_intvl_min_rtts)', unit: 'count', default: 4, min: 1, max: 100 },
  { name: 'ltLossThresh', doc: 'Long-term sampling: lost/delivered above which an interval is lossy (Linux bbr_lt_loss_thresh 50/256)', unit: 'ratio', default: 50 / 256, min: 0.001, max: 1 },
  { name: 'ltBwRatio', doc: 'Long-term sampling: two intervals\' bw within this ratio are consistent (Linux bbr_lt_bw_ratio 1/8)', unit: 'ratio', default: 1 / 8, min: 0, max: 1 },
  { name: 'ltBwDiffBps', doc: 'Long-term sampling: ...or within this difference (Linux bbr_lt_bw_diff, 4 kbit/s)', unit: 'bit/s', default: 4000, min: 0, max: 1e9 },
  { name: 'ltBwMaxRounds', doc: 'Long-term sampling: rounds the policed rate is used before probing again (Linux bbr_lt_bw_max_rtts)', unit: 'count', default: 48, min: 1, max: 1000 },
  { name: 'ns3SendQuantum', doc: 'Send quantum in the cwnd budget: 0 = Linux (3 TSO bursts of ~1 ms at the pacing rate, 2..127 segments), 1 = ns-3 (3 segments)', unit: 'flag', default: 0, min: 0, max: 1 },
];

type P = Readonly<Record<string, number>>;

/** What bbr_set_state hands the long-term sampler at an RTO: one loss, nothing else. */
const RTO_LOSS_SAMPLE: RateSample = {
  deliveredBytes: 0,
  intervalS: 0,
  deliveryRateBps: 0,
  sendIntervalS: 0,
  ackIntervalS: 0,
  rttS: -1,
  isAppLimited: false,
  isRetrans: false,
  lostBytes: 1,
  ackedSackedBytes: 0,
  priorInFlightBytes: 0,
  priorDeliveredBytes: 0,
  txInFlightBytes: 0,
  lostSinceTxBytes: 0,
};

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
  minRttStampS = 0;
  /** End of PROBE_RTT's minimum-cwnd time, s; -1 while not set. */
  probeRttDoneS = -1;
  probeRttRoundDone = false;
  /** Packet-timed rounds so far (Linux rtt_cnt). */
  roundCount = 0;
  roundStart = false;
  private nextRoundDeliveredBytes = 0;
  packetConservation = false;
  private prevCaState: CaState = 'open';
  priorCwndBytes = 0;
  fullBwReached = false;
  private fullBwBps = 0;
  private fullBwCount = 0;
  cycleIndex = 0;
  private cycleStampS = 0;
  private hasSeenRtt = false;
  // Long-term (policer) sampling (Linux lt_*).
  ltUseBw = false;
  ltBwBytesPerS = 0;
  private ltIsSampling = false;
  private ltRoundCount = 0;
  private ltLastDeliveredBytes = 0;
  private ltLastStampS = 0;
  private ltLastLostBytes = 0;
  // ACK aggregation (Linux ack_epoch_*, extra_acked[]).
  private ackEpochStampS = 0;
  private ackEpochAckedBytes = 0;
  private readonly extraAckedBytes = [0, 0];
  private extraAckedWinRounds = 0;
  private extraAckedIdx = 0;
  private readonly random: Uniform;
  /** The connection's delivery state (the sender's sampler; the same object on every call). */
  private conn: RateConnection | null = null;

  constructor(
    private readonly p: P,
    env?: CcEnvironment,
  ) {
    this.pacingGain = p.highGain!;
    this.cwndGain = p.highGain!;
    this.bwFilter = new WindowedFilter('max', p.bwWindowRounds!, 0);
    this.random = rngStream(env?.seed ?? 0, `bbr:${env?.flow ?? 0}`);
  }

  /** Windowed max bandwidth, bytes/s (bbr_max_bw). */
  get maxBwBytesPerS(): number {
    return this.bwFilter.best;
  }

  /** The bandwidth BBR uses: the policed long-term rate when it found one, else the max (bbr_bw). */
  get bwBytesPerS(): number {
    return this.ltUseBw ? this.ltBwBytesPerS : this.bwFilter.best;
  }

  /** bbr_init: ssthresh infinite, min RTT from the connection, the first pacing rate from cwnd / 1 ms. */
  init(tcb: TcpState, nowS: number): void {
    tcb.ssthreshBytes = Infinity;
    this.minRttS = tcb.minRttS;
    this.minRttStampS = nowS;
    this.ackEpochStampS = nowS;
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
        this.pacingGain = this.ltUseBw ? 1 : this.cycleGain(this.cycleIndex);
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
  congControl(tcb: TcpState, rs: RateSample, conn: RateConnection, nowS: number): void {
    this.conn = conn;
    this.updateBw(rs, conn);
    this.updateAckAggregation(tcb, rs, conn);
    if (this.mode === 'probe_bw' && this.isNextCyclePhase(tcb, rs, conn)) this.advanceCyclePhase(conn.deliveredTimeS);
    this.checkFullBwReached(rs);
    this.checkDrain(tcb, conn);
    this.updateMinRtt(tcb, rs, conn, nowS);
    this.updateGains();
    this.setPacingRate(tcb, this.bwBytesPerS, this.pacingGain);
    this.setCwnd(tcb, rs, conn);
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

  /** bbr_set_pacing_rate: never slower than now until the pipe is full. */
  private setPacingRate(tcb: TcpState, bw: number, gain: number): void {
    const rate = this.pacingRateBps(bw, gain);
    if (!this.hasSeenRtt && tcb.srttS > 0) this.initPacingRate(tcb);
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
    if (this.roundStart) {
      this.extraAckedWinRounds = Math.min(31, this.extraAckedWinRounds + 1);
      if (this.extraAckedWinRounds >= p.extraAckedWindowRounds!) {
        this.extraAckedWinRounds = 0;
        this.extraAckedIdx = 1 - this.extraAckedIdx;
        this.extraAckedBytes[this.extraAckedIdx] = 0;
      }
    }
    let expected = this.bwBytesPerS * (conn.deliveredTimeS - this.ackEpochStampS);
    const resetBytes = ACK_EPOCH_RESET_SEGMENTS * tcb.mssBytes;
    if (this.ackEpochAckedBytes <= expected || this.ackEpochAckedBytes + rs.ackedSackedBytes >= resetBytes) {
      this.ackEpochAckedBytes = 0;
      this.ackEpochStampS = conn.deliveredTimeS;
      expected = 0;
    }
    this.ackEpochAckedBytes = Math.min(resetBytes, this.ackEpochAckedBytes + rs.ackedSackedBytes);
    const extra = Math.min(this.ackEpochAckedBytes - expected, tcb.cwndBytes);
    if (extra > this.extraAckedBytes[this.extraAckedIdx]!) this.extraAckedBytes[this.extraAckedIdx] = extra;
  }

  /** bbr_ack_aggregation_cwnd. */
  private ackAggregationCwnd(): number {
    const p = this.p;
    if (p.extraAckedGain === 0 || !this.fullBwReached) return 0;
    const most = this.bwBytesPerS * p.extraAckedMaxS!;
    return Math.min(p.extraAckedGain! * Math.max(this.extraAckedBytes[0]!, this.extraAckedBytes[1]!), most);
  }

  /** bbr_is_next_cycle_phase. */
  private isNextCyclePhase(tcb: TcpState, rs: RateSample, conn: RateConnection): boolean {
    const fullLength = conn.deliveredTimeS - this.cycleStampS > this.minRttS;
    if (this.pacingGain === 1) return fullLength;
    const bw = this.bwFilter.best;
    if (this.pacingGain > 1) {
      const inflight = rs.priorInFlightBytes + this.tsoSegsGoal(tcb) * tcb.mssBytes;
      return fullLength && (rs.lostBytes > 0 || inflight >= this.inflightBytes(tcb, bw, this.pacingGain));
    }
    return fullLength || rs.priorInFlightBytes <= this.inflightBytes(tcb, bw, 1);
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
      tcb.ssthreshBytes = this.inflightBytes(tcb, this.bwFilter.best, 1);
    }
    if (this.mode === 'drain' && tcb.bytesInFlight <= this.inflightBytes(tcb, this.bwFilter.best, 1)) this.enterProbeBw(conn.deliveredTimeS);
  }

  /** bbr_update_min_rtt: the 10 s min filter and PROBE_RTT. */
  private updateMinRtt(tcb: TcpState, rs: RateSample, conn: RateConnection, nowS: number): void {
    const p = this.p;
    const expired = nowS > this.minRttStampS + p.minRttWindowS!;
    if (rs.rttS >= 0 && (rs.rttS <= this.minRttS || expired)) {
      this.minRttS = rs.rttS;
      this.minRttStampS = nowS;
    }
    if (p.probeRttS! > 0 && expired && this.mode !== 'probe_rtt') {
      this.enterProbeRtt();
      this.saveCwnd(tcb);
      this.probeRttDoneS = -1;
    }
    if (this.mode !== 'probe_rtt') return;
    // Samples while inflight is held down would drag the estimate: mark them app-limited.
    conn.appLimitedUntilBytes = conn.deliveredBytes + tcb.bytesInFlight || 1;
    if (this.probeRttDoneS < 0 && tcb.bytesInFlight <= p.minCwndSegments! * tcb.mssBytes) {
      this.probeRttDoneS = nowS + p.probeRttS!;
      this.probeRttRoundDone = false;
      this.nextRoundDeliveredBytes = conn.deliveredBytes;
    } else if (this.probeRttDoneS >= 0) {
      if (this.roundStart) this.probeRttRoundDone = true;
      if (this.probeRttRoundDone && nowS > this.probeRttDoneS) this.exitProbeRtt(tcb, nowS);
    }
  }

  /** bbr_check_probe_rtt_done: back to the mode the pipe calls for, cwnd restored. */
  private exitProbeRtt(tcb: TcpState, nowS: number): void {
    this.minRttStampS = nowS;
    tcb.cwndBytes = Math.max(tcb.cwndBytes, this.priorCwndBytes);
    if (this.fullBwReached) this.enterProbeBw(nowS);
    else this.enterStartup();
  }

  /** bbr_save_cwnd: the last good cwnd, for after recovery or PROBE_RTT. */
  private saveCwnd(tcb: TcpState): void {
    if (CA_ORDER[this.prevCaState] < CA_ORDER.recovery && this.mode !== 'probe_rtt') this.priorCwndBytes = tcb.cwndBytes;
    else this.priorCwndBytes = Math.max(this.priorCwndBytes, tcb.cwndBytes);
  }

  /** bbr_set_cwnd. */
  private setCwnd(tcb: TcpState, rs: RateSample, conn: RateConnection): void {
    const mss = tcb.mssBytes;
    const acked = rs.ackedSackedBytes;
    let cwnd = tcb.cwndBytes;
    if (acked > 0) {
      const conserving = this.recoverOrRestore(tcb, rs, conn);
      cwnd = this.recoveryCwndBytes;
      if (!conserving) {
        let target = this.bdpBytes(tcb, this.bwBytesPerS, this.cwndGain) + this.ackAggregationCwnd();
        target = this.quantizationBudget(tcb, target);
        if (this.fullBwReached) cwnd = Math.min(cwnd + acked, target);
        else if (cwnd < target || conn.deliveredBytes < INIT_CWND_SEGMENTS * mss) cwnd += acked;
        cwnd = Math.max(cwnd, this.p.minCwndSegments! * mss);
      }
    }
    if (this.mode === 'probe_rtt') cwnd = Math.min(cwnd, this.p.minCwndSegments! * mss);
    tcb.cwndBytes = cwnd;
  }

  /** What recoverOrRestore sets cwnd to (a field, not a returned object: no allocation per ACK). */
  private recoveryCwndBytes = 0;

  /**
   * bbr_set_cwnd_to_recover_or_restore: packet conservation in the first recovery round, restore
   * after. Leaves the cwnd in recoveryCwndBytes; returns true while conserving packets.
   */
  private recoverOrRestore(tcb: TcpState, rs: RateSample, conn: RateConnection): boolean {
    const state = tcb.caState;
    const prev = this.prevCaState;
    const acked = rs.ackedSackedBytes;
    let cwnd = tcb.cwndBytes;
    if (rs.lostBytes > 0) cwnd = Math.max(cwnd - rs.lostBytes, tcb.mssBytes);
    if (state === 'recovery' && prev !== 'recovery') {
      this.packetConservation = true;
      this.nextRoundDeliveredBytes = conn.deliveredBytes; // the round starts now
      cwnd = tcb.bytesInFlight + acked;
    } else if (CA_ORDER[prev] >= CA_ORDER.recovery && CA_ORDER[state] < CA_ORDER.recovery) {
      cwnd = Math.max(cwnd, this.priorCwndBytes);
      this.packetConservation = false;
    }
    this.prevCaState = state;
    this.recoveryCwndBytes = this.packetConservation ? Math.max(cwnd, tcb.bytesInFlight + acked) : cwnd;
    return this.packetConservation;
  }

  /** bbr_bdp: ceil(bw x min RTT x gain) in whole segments; 10 segments before any RTT sample. */
  bdpBytes(tcb: TcpState, bwBytesPerS: number, gain: number): number {
    if (this.minRttS === Infinity) return INIT_CWND_SEGMENTS * tcb.mssBytes;
    return Math.ceil((bwBytesPerS * this.minRttS * gain) / tcb.mssBytes) * tcb.mssBytes;
  }

  /** bbr_inflight: BDP x gain plus the quantisation budget. */
  inflightBytes(tcb: TcpState, bwBytesPerS: number, gain: number): number {
    return this.quantizationBudget(tcb, this.bdpBytes(tcb, bwBytesPerS, gain));
  }

  /** bbr_quantization_budget: 3 send bursts, rounded up to an even segment count, +2 in the 1.25 phase. */
  private quantizationBudget(tcb: TcpState, cwndBytes: number): number {
    const mss = tcb.mssBytes;
    let segs = Math.ceil(cwndBytes / mss) + 3 * this.tsoSegsGoal(tcb);
    segs = (segs + 1) & ~1;
    if (this.mode === 'probe_bw' && this.cycleIndex === 0) segs += 2;
    return segs * mss;
  }

  /** bbr_tso_segs_goal: segments per send burst (ns-3's send quantum: 1). */
  private tsoSegsGoal(tcb: TcpState): number {
    if (this.p.ns3SendQuantum === 1) return 1;
    const rateBytesPerS = tcb.pacingRateBps / 8;
    const minSegs = rateBytesPerS < MIN_TSO_RATE_BPS / 8 ? 1 : 2;
    const bytes = Math.min(rateBytesPerS / 2 ** PACING_SHIFT, GSO_MAX_BYTES);
    return Math.min(Math.max(Math.floor(bytes / tcb.mssBytes), minSegs), 0x7f);
  }

  /** bbr_lt_bw_sampling: two lossy intervals at a consistent rate mean a policer; use its rate. */
  private ltBwSampling(rs: RateSample, conn: RateConnection): void {
    if (this.ltUseBw) {
      if (this.mode === 'probe_bw' && this.roundStart && ++this.ltRoundCount >= this.p.ltBwMaxRounds!) {
        this.resetLtSampling(conn);
        this.enterProbeBw(conn.deliveredTimeS);
      }
      return;
    }
    if (!this.ltIsSampling) {
      if (rs.lostBytes <= 0) return;
      this.resetLtInterval(conn);
      this.ltIsSampling = true;
    }
    if (rs.isAppLimited) {
      this.resetLtSampling(conn);
      return;
    }
    if (this.roundStart) this.ltRoundCount++;
    const minRounds = this.p.ltIntervalMinRounds!;
    if (this.ltRoundCount < minRounds) return;
    if (this.ltRoundCount > 4 * minRounds) {
      this.resetLtSampling(conn);
      return;
    }
    if (rs.lostBytes <= 0) return;
    const lost = conn.lostBytes - this.ltLastLostBytes;
    const delivered = conn.deliveredBytes - this.ltLastDeliveredBytes;
    if (delivered <= 0 || lost < this.p.ltLossThresh! * delivered) return;
    const t = conn.deliveredTimeS - this.ltLastStampS;
    if (t < 0.001) return; // Linux: an interval under 1 ms waits
    this.ltIntervalDone(delivered / t, conn);
  }

  private ltIntervalDone(bw: number, conn: RateConnection): void {
    const p = this.p;
    if (this.ltBwBytesPerS > 0) {
      const diff = Math.abs(bw - this.ltBwBytesPerS);
      const diffRateBps = diff * 8 * (1 - p.pacingMarginPercent! / 100);
      if (diff <= p.ltBwRatio! * this.ltBwBytesPerS || diffRateBps <= p.ltBwDiffBps!) {
        this.ltBwBytesPerS = (bw + this.ltBwBytesPerS) / 2;
        this.ltUseBw = true;
        this.pacingGain = 1;
        this.ltRoundCount = 0;
        return;
      }
    }
    this.ltBwBytesPerS = bw;
    this.resetLtInterval(conn);
  }

  private resetLtInterval(conn: RateConnection): void {
    this.ltLastStampS = conn.deliveredTimeS;
    this.ltLastDeliveredBytes = conn.deliveredBytes;
    this.ltLastLostBytes = conn.lostBytes;
    this.ltRoundCount = 0;
  }

  private resetLtSampling(conn: RateConnection): void {
    this.ltBwBytesPerS = 0;
    this.ltUseBw = false;
    this.ltIsSampling = false;
    this.resetLtInterval(conn);
  }
}

export const bbr: CongestionControlFactory = {
  id: 'bbr',
  title: 'BBR (v1)',
  params: BBR_PARAMS,
  create: (params, env) => new Bbr(params, env),
};
