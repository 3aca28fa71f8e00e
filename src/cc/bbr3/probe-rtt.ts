/**
 * min_rtt and ProbeRTT (draft-ietf-ccwg-bbr-06 4.3.4, 4.4 "Restarting From Idle", 5.5.5; Google v3
 * bbr_update_min_rtt, bbr_check_probe_rtt_done, bbr_exit_probe_rtt, bbr_cwnd_event TX_START).
 * probe_rtt_min_delay is a min filter over probeRttIntervalS (5 s); when it expires without a lower
 * sample BBR enters ProbeRTT, cuts cwnd to probeRttCwndGain x BDP (0.5) for probeRttDurationS
 * (200 ms) and one round, then returns to ProbeBW (CRUISE) or STARTUP. min_rtt is
 * probe_rtt_min_delay's min over minRttFilterS (10 s).
 *
 * Draft choices kept: min_rtt takes probe_rtt_min_delay only when strictly lower or expired (v3
 * also when equal, which only refreshes the stamp); v3 skips expired samples from delayed ACKs
 * (is_ack_delayed), which the rate sample here does not flag.
 */
import type { Bbr3Ctx } from './context.js';
import { restoreCwnd, saveCwnd } from './loss.js';
import { probeRttCwnd, resetShortTermModel, startRound } from './path-model.js';
import { startProbeBwCruise, startProbeBwDown, type Moment } from './probe-bw.js';
import { enterStartup } from './startup.js';
import { isInProbeBwState, type Bbr3Ack } from './state.js';
import { setPacingRateWithGain } from './control.js';

/** Draft UpdateMinRTT(). */
export function updateMinRtt(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  s.probeRttExpired = rs.nowS > s.probeRttMinStampS + ctx.cfg.probeRttIntervalS;
  if (rs.rttS >= 0 && (rs.rttS < s.probeRttMinDelayS || s.probeRttExpired)) {
    s.probeRttMinDelayS = rs.rttS;
    s.probeRttMinStampS = rs.nowS;
  }
  const minRttExpired = rs.nowS > s.minRttStampS + ctx.cfg.minRttFilterS;
  if (s.probeRttMinDelayS < s.minRttS || minRttExpired) {
    s.minRttS = s.probeRttMinDelayS;
    s.minRttStampS = s.probeRttMinStampS;
  }
}

/** Draft EnterProbeRTT(): pacing gain 1, cwnd gain 0.5. */
function enterProbeRtt(ctx: Bbr3Ctx): void {
  ctx.s.mode = 'probe_rtt';
  ctx.s.pacingGain = 1;
  ctx.s.cwndGain = ctx.cfg.probeRttCwndGain;
}

/** Draft CheckProbeRTT(). */
export function checkProbeRtt(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  if (s.mode !== 'probe_rtt' && s.probeRttExpired && !s.idleRestart) {
    enterProbeRtt(ctx);
    saveCwnd(ctx);
    s.probeRttDoneStampS = 0;
    s.ackPhase = 'probe_stopping';
    startRound(ctx, rs.cDeliveredBytes);
  }
  if (s.mode === 'probe_rtt') handleProbeRtt(ctx, rs);
  if (rs.deliveredBytes > 0) s.idleRestart = false;
}

/** Draft HandleProbeRTT(): once inflight is down to ProbeRTTCwnd, hold it for the duration and one round. */
function handleProbeRtt(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  // Samples taken at ProbeRTT's low rate must not pull max_bw down (draft MarkConnectionAppLimited).
  ctx.markAppLimited = true;
  if (s.probeRttDoneStampS === 0 && rs.inflightBytes <= probeRttCwnd(ctx)) {
    s.probeRttDoneStampS = rs.nowS + ctx.cfg.probeRttDurationS;
    s.probeRttRoundDone = false;
    startRound(ctx, rs.cDeliveredBytes);
  } else if (s.probeRttDoneStampS !== 0) {
    if (s.roundStart) s.probeRttRoundDone = true;
    if (s.probeRttRoundDone) checkProbeRttDone(ctx, rs);
  }
}

/** Draft CheckProbeRTTDone(): the next ProbeRTT is due probeRttIntervalS from now. */
export function checkProbeRttDone(ctx: Bbr3Ctx, at: Moment): void {
  const s = ctx.s;
  if (s.probeRttDoneStampS !== 0 && at.nowS > s.probeRttDoneStampS) {
    s.probeRttMinStampS = at.nowS;
    restoreCwnd(ctx);
    exitProbeRtt(ctx, at);
  }
}

/** Draft ExitProbeRTT(): inflight is below the BDP, so ProbeBW restarts its clock in DOWN and goes straight to CRUISE. */
function exitProbeRtt(ctx: Bbr3Ctx, at: Moment): void {
  resetShortTermModel(ctx);
  if (ctx.s.fullBwReached) {
    startProbeBwDown(ctx, at);
    startProbeBwCruise(ctx);
  } else {
    enterStartup(ctx);
  }
}

/**
 * Draft HandleRestartFromIdle(), before sending when nothing is in flight and the application was
 * the limit: in ProbeBW pace at exactly bw; in ProbeRTT the idle time may already have completed it.
 */
export function handleRestartFromIdle(ctx: Bbr3Ctx, at: Moment, inflightBytes: number, appLimited: boolean): void {
  const s = ctx.s;
  if (inflightBytes !== 0 || !appLimited) return;
  s.idleRestart = true;
  s.extraAckedIntervalStartS = at.nowS;
  if (isInProbeBwState(s.mode)) setPacingRateWithGain(ctx, 1);
  else if (s.mode === 'probe_rtt') checkProbeRttDone(ctx, at);
}
