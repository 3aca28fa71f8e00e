/**
 * BBRv3's network path model (draft-ietf-ccwg-bbr-06 section 5.5 "Updating Network Path Model
 * Parameters"; Google v3 bbr_update_round_start, bbr_take_max_bw_sample, bbr_adapt_lower_bounds,
 * bbr_update_ack_aggregation, bbr_bdp, bbr_quantization_budget): packet-timed rounds, the max_bw
 * filter over ProbeBW cycles, the short-term bounds cut on lossy rounds, the aggregation estimate,
 * and the BDP arithmetic every state uses.
 */
import { segs, type Bbr3Ctx } from './context.js';
import { isProbingBw, type Bbr3Ack } from './state.js';

/** Draft StartRound(): the round ends when a packet sent after now is acknowledged. */
export function startRound(ctx: Bbr3Ctx, cDeliveredBytes: number): void {
  ctx.s.nextRoundDeliveredBytes = cDeliveredBytes;
}

/**
 * Draft UpdateRound(): a round trip has elapsed when the newest acknowledged packet was sent after
 * the round's sentinel (P.delivered >= next_round_delivered). As v3, only ACKs with a valid rate
 * sample count.
 */
export function updateRound(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  if (rs.priorDeliveredBytes >= 0 && rs.priorDeliveredBytes >= s.nextRoundDeliveredBytes) {
    startRound(ctx, rs.cDeliveredBytes);
    s.roundCount++;
    s.roundsSinceProbeUp++;
    s.roundStart = true;
  } else {
    s.roundStart = false;
  }
}

/**
 * Draft UpdateMaxBw(): the windowed max of delivery-rate samples over the last maxBwFilterCycles
 * ProbeBW cycles (draft BBR.MaxBwFilterLen = 2; v3 bw_hi[2]). An application-limited sample counts
 * only when it is at least the current max_bw (it then proves the estimate too low).
 */
export function updateMaxBw(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  updateRound(ctx, rs);
  const s = ctx.s;
  const rate = rs.deliveryRateBytesPerS;
  if (rate > 0 && (rate >= s.maxBwBytesPerS || !rs.isAppLimited)) {
    const slots = ctx.maxBwSlots;
    const cur = s.cycleCount % slots.length;
    if (rate > slots[cur]!) slots[cur] = rate;
    if (rate > s.maxBwBytesPerS) s.maxBwBytesPerS = rate;
  }
}

/**
 * Draft AdvanceMaxBwFilter(): one round after ProbeBW_UP ends, the oldest cycle's samples leave the
 * window. As v3 bbr_advance_max_bw_filter, a cycle that took no sample is not advanced past (the
 * window keeps the last samples it has rather than emptying).
 */
export function advanceMaxBwFilter(ctx: Bbr3Ctx): void {
  const s = ctx.s;
  const slots = ctx.maxBwSlots;
  if (slots[s.cycleCount % slots.length] === 0) return;
  s.cycleCount++;
  slots[s.cycleCount % slots.length] = 0;
  s.maxBwBytesPerS = Math.max(...slots);
}

/** Draft UpdateLatestDeliverySignals(): 1-round maxima of delivery rate and delivered volume; loss-round boundaries. */
export function updateLatestDeliverySignals(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  s.lossRoundStart = false;
  if (rs.priorDeliveredBytes < 0) return; // v3: not a valid observation
  s.bwLatestBytesPerS = Math.max(s.bwLatestBytesPerS, rs.deliveryRateBytesPerS);
  s.inflightLatestBytes = Math.max(s.inflightLatestBytes, rs.deliveredBytes);
  if (rs.priorDeliveredBytes >= s.lossRoundDeliveredBytes) {
    s.lossRoundDeliveredBytes = rs.cDeliveredBytes;
    s.lossRoundStart = true;
  }
}

/** Draft AdvanceLatestDeliverySignals(): at a loss-round start the 1-round maxima restart from this sample. */
export function advanceLatestDeliverySignals(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  if (!s.lossRoundStart) return;
  s.bwLatestBytesPerS = rs.deliveryRateBytesPerS;
  s.inflightLatestBytes = rs.deliveredBytes;
}

/** Draft ResetCongestionSignals(). */
export function resetCongestionSignals(ctx: Bbr3Ctx): void {
  const s = ctx.s;
  s.isLossInRound = false;
  s.bwLatestBytesPerS = 0;
  s.inflightLatestBytes = 0;
}

/** Draft ResetShortTermModel(): bw_shortterm and inflight_shortterm unbounded. */
export function resetShortTermModel(ctx: Bbr3Ctx): void {
  ctx.s.bwShorttermBytesPerS = Infinity;
  ctx.s.inflightShorttermBytes = Infinity;
}

/**
 * Draft UpdateCongestionSignals() and AdaptLowerBoundsFromCongestion(): once per loss round, when
 * the round saw a loss and the flow is not probing, bw_shortterm and inflight_shortterm are cut to
 * max(latest, Beta x bound) (draft LossLowerBounds; v3 bbr_loss_lower_bounds with 1 - beta).
 */
export function updateCongestionSignals(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  updateMaxBw(ctx, rs);
  const s = ctx.s;
  if (!s.lossRoundStart) return;
  if (!isProbingBw(s.mode) && s.isLossInRound) {
    if (s.bwShorttermBytesPerS === Infinity) s.bwShorttermBytesPerS = s.maxBwBytesPerS;
    if (s.inflightShorttermBytes === Infinity) s.inflightShorttermBytes = ctx.cwndBytes;
    s.bwShorttermBytesPerS = Math.max(s.bwLatestBytesPerS, ctx.cfg.beta * s.bwShorttermBytesPerS);
    s.inflightShorttermBytes = Math.max(s.inflightLatestBytes, ctx.cfg.beta * s.inflightShorttermBytes);
  }
  s.isLossInRound = false;
}

/** Draft BoundBWForModel(): BBR.bw = min(max_bw, bw_shortterm). */
export function boundBwForModel(ctx: Bbr3Ctx): void {
  ctx.s.bwBytesPerS = Math.min(ctx.s.maxBwBytesPerS, ctx.s.bwShorttermBytesPerS);
}

/**
 * Draft UpdateACKAggregation(): data acknowledged beyond bw x interval since the aggregation epoch
 * began, capped by cwnd; windowed max over 1 round in STARTUP and extraAckedFilterRounds after. The
 * epoch restarts whenever the ACK rate falls to the expected rate.
 */
export function updateAckAggregation(ctx: Bbr3Ctx, rs: Bbr3Ack): void {
  const s = ctx.s;
  if (rs.newlyAckedBytes <= 0) return;
  let expected = s.bwBytesPerS * (rs.nowS - s.extraAckedIntervalStartS);
  if (s.extraAckedDeliveredBytes <= expected) {
    s.extraAckedDeliveredBytes = 0;
    s.extraAckedIntervalStartS = rs.nowS;
    expected = 0;
  }
  s.extraAckedDeliveredBytes += rs.newlyAckedBytes;
  const extra = Math.min(s.extraAckedDeliveredBytes - expected, ctx.cwndBytes);
  const window = s.fullBwReached ? ctx.cfg.extraAckedFilterRounds : 1;
  s.extraAckedBytes = ctx.extraAckedFilter.update(extra, s.roundCount, window);
}

/** Draft BDPMultiple(gain) with the bandwidth explicit: gain x bw x min_rtt, or C.InitialCwnd before any RTT sample. */
export function bdpMultiple(ctx: Bbr3Ctx, bwBytesPerS: number, gain: number): number {
  if (ctx.s.minRttS === Infinity) return ctx.initialCwndBytes;
  return gain * bwBytesPerS * ctx.s.minRttS;
}

/**
 * Draft UpdateOffloadBudget() for TCP: 3 send quanta in flight (one in the qdisc, one in TSO/GSO, one
 * in the receiver's LRO/GRO/delayed-ACK engine; v3 3 x bbr_tso_segs_goal).
 */
export function offloadBudget(ctx: Bbr3Ctx): number {
  return 3 * ctx.s.sendQuantumBytes;
}

/** Draft QuantizationBudget(): at least the offload budget and MinPipeCwnd; 2 more segments in ProbeBW_UP. */
export function quantizationBudget(ctx: Bbr3Ctx, inflightCapBytes: number): number {
  let cap = Math.max(inflightCapBytes, offloadBudget(ctx), segs(ctx, ctx.cfg.minPipeCwndSegments));
  if (ctx.s.mode === 'probe_bw_up') cap += segs(ctx, 2);
  return cap;
}

/** Draft Inflight(gain) with the bandwidth explicit. */
export function inflight(ctx: Bbr3Ctx, bwBytesPerS: number, gain: number): number {
  return quantizationBudget(ctx, bdpMultiple(ctx, bwBytesPerS, gain));
}

/** Draft TargetInflight(): the estimated BDP, unless congestion cut cwnd below it. */
export function targetInflight(ctx: Bbr3Ctx): number {
  return Math.min(bdpMultiple(ctx, ctx.s.bwBytesPerS, 1), ctx.cwndBytes);
}

/** Draft InflightWithHeadroom(): inflight_longterm less Headroom of it (at least 1 SMSS), floored at MinPipeCwnd. */
export function inflightWithHeadroom(ctx: Bbr3Ctx): number {
  const longterm = ctx.s.inflightLongtermBytes;
  if (longterm === Infinity) return Infinity;
  const headroom = Math.max(ctx.mssBytes, ctx.cfg.headroom * longterm);
  return Math.max(longterm - headroom, segs(ctx, ctx.cfg.minPipeCwndSegments));
}

/** Draft ProbeRTTCwnd(): probeRttCwndGain x BDP, at least MinPipeCwnd (no quantization budget). */
export function probeRttCwnd(ctx: Bbr3Ctx): number {
  return Math.max(bdpMultiple(ctx, ctx.s.bwBytesPerS, ctx.cfg.probeRttCwndGain), segs(ctx, ctx.cfg.minPipeCwndSegments));
}
