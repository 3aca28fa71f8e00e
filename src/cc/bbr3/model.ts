/**
 * BBRv3, the algorithm without the sender: the draft's per-event steps in the draft's order
 * (draft-ietf-ccwg-bbr-06 5.2 "Algorithm Organization": OnInit, UpdateOnACK, HandleLostPacket,
 * OnTransmit, the recovery events, HandleSpuriousLossDetection). It reads a rate sample per ACK and
 * writes cwnd and the pacing rate; src/cc/bbr3.ts binds it to the packet engine's sender, and the
 * bare tests drive it directly.
 */
import type { Bbr3Ctx, WindowedMax } from './context.js';
import { initPacingRate, onEnterFastRecovery, onEnterRto, onExitRecovery, setCwnd, setPacingRateWithGain, setSendQuantum } from './control.js';
import { checkFullBwReached, resetFullBw } from './full-pipe.js';
import { noteLoss, restoreCwnd } from './loss.js';
import type { Bbr3Config } from './params.js';
import {
  advanceLatestDeliverySignals,
  boundBwForModel,
  resetCongestionSignals,
  resetShortTermModel,
  updateAckAggregation,
  updateCongestionSignals,
  updateLatestDeliverySignals,
} from './path-model.js';
import { handleLostPacket, startProbeBwRefill, updateProbeBwCyclePhase, type Moment } from './probe-bw.js';
import { checkProbeRtt, handleRestartFromIdle, updateMinRtt } from './probe-rtt.js';
import { checkDrainDone, checkStartupDone, enterStartup } from './startup.js';
import { Bbr3State, type Bbr3Ack, type Bbr3LostPacket } from './state.js';

export interface Bbr3Setup {
  mssBytes: number;
  initialCwndBytes: number;
  hasSelectiveAcks: boolean;
  lostPacketEvents: boolean;
  random: () => number;
  extraAckedFilter: WindowedMax;
}

export class Bbr3Model {
  readonly ctx: Bbr3Ctx;
  /** OnInit's clock-dependent part waits for the first event (the flow may start long after t = 0). */
  private started = false;

  constructor(cfg: Bbr3Config, setup: Bbr3Setup) {
    this.ctx = {
      s: new Bbr3State(),
      cfg,
      mssBytes: setup.mssBytes,
      initialCwndBytes: setup.initialCwndBytes,
      cwndBytes: setup.initialCwndBytes,
      hasSelectiveAcks: setup.hasSelectiveAcks,
      lostPacketEvents: setup.lostPacketEvents,
      random: setup.random,
      extraAckedFilter: setup.extraAckedFilter,
      inLossRecovery: false,
      markAppLimited: false,
      maxBwSlots: new Array<number>(Math.max(1, cfg.maxBwFilterCycles)).fill(0),
    };
    this.onInit(0);
  }

  get state(): Bbr3State {
    return this.ctx.s;
  }

  get cwndBytes(): number {
    return this.ctx.cwndBytes;
  }

  get pacingRateBytesPerS(): number {
    return this.ctx.s.pacingRateBytesPerS;
  }

  /** Draft OnInit(). The timestamps (min_rtt, ProbeRTT, aggregation epoch) are set again at the flow's first event. */
  private onInit(nowS: number): void {
    const ctx = this.ctx;
    const s = ctx.s;
    ctx.extraAckedFilter.reset(0, 0);
    s.minRttStampS = nowS;
    s.probeRttMinStampS = nowS;
    s.extraAckedIntervalStartS = nowS;
    resetCongestionSignals(ctx);
    resetShortTermModel(ctx);
    resetFullBw(ctx);
    initPacingRate(ctx, 0);
    setSendQuantum(ctx);
    enterStartup(ctx);
  }

  /** The flow's clock starts (its first send): min_rtt, ProbeRTT and aggregation stamps count from here. */
  start(nowS: number): void {
    if (this.started) return;
    this.started = true;
    const s = this.ctx.s;
    s.minRttStampS = nowS;
    s.probeRttMinStampS = nowS;
    s.extraAckedIntervalStartS = nowS;
  }

  /** Draft UpdateOnACK() (the rate sample comes made); `srttS` seeds the pacing rate once. */
  onAck(rs: Bbr3Ack, srttS: number): void {
    this.start(rs.nowS);
    const ctx = this.ctx;
    const s = ctx.s;
    if (!s.hasSeenRtt && srttS > 0) {
      s.hasSeenRtt = true;
      initPacingRate(ctx, srttS);
    }
    // v3 bbr_update_congestion_signals: loss_in_round |= rs->losses, whatever per-packet events said.
    if (rs.newlyLostBytes > 0) noteLoss(ctx, rs.cDeliveredBytes);
    this.updateModelAndState(rs);
    setPacingRateWithGain(ctx, s.pacingGain);
    setSendQuantum(ctx);
    setCwnd(ctx, rs.newlyAckedBytes, rs.cDeliveredBytes);
  }

  /** Draft UpdateModelAndState(). */
  private updateModelAndState(rs: Bbr3Ack): void {
    const ctx = this.ctx;
    updateLatestDeliverySignals(ctx, rs);
    updateCongestionSignals(ctx, rs);
    updateAckAggregation(ctx, rs);
    checkFullBwReached(ctx, rs);
    checkStartupDone(ctx, rs);
    checkDrainDone(ctx, rs);
    updateProbeBwCyclePhase(ctx, rs);
    updateMinRtt(ctx, rs);
    checkProbeRtt(ctx, rs);
    advanceLatestDeliverySignals(ctx, rs);
    boundBwForModel(ctx);
  }

  /** Draft HandleLostPacket(P), for each packet the sender marks lost (before the ACK that revealed it). */
  onLostPacket(p: Bbr3LostPacket, at: Moment): void {
    this.start(at.nowS);
    handleLostPacket(this.ctx, p, at);
  }

  /** Draft OnTransmit(): HandleRestartFromIdle() before a send with nothing in flight. */
  onTransmit(at: Moment, inflightBytes: number, appLimited: boolean): void {
    this.start(at.nowS);
    handleRestartFromIdle(this.ctx, at, inflightBytes, appLimited);
  }

  /** The sender entered fast recovery (inLossRecovery: it was already in loss recovery). */
  onEnterFastRecovery(): void {
    onEnterFastRecovery(this.ctx);
  }

  /** The retransmission timer expired; `inflightBytes` is what the sender still counts in flight. */
  onEnterRto(inflightBytes: number): void {
    onEnterRto(this.ctx, inflightBytes);
  }

  /** The sender left loss recovery having repaired every loss. */
  onExitRecovery(): void {
    onExitRecovery(this.ctx);
  }

  /**
   * Draft HandleSpuriousLossDetection(): the recovery episode was spurious. Restores cwnd and the
   * bounds saved at its start, and re-enters STARTUP or re-starts the ProbeBW_UP probe it cut short.
   * (The packet engine detects no spurious recovery yet: no DSACK, no reordering; bare tests call it.)
   */
  onSpuriousRecovery(at: Moment): void {
    const ctx = this.ctx;
    const s = ctx.s;
    ctx.inLossRecovery = false;
    restoreCwnd(ctx);
    s.isLossInRound = false;
    resetFullBw(ctx);
    s.bwShorttermBytesPerS = Math.max(s.bwShorttermBytesPerS, s.undoBwShorttermBytesPerS);
    s.inflightShorttermBytes = Math.max(s.inflightShorttermBytes, s.undoInflightShorttermBytes);
    s.inflightLongtermBytes = Math.max(s.inflightLongtermBytes, s.undoInflightLongtermBytes);
    if (s.undoState === 'startup' && s.mode !== 'startup') {
      s.fullBwReached = false;
      if (s.mode !== 'probe_rtt') enterStartup(ctx);
    } else if (s.undoState === 'probe_bw_up' && s.mode !== 'probe_bw_up') {
      if (s.mode !== 'probe_rtt') startProbeBwRefill(ctx, at);
    }
    s.undoState = null;
  }

  /** Reads and clears the request to mark the connection application-limited (ProbeRTT). */
  takeAppLimitedRequest(): boolean {
    const r = this.ctx.markAppLimited;
    this.ctx.markAppLimited = false;
    return r;
  }
}
