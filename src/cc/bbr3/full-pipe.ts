/**
 * The full-pipe estimator (draft-ietf-ccwg-bbr-06 4.3.1.1 "Exiting Acceleration Based on Bandwidth
 * Plateau"; v3 bbr_check_full_bw_reached), used to leave STARTUP and ProbeBW_UP: fullBwCount (3)
 * non-app-limited rounds in which the delivery rate grew by less than fullBwThresh (25%).
 *
 * Draft choice: only the round-start ACK's sample is compared with full_bw (the draft returns early
 * when !round_start). Google v3 compares every ACK's sample and counts rounds at round starts, so a
 * single fast sample mid-round restarts the count there; in a steady flow both see the same rounds.
 */
import type { Bbr3Ctx } from './context.js';
import type { Bbr3Ack } from './state.js';

/** Draft ResetFullBW(). */
export function resetFullBw(ctx: Bbr3Ctx): void {
  ctx.s.fullBwBytesPerS = 0;
  ctx.s.fullBwCount = 0;
  ctx.s.fullBwNow = false;
}

/** Draft CheckFullBWReached(). */
export function checkFullBwReached(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  if (s.fullBwNow || !s.roundStart || rs.isAppLimited) return;
  if (rs.deliveryRateBytesPerS >= s.fullBwBytesPerS * ctx.cfg.fullBwThresh) {
    resetFullBw(ctx);
    s.fullBwBytesPerS = rs.deliveryRateBytesPerS;
    return;
  }
  s.fullBwCount++;
  s.fullBwNow = s.fullBwCount >= ctx.cfg.fullBwCount;
  if (s.fullBwNow) s.fullBwReached = true;
}
