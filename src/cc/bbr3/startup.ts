/**
 * STARTUP and DRAIN (draft-ietf-ccwg-bbr-06 4.3.1 and 4.3.2; v3 bbr_check_loss_too_high_in_startup,
 * bbr_check_drain).
 */
import type { Bbr3Ctx } from './context.js';
import { bdpMultiple, inflight, resetCongestionSignals } from './path-model.js';
import { enterProbeBw } from './probe-bw.js';
import { isInflightTooHigh } from './loss.js';
import type { Bbr3Ack } from './state.js';

/** Draft EnterStartup(): pacing gain 2.77, cwnd gain 2. */
export function enterStartup(ctx: Bbr3Ctx): void {
  ctx.s.mode = 'startup';
  ctx.s.pacingGain = ctx.cfg.startupPacingGain;
  ctx.s.cwndGain = ctx.cfg.defaultCwndGain;
}

/** Draft EnterDrain(): pacing gain 0.5 (v3 0.347), cwnd gain kept at 2. */
export function enterDrain(ctx: Bbr3Ctx): void {
  const s = ctx.s;
  s.mode = 'drain';
  s.pacingGain = ctx.cfg.drainPacingGain;
  s.cwndGain = ctx.cfg.defaultCwndGain;
  s.drainStartRound = s.roundCount;
  // v3 bbr_check_drain resets the congestion signals on leaving STARTUP, so losses of STARTUP's
  // overshoot are not charged to DRAIN's first round (the draft does it only on entering ProbeBW_DOWN).
  resetCongestionSignals(ctx);
}

/**
 * Draft CheckStartupHighLoss() (4.3.1.2), which the draft gives in prose only; the arithmetic is
 * v3's: at the end of a loss round spent in fast recovery, exit when the round had at least
 * startupFullLossCount loss events (ACKs that marked losses: v3's count of discontiguous lost
 * ranges) and the rate sample's loss rate is above lossThresh. Without SACK any loss in fast
 * recovery is enough (the draft's rule for !C.has_selective_acks). On exit inflight_longterm =
 * max(BDP, inflight_latest) and full_bw_now/full_bw_reached are set (Appendix A.2 checks both).
 */
export function checkStartupHighLoss(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  if (s.fullBwReached) return;
  if (rs.newlyLostBytes > 0) s.lossEventsInRound = Math.min(s.lossEventsInRound + 1, 15);
  if (!s.lossRoundStart) return;
  const enough = ctx.hasSelectiveAcks
    ? ctx.cfg.startupFullLossCount > 0 && s.lossEventsInRound >= ctx.cfg.startupFullLossCount && isInflightTooHigh(ctx, rs.lostBytes, rs.txInFlightBytes)
    : s.lossEventsInRound > 0;
  s.lossEventsInRound = 0;
  if (!rs.inFastRecovery || !enough) return;
  s.undoState = 'startup';
  s.fullBwReached = true;
  s.fullBwNow = true;
  s.inflightLongtermBytes = Math.max(bdpMultiple(ctx, s.maxBwBytesPerS, 1), s.inflightLatestBytes);
}

/** Draft CheckStartupDone(). */
export function checkStartupDone(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  checkStartupHighLoss(ctx, rs);
  if (ctx.s.mode === 'startup' && ctx.s.fullBwReached) enterDrain(ctx);
}

/**
 * Draft CheckDrainDone(): leave DRAIN when inflight is at most the estimated BDP (Inflight(1.0),
 * quantization budget included), or after drainMaxRounds rounds (draft 3; 0 = never, as v3).
 */
export function checkDrainDone(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  if (s.mode !== 'drain') return;
  const maxRounds = ctx.cfg.drainMaxRounds;
  const timedOut = maxRounds > 0 && s.roundCount > s.drainStartRound + maxRounds;
  if (rs.inflightBytes <= inflight(ctx, s.bwBytesPerS, 1) || timedOut) enterProbeBw(ctx, rs);
}
