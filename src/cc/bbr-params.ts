import type { ParamSpec } from './types.js';

/**
 * BBRv1's parameters (every Linux tcp_bbr.c constant a ParamSpec with unit and range; ns-3 TcpBbr
 * attributes where they differ) and the send-quantum arithmetic Linux budgets in cwnd.
 */

/** Phases of the PROBE_BW gain cycle (Linux CYCLE_LEN). */
export const BBR_CYCLE_LEN = 8;
/** Linux TCP_INIT_CWND: cwnd cap before any RTT sample, and slow start below it. */
export const INIT_CWND_SEGMENTS = 10;
/** Linux sk_pacing_shift: TSO autosizing aims at 1/2^10 s (~1 ms) of data per burst. */
const PACING_SHIFT = 10;
/** GSO_MAX_SIZE - 1 - MAX_TCP_HEADER (x86-64): the largest TSO burst, bytes. */
const GSO_MAX_BYTES = 65536 - 1 - 320;
/** bbr_min_tso_rate: below 1.2 Mbit/s one-segment bursts. */
const MIN_TSO_RATE_BPS = 1.2e6;

export const BBR_PARAMS: readonly ParamSpec[] = [
  { name: 'highGain', doc: 'STARTUP pacing and cwnd gain, 2/ln 2 (Linux 739/256 in fixed point, ns-3 HighGain 2.89)', unit: 'ratio', default: 2 / Math.LN2, min: 1.01, max: 10 },
  { name: 'drainGain', doc: 'DRAIN pacing gain, 1/high gain (Linux bbr_drain_gain)', unit: 'ratio', default: Math.LN2 / 2, min: 0.01, max: 1 },
  { name: 'cwndGain', doc: 'PROBE_BW cwnd gain (Linux bbr_cwnd_gain)', unit: 'ratio', default: 2, min: 0.1, max: 10 },
  { name: 'probeUpGain', doc: 'PROBE_BW phase 0 pacing gain, probing for more bandwidth (Linux bbr_pacing_gain[0])', unit: 'ratio', default: 1.25, min: 1, max: 4 },
  { name: 'probeDownGain', doc: 'PROBE_BW phase 1 pacing gain, draining the probe\'s queue (Linux bbr_pacing_gain[1])', unit: 'ratio', default: 0.75, min: 0.01, max: 1 },
  { name: 'cycleRand', doc: 'PROBE_BW starts at phase 8 - 1 - U{0..cycleRand-1} + 1: Linux 7 (never the 0.75 phase), ns-3 6', unit: 'count', default: 7, min: 1, max: 7 },
  { name: 'bwWindowRounds', doc: 'Max-bandwidth filter window, packet-timed rounds (Linux bbr_bw_rtts = CYCLE_LEN + 2)', unit: 'count', default: 10, min: 1, max: 1000 },
  { name: 'minRttWindowS', doc: 'Min-RTT filter window; PROBE_RTT when the estimate is this old (Linux bbr_min_rtt_win_sec)', unit: 's', default: 10, min: 0.01, max: 3600 },
  { name: 'minRttEqualRefreshes', doc: 'An RTT sample equal to the min RTT refreshes its 10 s stamp: 0 = Linux since 2020 (rtt_us < min_rtt_us, commit 1b9e2a8c99a5: a lone flow on a steady path still enters PROBE_RTT every 10 s), 1 = ns-3 TcpBbr and Linux before (<=)', unit: 'flag', default: 0, min: 0, max: 1 },
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

/**
 * bbr_tso_segs_goal: segments per send burst at `pacingRateBps` (~1 ms of data, 2..127 segments, one
 * below 1.2 Mbit/s); ns-3's send quantum is one segment (`ns3SendQuantum` 1).
 */
export function tsoSegsGoal(pacingRateBps: number, mssBytes: number, ns3SendQuantum: boolean): number {
  if (ns3SendQuantum) return 1;
  const rateBytesPerS = pacingRateBps / 8;
  const minSegs = rateBytesPerS < MIN_TSO_RATE_BPS / 8 ? 1 : 2;
  const bytes = Math.min(rateBytesPerS / 2 ** PACING_SHIFT, GSO_MAX_BYTES);
  return Math.min(Math.max(Math.floor(bytes / mssBytes), minSegs), 0x7f);
}
