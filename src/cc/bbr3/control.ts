/**
 * BBRv3's control parameters: pacing rate, send quantum and cwnd (draft-ietf-ccwg-bbr-06 5.6;
 * Google v3 bbr_set_pacing_rate, bbr_set_cwnd, bbr_bound_cwnd_for_inflight_model), and the cwnd
 * steps on entering and leaving loss recovery (5.6.4.4).
 */
import { segs, type Bbr3Ctx } from './context.js';
import { restoreCwnd, saveCwnd, saveStateUponLoss } from './loss.js';
import { bdpMultiple, inflightWithHeadroom, probeRttCwnd, quantizationBudget } from './path-model.js';
import { isInProbeBwState } from './state.js';

/** Largest send quantum (draft SetSendQuantum: 64 KBytes). */
const MAX_SEND_QUANTUM_BYTES = 64 * 1024;

/**
 * Draft InitPacingRate(): StartupPacingGain x InitialCwnd / SRTT (1 ms before any RTT sample). As
 * v3, the first RTT sample seeds it again (has_seen_rtt).
 */
export function initPacingRate(ctx: Bbr3Ctx, srttS: number): void {
  const nominal = ctx.initialCwndBytes / (srttS > 0 ? srttS : 0.001);
  ctx.s.pacingRateBytesPerS = ctx.cfg.startupPacingGain * nominal;
}

/**
 * Draft SetPacingRateWithGain(): gain x bw, pacingMarginPercent below; never lowered before the pipe
 * was full. Without any bandwidth sample (bw = 0: STARTUP can end on loss before a valid sample, as on
 * a 10%-loss line) the rate in force stays: a rate of 0 would never send again (v3 floors its rate at
 * 1 byte/s and bw_lo at 1 unit, which stalls the same way).
 */
export function setPacingRateWithGain(ctx: Bbr3Ctx, gain: number): void {
  const rate = (gain * ctx.s.bwBytesPerS * (100 - ctx.cfg.pacingMarginPercent)) / 100;
  if (rate <= 0) return;
  if (ctx.s.fullBwReached || rate > ctx.s.pacingRateBytesPerS) ctx.s.pacingRateBytesPerS = rate;
}

/** Draft SetSendQuantum(): 1 ms at the pacing rate, within [2 SMSS, 64 KBytes]. */
export function setSendQuantum(ctx: Bbr3Ctx): void {
  const q = Math.min(ctx.s.pacingRateBytesPerS * 0.001, MAX_SEND_QUANTUM_BYTES);
  ctx.s.sendQuantumBytes = Math.max(q, segs(ctx, 2));
}

/**
 * Draft UpdateMaxInflight(): cwnd_gain x BDP plus the aggregation allowance extra_acked, with the
 * quantization budget. Google v3 caps the allowance at extraAckedMaxS of bandwidth (0.1 s); the draft
 * has no cap (param 0).
 */
export function updateMaxInflight(ctx: Bbr3Ctx): void {
  const s = ctx.s;
  let extra = ctx.cfg.extraAckedGain * s.extraAckedBytes;
  if (ctx.cfg.extraAckedMaxS > 0) extra = Math.min(extra, s.bwBytesPerS * ctx.cfg.extraAckedMaxS);
  s.maxInflightBytes = quantizationBudget(ctx, bdpMultiple(ctx, s.bwBytesPerS, s.cwndGain) + extra);
}

/**
 * Draft SetCwnd(): cut to max_inflight at once, grow toward it by what each ACK delivered; before the
 * pipe is full, grow past it while little has been delivered (param startupCwndGrowthFloor: the
 * draft's C.delivered < InitialCwnd, or v3's cwnd < 2 InitialCwnd). Then the ProbeRTT and model caps.
 * cwnd is kept in whole bytes, rounded up as v3 rounds its BDP up.
 */
export function setCwnd(ctx: Bbr3Ctx, newlyAckedBytes: number, cDeliveredBytes: number): void {
  updateMaxInflight(ctx);
  const s = ctx.s;
  let cwnd = ctx.cwndBytes;
  if (s.fullBwReached) {
    cwnd = Math.min(cwnd + newlyAckedBytes, s.maxInflightBytes);
  } else {
    const early = ctx.cfg.startupCwndGrowthFloor === 1 ? cwnd < 2 * ctx.initialCwndBytes : cDeliveredBytes < ctx.initialCwndBytes;
    if (cwnd < s.maxInflightBytes || early) cwnd += newlyAckedBytes;
  }
  cwnd = Math.max(cwnd, segs(ctx, ctx.cfg.minPipeCwndSegments));
  if (s.mode === 'probe_rtt') cwnd = Math.min(cwnd, probeRttCwnd(ctx));
  ctx.cwndBytes = Math.ceil(Math.min(cwnd, cwndModelCap(ctx)));
}

/** Draft BoundCwndForModel()'s cap: inflight_longterm while probing, with headroom in CRUISE and ProbeRTT, and inflight_shortterm. */
export function cwndModelCap(ctx: Bbr3Ctx): number {
  const s = ctx.s;
  let cap = Infinity;
  if (isInProbeBwState(s.mode) && s.mode !== 'probe_bw_cruise') cap = s.inflightLongtermBytes;
  else if (s.mode === 'probe_rtt' || s.mode === 'probe_bw_cruise') cap = inflightWithHeadroom(ctx);
  cap = Math.min(cap, s.inflightShorttermBytes);
  return Math.max(cap, segs(ctx, ctx.cfg.minPipeCwndSegments));
}

/** Draft OnEnterFastRecovery(). */
export function onEnterFastRecovery(ctx: Bbr3Ctx): void {
  // ctx.inLossRecovery still says whether the sender was already recovering (an RTO during fast
  // recovery keeps the larger cwnd saved before it).
  saveCwnd(ctx);
  saveStateUponLoss(ctx);
  ctx.inLossRecovery = true;
}

/** Draft OnEnterRTO(): cwnd allows one more segment beyond what is in flight. */
export function onEnterRto(ctx: Bbr3Ctx, inflightBytes: number): void {
  onEnterFastRecovery(ctx);
  ctx.cwndBytes = inflightBytes + ctx.mssBytes;
}

/** Draft: on leaving loss recovery cwnd returns to the last known good value (the next ACK's caps then apply). */
export function onExitRecovery(ctx: Bbr3Ctx): void {
  ctx.inLossRecovery = false;
  restoreCwnd(ctx);
}
