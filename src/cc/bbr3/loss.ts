/**
 * Loss bookkeeping shared by the states (draft-ietf-ccwg-bbr-06 5.5.9 "Updating the Model Upon
 * Packet Loss", 5.5.10 undo state, 5.6.4.4 SaveCwnd/RestoreCwnd; v3 bbr_is_inflight_too_high,
 * bbr_inflight_hi_from_lost_skb, bbr_note_loss, bbr_save_cwnd).
 */
import type { Bbr3Ctx } from './context.js';

/** Draft IsInflightTooHigh(): the loss rate of the flight that `lost` and `txInFlight` describe is above LossThresh (any loss without SACK). */
export function isInflightTooHigh(ctx: Bbr3Ctx, lostBytes: number, txInFlightBytes: number): boolean {
  return lostBytes > txInFlightBytes * ctx.cfg.lossThresh || (lostBytes > 0 && !ctx.hasSelectiveAcks);
}

/**
 * Draft InflightAtLoss(P): the inflight at which the loss rate crossed LossThresh inside packet P,
 * solving (lost_prev + x) / (inflight_prev + x) = LossThresh for the lost prefix x. Where the losses
 * before P already crossed the threshold the prefix is 0 (v3 bbr_inflight_hi_from_lost_skb; the
 * draft's formula would go below inflight_prev).
 */
export function inflightAtLoss(ctx: Bbr3Ctx, sizeBytes: number, txInFlightBytes: number, lostBytes: number): number {
  const inflightPrev = txInFlightBytes - sizeBytes;
  const lostPrev = lostBytes - sizeBytes;
  const thresh = ctx.cfg.lossThresh;
  const lostPrefix = Math.max(0, (thresh * inflightPrev - lostPrev) / (1 - thresh));
  return inflightPrev + lostPrefix;
}

/** Draft SaveCwnd(): remember the last cwnd not cut by loss recovery or ProbeRTT. */
export function saveCwnd(ctx: Bbr3Ctx): void {
  const s = ctx.s;
  if (!ctx.inLossRecovery && s.mode !== 'probe_rtt') s.priorCwndBytes = ctx.cwndBytes;
  else s.priorCwndBytes = Math.max(s.priorCwndBytes, ctx.cwndBytes);
}

/** Draft RestoreCwnd(). */
export function restoreCwnd(ctx: Bbr3Ctx): void {
  ctx.cwndBytes = Math.max(ctx.cwndBytes, ctx.s.priorCwndBytes);
}

/** Draft SaveStateUponLoss(): what a spurious-recovery undo would restore. */
export function saveStateUponLoss(ctx: Bbr3Ctx): void {
  const s = ctx.s;
  saveCwnd(ctx);
  s.undoState = null;
  s.undoBwShorttermBytesPerS = s.bwShorttermBytesPerS;
  s.undoInflightShorttermBytes = s.inflightShorttermBytes;
  s.undoInflightLongtermBytes = s.inflightLongtermBytes;
}

/** Draft NoteLoss(): the first loss of a round extends the loss round to C.delivered now and saves the undo state. */
export function noteLoss(ctx: Bbr3Ctx, cDeliveredBytes: number): void {
  const s = ctx.s;
  if (!s.isLossInRound) {
    s.lossRoundDeliveredBytes = cDeliveredBytes;
    saveStateUponLoss(ctx);
  }
  s.isLossInRound = true;
}
