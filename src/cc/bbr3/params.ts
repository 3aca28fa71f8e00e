/**
 * BBRv3's constants as ParamSpecs, after draft-ietf-ccwg-bbr-06 (Cardwell, Swett, Beshay; July 2026;
 * the revision this module follows, with Appendix A's test cases) and Google's v3 tree (google/bbr
 * branch v3, net/ipv4/tcp_bbr.c with BBR_VERSION 3) where the draft leaves a choice. Every default is
 * the draft's; the doc says where Google's v3 differs and which value gives its behaviour.
 *
 * Differences between the draft and Google's v3 that are numbers (draft default / v3):
 * - drainPacingGain 0.5 / 1000/2885 = 0.347 (v3 keeps BBRv1's 1/high_gain).
 * - probeDownPacingGain 0.90 / 0.91.
 * - startupPacingGain 2.77 / (256 x 2.77 + 1) / 256 = 2.7734 (fixed point, rounded up).
 * - extraAckedFilterRounds 10 / 5 (v3 keeps two 5-round buckets, so 5-10 rounds).
 * - extraAckedMaxS none / 0.1 s (v3 caps the aggregation allowance at 100 ms of bandwidth).
 * - drainMaxRounds 3 / none (v3 leaves DRAIN only on inflight; the draft also after 3 rounds).
 * - ackPathLongtermCut 0 / 1 (v3 also cuts inflight_longterm on the ACK's own rate sample while
 *   probing, beside the per-lost-packet cut both have).
 * Differences that are not numbers are documented where the code makes the choice (bbr3.ts and the
 * modules beside this one).
 */
import { sharedParams } from '../shared-params.js';
import type { ParamSpec } from '../types.js';

export const BBR3_PARAMS: readonly ParamSpec[] = [
  { name: 'startupPacingGain', doc: 'STARTUP pacing gain (draft BBR.StartupPacingGain = 4 ln 2 = 2.77; Google v3 2.7734)', unit: 'ratio', default: 2.77, min: 1, max: 10 },
  { name: 'defaultCwndGain', doc: 'cwnd gain of STARTUP, DRAIN and ProbeBW except UP (draft BBR.DefaultCwndGain = 2; v3 startup_cwnd_gain and cwnd_gain = 2)', unit: 'ratio', default: 2, min: 1, max: 10 },
  { name: 'drainPacingGain', doc: 'DRAIN pacing gain (draft BBR.DrainPacingGain = 0.5; Google v3 1/2.885 = 0.347)', unit: 'ratio', default: 0.5, min: 0.05, max: 1 },
  { name: 'drainMaxRounds', doc: 'DRAIN ends after this many rounds even if inflight stays above the BDP (draft 3; 0 = only on inflight, as Google v3)', unit: 'count', default: 3, min: 0, max: 1000 },
  { name: 'probeDownPacingGain', doc: 'ProbeBW_DOWN pacing gain (draft 0.90; Google v3 0.91)', unit: 'ratio', default: 0.9, min: 0.05, max: 1 },
  { name: 'probeUpPacingGain', doc: 'ProbeBW_UP pacing gain (draft and v3 1.25)', unit: 'ratio', default: 1.25, min: 1, max: 10 },
  { name: 'probeUpCwndGain', doc: 'ProbeBW_UP cwnd gain (draft and v3 2.25 = cwnd gain + bw_probe_cwnd_gain/4)', unit: 'ratio', default: 2.25, min: 1, max: 10 },
  { name: 'fullBwThresh', doc: 'Full-pipe detector: a round whose delivery rate is below this multiple of full_bw counts as no growth (draft and v3 1.25)', unit: 'ratio', default: 1.25, min: 1.01, max: 10 },
  { name: 'fullBwCount', doc: 'Full-pipe detector: rounds without growth before the pipe is full (draft and v3 3)', unit: 'count', default: 3, min: 1, max: 100 },
  { name: 'lossThresh', doc: 'Highest tolerated loss rate of a probing round, lost / tx_in_flight (draft BBR.LossThresh, v3 loss_thresh 2%)', unit: 'ratio', default: 0.02, min: 0.001, max: 0.5 },
  { name: 'startupFullLossCount', doc: 'STARTUP exits on loss when a recovery round has at least this many loss events and loss above lossThresh (draft BBRStartupFullLossCnt, v3 full_loss_cnt 6; 0 = never on loss)', unit: 'count', default: 6, min: 0, max: 15 },
  { name: 'beta', doc: 'Multiplicative decrease of the short-term bounds per lossy round and floor of inflight_longterm after a too-high probe (draft BBR.Beta 0.7; v3 writes the cut, beta = 0.3)', unit: 'ratio', default: 0.7, min: 0.05, max: 1 },
  { name: 'headroom', doc: 'Fraction of inflight_longterm left free in CRUISE and ProbeRTT (draft BBR.Headroom, v3 inflight_headroom 0.15)', unit: 'ratio', default: 0.15, min: 0, max: 0.9 },
  { name: 'minPipeCwndSegments', doc: 'Floor of cwnd and of the inflight bounds (draft BBR.MinPipeCwnd, v3 cwnd_min_target 4)', unit: 'segments', default: 4, min: 1, max: 1000 },
  { name: 'pacingMarginPercent', doc: 'Pacing rate is this many percent below gain x bw (draft BBR.PacingMarginPercent, v3 pacing_margin_percent 1)', unit: 'percent', default: 1, min: 0, max: 50 },
  { name: 'maxBwFilterCycles', doc: 'max_bw filter window in ProbeBW cycles: the current and the previous one (draft BBR.MaxBwFilterLen, v3 bw_hi[2] = 2)', unit: 'count', default: 2, min: 1, max: 100 },
  { name: 'extraAckedFilterRounds', doc: 'extra_acked max-filter window after STARTUP in rounds (draft BBR.ExtraAckedFilterLen 10; Google v3 5, two buckets); 1 round in STARTUP', unit: 'count', default: 10, min: 1, max: 100 },
  { name: 'extraAckedMaxS', doc: 'Cap of the aggregation allowance in seconds of bandwidth (draft: none = 0; Google v3 extra_acked_max_us 0.1)', unit: 's', default: 0, min: 0, max: 10 },
  { name: 'extraAckedGain', doc: 'Gain on extra_acked added to the cwnd target (draft 1, v3 extra_acked_gain 1; 0 = no aggregation allowance)', unit: 'ratio', default: 1, min: 0, max: 10 },
  { name: 'minRttFilterS', doc: 'min_rtt filter window (draft BBR.MinRTTFilterLen, v3 min_rtt_win_sec 10 s)', unit: 's', default: 10, min: 0.1, max: 1000 },
  { name: 'probeRttIntervalS', doc: 'Longest time without a lower RTT sample before ProbeRTT (draft BBR.ProbeRTTInterval, v3 probe_rtt_win_ms 5 s)', unit: 's', default: 5, min: 0.1, max: 1000 },
  { name: 'probeRttDurationS', doc: 'Time ProbeRTT holds inflight at its cwnd, with at least one round (draft BBR.ProbeRTTDuration, v3 probe_rtt_mode_ms 0.2 s)', unit: 's', default: 0.2, min: 0.001, max: 10 },
  { name: 'probeRttCwndGain', doc: 'ProbeRTT cwnd as a multiple of the BDP (draft BBR.ProbeRTTCwndGain, v3 probe_rtt_cwnd_gain 0.5)', unit: 'ratio', default: 0.5, min: 0.05, max: 10 },
  { name: 'probeWaitBaseS', doc: 'Wall-clock wait before the next bandwidth probe is this plus U(0, probeWaitRandS) (draft T_bbr 2-3 s, v3 bw_probe_base_us 2 s)', unit: 's', default: 2, min: 0, max: 1000 },
  { name: 'probeWaitRandS', doc: 'Random part of the wall-clock probe wait (draft and v3 bw_probe_rand_us 1 s)', unit: 's', default: 1, min: 0, max: 1000 },
  { name: 'probeMaxRounds', doc: 'Reno-coexistence bound: probe after min(BDP in segments, this) rounds, minus a random 0 or 1 (draft T_reno 62-63, v3 bw_probe_max_rounds 63)', unit: 'count', default: 63, min: 1, max: 10000 },
  { name: 'ackPathLongtermCut', doc: 'While probing, also cut inflight_longterm on an ACK whose rate sample lost more than lossThresh of its tx_in_flight: 0 = the draft (only per lost packet, HandleLostPacket, when the sender reports each one), 1 = Google v3 (bbr_adapt_upper_bounds also calls bbr_handle_inflight_too_high on the ACK path)', unit: 'flag', default: 0, min: 0, max: 1 },
  { name: 'startupCwndGrowthFloor', doc: 'STARTUP grows cwnd past its target while: 0 = C.delivered < InitialCwnd (draft SetCwnd), 1 = cwnd < 2 x InitialCwnd (Google v3 bbr_set_cwnd)', unit: 'flag', default: 0, min: 0, max: 1 },
];

/** The knobs, read once per flow. */
export interface Bbr3Config {
  startupPacingGain: number;
  defaultCwndGain: number;
  drainPacingGain: number;
  drainMaxRounds: number;
  probeDownPacingGain: number;
  probeUpPacingGain: number;
  probeUpCwndGain: number;
  fullBwThresh: number;
  fullBwCount: number;
  lossThresh: number;
  startupFullLossCount: number;
  beta: number;
  headroom: number;
  minPipeCwndSegments: number;
  pacingMarginPercent: number;
  maxBwFilterCycles: number;
  extraAckedFilterRounds: number;
  extraAckedMaxS: number;
  extraAckedGain: number;
  minRttFilterS: number;
  probeRttIntervalS: number;
  probeRttDurationS: number;
  probeRttCwndGain: number;
  probeWaitBaseS: number;
  probeWaitRandS: number;
  probeMaxRounds: number;
  startupCwndGrowthFloor: number;
  ackPathLongtermCut: number;
}

/** Defaults filled in (the registry passes complete, checked params; bare tests may pass a few). */
export function bbr3Config(params: Readonly<Record<string, number>> = {}): Bbr3Config {
  return sharedParams(BBR3_PARAMS, params) as unknown as Bbr3Config;
}
