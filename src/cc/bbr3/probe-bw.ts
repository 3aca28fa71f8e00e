/**
 * ProbeBW: the DOWN -> CRUISE -> REFILL -> UP cycle and the long-term bound inflight_longterm
 * (draft-ietf-ccwg-bbr-06 4.3.3 and 5.5.9.2; Google v3 bbr_update_cycle_phase,
 * bbr_adapt_upper_bounds, bbr_handle_inflight_too_high, bbr_skb_marked_lost). Gains per phase, from
 * the draft's table in 5.6.1: DOWN 0.90 / 2, CRUISE 1 / 2, REFILL 1 / 2, UP 1.25 / 2.25.
 *
 * Draft choices kept: the phase decisions read C.inflight (v3 reads an estimate of the packets in
 * the network at the next departure time, which with pacing in the sender rather than an EDT qdisc is
 * the same thing); CRUISE does not clamp inflight_shortterm to inflight_longterm on entry (v3 does).
 */
import { segs, type Bbr3Ctx } from './context.js';
import { resetFullBw } from './full-pipe.js';
import { inflightAtLoss, isInflightTooHigh, noteLoss } from './loss.js';
import {
  advanceMaxBwFilter,
  inflight,
  inflightWithHeadroom,
  resetCongestionSignals,
  resetShortTermModel,
  startRound,
  targetInflight,
} from './path-model.js';
import { isInProbeBwState, type Bbr3Ack, type Bbr3LostPacket } from './state.js';

/** When a step happens: the clock and C.delivered (a round starts there). */
export interface Moment {
  nowS: number;
  cDeliveredBytes: number;
}

/** Draft EnterProbeBW(). */
export function enterProbeBw(ctx: Bbr3Ctx, at: Moment): void {
  ctx.s.cwndGain = ctx.cfg.defaultCwndGain;
  startProbeBwDown(ctx, at);
}

/** Draft StartProbeBW_DOWN(): a new cycle; the wall clock and the round count until the next probe start now. */
export function startProbeBwDown(ctx: Bbr3Ctx, at: Moment): void {
  const s = ctx.s;
  resetCongestionSignals(ctx);
  s.probeUpAckedPerIncBytes = Infinity;
  pickProbeWait(ctx);
  s.cycleStampS = at.nowS;
  s.ackPhase = 'probe_stopping';
  startRound(ctx, at.cDeliveredBytes);
  s.mode = 'probe_bw_down';
  s.pacingGain = ctx.cfg.probeDownPacingGain;
  s.cwndGain = ctx.cfg.defaultCwndGain;
}

/** Draft StartProbeBW_CRUISE(). */
export function startProbeBwCruise(ctx: Bbr3Ctx): void {
  ctx.s.mode = 'probe_bw_cruise';
  ctx.s.pacingGain = 1;
  ctx.s.cwndGain = ctx.cfg.defaultCwndGain;
}

/** Draft StartProbeBW_REFILL(): the short-term model is dropped and the pipe refilled for one round. */
export function startProbeBwRefill(ctx: Bbr3Ctx, at: Moment): void {
  const s = ctx.s;
  resetShortTermModel(ctx);
  s.bwProbeUpRounds = 0;
  s.bwProbeUpAckedBytes = 0;
  s.prevProbePrecautionary = false;
  s.ackPhase = 'refilling';
  startRound(ctx, at.cDeliveredBytes);
  s.mode = 'probe_bw_refill';
  s.pacingGain = 1;
  s.cwndGain = ctx.cfg.defaultCwndGain;
}

/** Draft StartProbeBW_UP(). */
export function startProbeBwUp(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  s.ackPhase = 'probe_starting';
  startRound(ctx, rs.cDeliveredBytes);
  resetFullBw(ctx);
  s.fullBwBytesPerS = rs.deliveryRateBytesPerS;
  s.mode = 'probe_bw_up';
  s.pacingGain = ctx.cfg.probeUpPacingGain;
  s.cwndGain = ctx.cfg.probeUpCwndGain;
  raiseInflightLongtermSlope(ctx);
}

/** Draft UpdateProbeBWCyclePhase(), on each ACK of new data. */
export function updateProbeBwCyclePhase(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  if (!s.fullBwReached) return;
  if (adaptLongTermModel(ctx, rs)) return;
  switch (s.mode) {
    case 'probe_bw_down':
      if (isTimeToProbeBw(ctx, rs)) return;
      if (isTimeToCruise(ctx, rs.inflightBytes)) startProbeBwCruise(ctx);
      return;
    case 'probe_bw_cruise':
      isTimeToProbeBw(ctx, rs);
      return;
    case 'probe_bw_refill':
      if (s.roundStart) {
        s.isBwProbeSample = true;
        startProbeBwUp(ctx, rs);
      }
      return;
    case 'probe_bw_up':
      if (isTimeToGoDown(ctx, rs)) {
        s.prevProbeTooHigh = false;
        startProbeBwDown(ctx, rs);
      }
      return;
    default:
      return;
  }
}

/** Draft IsTimeToProbeBW(): the random wall-clock wait or the Reno-coexistence round count has run out. */
export function isTimeToProbeBw(ctx: Bbr3Ctx, at: Moment): boolean {
  const s = ctx.s;
  if (at.nowS > s.cycleStampS + s.bwProbeWaitS || isRenoCoexistenceProbeTime(ctx)) {
    startProbeBwRefill(ctx, at);
    return true;
  }
  return false;
}

/**
 * Draft PickProbeWait(): rounds_since_probe_up starts at 0 or 1 (so the Reno bound is 62 or 63
 * rounds) and the wall-clock wait is probeWaitBaseS + U(0, probeWaitRandS) (2-3 s).
 */
export function pickProbeWait(ctx: Bbr3Ctx): void {
  ctx.s.roundsSinceProbeUp = Math.floor(ctx.random() * 2);
  ctx.s.bwProbeWaitS = ctx.cfg.probeWaitBaseS + ctx.random() * ctx.cfg.probeWaitRandS;
}

/**
 * Draft IsRenoCoexistenceProbeTime(): a Reno flow with this BDP would take about BDP rounds (in
 * segments) between losses; probe after min(that, probeMaxRounds) rounds. The draft writes
 * reno_rounds = TargetInflight(), a volume: counted here in segments, as v3 counts packets.
 */
export function isRenoCoexistenceProbeTime(ctx: Bbr3Ctx): boolean {
  const renoRounds = Math.floor(targetInflight(ctx) / ctx.mssBytes);
  return ctx.s.roundsSinceProbeUp >= Math.min(renoRounds, ctx.cfg.probeMaxRounds);
}

/** Draft IsTimeToCruise(): inflight is down to the headroom target and to the BDP of max_bw. */
export function isTimeToCruise(ctx: Bbr3Ctx, inflightBytes: number): boolean {
  if (inflightBytes > inflightWithHeadroom(ctx)) return false;
  return inflightBytes <= inflight(ctx, ctx.s.maxBwBytesPerS, 1);
}

/** Draft IsTimeToGoDown(): precautionary stop at inflight_longterm, or a bandwidth plateau not caused by inflight_longterm. */
export function isTimeToGoDown(ctx: Bbr3Ctx, rs: Bbr3Ack): boolean {
  const s = ctx.s;
  if (s.prevProbeTooHigh && rs.inflightBytes >= s.inflightLongtermBytes) {
    s.prevProbePrecautionary = true;
    return true;
  }
  if (rs.isCwndLimited && ctx.cwndBytes >= s.inflightLongtermBytes) {
    resetFullBw(ctx);
    s.fullBwBytesPerS = rs.deliveryRateBytesPerS;
  } else if (s.fullBwNow) {
    return true;
  }
  return false;
}

/** Draft RaiseInflightLongtermSlope(): inflight_longterm grows by 1, 2, 4, ... segments per round, spread over the round. */
export function raiseInflightLongtermSlope(ctx: Bbr3Ctx): void {
  const s = ctx.s;
  const growthThisRound = 2 ** s.bwProbeUpRounds;
  s.bwProbeUpRounds = Math.min(s.bwProbeUpRounds + 1, 30);
  s.probeUpAckedPerIncBytes = Math.max(ctx.cwndBytes / growthThisRound, ctx.mssBytes);
}

/** Draft ProbeInflightLongtermUpward(): while cwnd-limited at inflight_longterm, +1 SMSS per probe_up_acked_per_inc acknowledged. */
export function probeInflightLongtermUpward(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  if (!rs.isCwndLimited || ctx.cwndBytes < s.inflightLongtermBytes) return;
  s.bwProbeUpAckedBytes += rs.newlyAckedBytes;
  if (s.bwProbeUpAckedBytes >= s.probeUpAckedPerIncBytes) {
    const delta = Math.floor(s.bwProbeUpAckedBytes / s.probeUpAckedPerIncBytes);
    s.bwProbeUpAckedBytes -= delta * s.probeUpAckedPerIncBytes;
    s.inflightLongtermBytes += segs(ctx, delta);
  }
  if (s.roundStart) raiseInflightLongtermSlope(ctx);
}

/**
 * Draft AdaptLongTermModel(): tracks which ACKs carry bandwidth-probe feedback, advances the max_bw
 * filter once per cycle, restarts a precautionary probe that stayed safe, and raises
 * inflight_longterm when the loss rate is safe. Returns true when it decided a state transition.
 */
export function adaptLongTermModel(ctx: Bbr3Ctx, rs: Bbr3Ack): boolean {
  const s = ctx.s;
  if (s.ackPhase === 'probe_starting' && s.roundStart) s.ackPhase = 'probe_feedback';
  if (s.ackPhase === 'probe_stopping' && s.roundStart) {
    s.isBwProbeSample = false;
    s.ackPhase = 'init';
    if (isInProbeBwState(s.mode) && !rs.isAppLimited) advanceMaxBwFilter(ctx);
    if (isInProbeBwState(s.mode) && s.prevProbePrecautionary && !s.prevProbeTooHigh) {
      startProbeBwRefill(ctx, rs);
      return true;
    }
  }
  if (isInflightTooHigh(ctx, rs.lostBytes, rs.txInFlightBytes)) {
    // Google v3 also reacts here, on the ACK's own rate sample, when probing (bbr_adapt_upper_bounds ->
    // bbr_handle_inflight_too_high); the draft reacts only per lost packet (HandleLostPacket). Used
    // when the sender reports no per-packet losses, or with ackPathLongtermCut = 1 (v3's both paths).
    if ((!ctx.lostPacketEvents || ctx.cfg.ackPathLongtermCut === 1) && s.isBwProbeSample) handleInflightTooHigh(ctx, rs.txInFlightBytes, rs.isAppLimited, rs);
    return false;
  }
  if (s.inflightLongtermBytes === Infinity) return false;
  if (rs.txInFlightBytes > s.inflightLongtermBytes) s.inflightLongtermBytes = rs.txInFlightBytes;
  if (s.mode === 'probe_bw_up') probeInflightLongtermUpward(ctx, rs);
  return false;
}

/**
 * Draft HandleInflightTooHigh(): once per probe, inflight_longterm = max(tx_in_flight, Beta x
 * TargetInflight()) (not when application-limited: the flight was not a robust probe) and ProbeBW_UP
 * ends in DOWN.
 */
export function handleInflightTooHigh(ctx: Bbr3Ctx, txInFlightBytes: number, isAppLimited: boolean, at: Moment): void {
  const s = ctx.s;
  s.prevProbeTooHigh = true;
  s.isBwProbeSample = false;
  if (!isAppLimited) s.inflightLongtermBytes = Math.max(txInFlightBytes, targetInflight(ctx) * ctx.cfg.beta);
  if (s.mode === 'probe_bw_up') {
    s.undoState = 'probe_bw_up';
    startProbeBwDown(ctx, at);
  }
}

/** Draft HandleLostPacket(P): every loss marks the round; a lost probe packet past LossThresh bounds inflight_longterm at the crossing point. */
export function handleLostPacket(ctx: Bbr3Ctx, p: Bbr3LostPacket, at: Moment): void {
  noteLoss(ctx, at.cDeliveredBytes);
  if (!ctx.s.isBwProbeSample) return;
  if (!isInflightTooHigh(ctx, p.lostSinceTxBytes, p.txInFlightBytes)) return;
  const txInFlight = inflightAtLoss(ctx, p.sizeBytes, p.txInFlightBytes, p.lostSinceTxBytes);
  handleInflightTooHigh(ctx, txInFlight, p.isAppLimited, at);
}
