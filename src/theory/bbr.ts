import { tsoSegsGoal } from '../cc/bbr-params.js';

/**
 * Closed forms of BBRv1, as pure functions: one flow's steady state on a drop-tail bottleneck, and
 * Ware et al.'s share of BBR against loss-based flows. Packets, packets/s and seconds throughout.
 *
 * Sources (checked, see the notes on each function):
 * - Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson, "BBR: Congestion-Based Congestion Control",
 *   ACM Queue 14(5), 2016, and Linux net/ipv4/tcp_bbr.c: the gain cycle {1.25, 0.75, 1 x 6}, one
 *   min_rtt per phase, pacing 1% below the estimate, cwnd = 2 x BDP, PROBE_RTT every 10 s for 200 ms
 *   at 4 packets. The single-flow steady state below is derived from those rules ([D], as the Tahoe
 *   form in formulas.ts): no paper states it.
 * - Ware, Mukerjee, Seshan, Sherry, "Modeling BBR's Interactions with Loss-Based Congestion
 *   Control", IMC 2019: the in-flight cap 2 x BtlBw_est x RTT_est binds BBR under competition. Simple
 *   model (their eq. 5): one BBR flow, a queue much deeper than the BDP: 2 p (1 - p) q = (1 - p) q, so
 *   the loss-based flows' share p = 1/2 whatever their number. Extended model: RTT_est = (p q + 4N)/c
 *   + l (eq. 7), so 2 (1 - p) c ((p q + 4N)/c + l) = (1 - p)(q + c l) and p = 1/2 - 1/(2X) - 4N/q
 *   (eq. 9, X = q/(c l), clamped at 0: BBR takes the whole link); PROBE_RTT every 10 s costs
 *   Probe_time = (q/c + 0.2 + l) d/10 of a competition of d seconds (eq. 11), so BBR's share is
 *   (1 - p)(d - Probe_time)/d = (1 - p)(1 - (q/c + 0.2 + l)/10) (eq. 10; d cancels). Equations as
 *   the first author's summary (CMU CSD blog, 2024) and two public re-implementations of the paper
 *   (the IFIP Networking 2025 reproduction's `ware_BBR_Model`) write them; the algebra of eq. 9 is
 *   redone in the test. Stated there: median error 5% against CUBIC, 8% against Reno; Sarpkaya et
 *   al. (IFIP Networking 2025) find it accurate for BBRv1 against one loss-based flow.
 */

/** BBRv1's knobs the closed forms read (the defaults are Linux's, src/cc/bbr.ts BBR_PARAMS). */
export interface BbrKnobs {
  cwndGain: number;
  probeUpGain: number;
  probeDownGain: number;
  pacingMarginPercent: number;
  /** PROBE_RTT when the min-RTT estimate is this old, s. */
  minRttWindowS: number;
  /** Time at the minimum cwnd in PROBE_RTT, s (0: never PROBE_RTT). */
  probeRttS: number;
  minCwndSegments: number;
  /** 1: ns-3's one-segment send quantum instead of Linux's bursts (bbr_tso_segs_goal). */
  ns3SendQuantum?: number;
}

/** Phases of the PROBE_BW gain cycle (one probe up, one down, six at 1). */
export const BBR_CYCLE_PHASES = 8;

export interface BbrPath {
  /** Bottleneck rate, packets/s (c). */
  linkPps: number;
  /** Base round-trip time, s (l): propagation plus serialisation, queue empty. */
  baseRttS: number;
  /** Bottleneck buffer, packets (q). */
  bufferPackets: number;
  /** Segment size, bytes: sizes Linux's send bursts in the inflight targets (none when absent). */
  mssBytes?: number;
}

/** One BBRv1 flow alone on a drop-tail bottleneck, in PROBE_BW with PROBE_RTT every minRttWindowS. */
export interface BbrSteadyState {
  /** 'pacing-limited': the probe's queue fits the buffer; 'buffer-overflow': the 1.25 phase overflows it every cycle. */
  regime: 'pacing-limited' | 'buffer-overflow';
  /** Packets the 1.25 phase sends above the link rate (its queue before the buffer caps it). */
  probeQueuePackets: number;
  /** Peak queue, packets: the probe's, capped by the buffer. */
  peakQueuePackets: number;
  /** Time-mean queue over a gain cycle, packets (the probe's rise and fall, then the residue draining at m c). */
  meanQueuePackets: number;
  /** Share of packets dropped: the probe's excess over the buffer, per gain cycle's packets. */
  lossRate: number;
  /** Share of the link PROBE_BW keeps busy (the 1% margin idles it in the six cruise phases). */
  probeBwUtilisation: number;
  /** Share of time lost to PROBE_RTT: the 200 ms at 4 packets and one RTT to refill the pipe, per min-RTT window. */
  probeRttShare: number;
  /** Share of the link the flow delivers (before loss): probeBwUtilisation x (1 - probeRttShare). */
  utilisation: number;
  /** The cwnd cap's own bound on the standing queue, packets: (cwndGain - 1) x BDP (binds when the bandwidth estimate exceeds the link, e.g. several BBR flows). */
  cwndCapQueuePackets: number;
}

/**
 * One BBRv1 flow's steady state [D] from the gain cycle as Linux runs it (tcp_bbr.c; Cardwell et al.
 * 2016). The max filter holds the link rate c (a lone flow's delivery samples cannot exceed it);
 * pacing is g (1 - m) c. Queue over one cycle:
 * - up (gain 1.25): the queue grows at e c, e = g_up (1 - m) - 1. Linux ends the phase once it is a
 *   min_rtt l long and either a loss is reported or inflight (plus one send burst) reaches
 *   bbr_inflight(bw, 1.25) = 1.25 BDP + 3 bursts + 2 (bbr_is_next_cycle_phase,
 *   bbr_quantization_budget): at a queue of (g_up - 1) BDP + 2 bursts + 2. A buffer q under that
 *   fills at q / (e c) and the first drop is reported about one RTT later: the phase lasts
 *   T = max(l, min(target / (e c), q / (e c) + l)), sends e c T above the link and drops e c T - q.
 * - down (gain 0.75): the queue falls at (1 - g_down (1 - m)) c until one min_rtt has passed or
 *   inflight (plus a burst) is back at bbr_inflight(bw, 1) = BDP + 3 bursts: a residue of 2 bursts.
 * - six cruise phases at gain 1: paced 1% below c, the residue drains at m c.
 * A burst is bbr_tso_segs_goal at the phase's pacing rate (about 1 ms of data, at least 2 segments;
 * src/cc/bbr-params.ts). The cwnd cap (2 BDP) does not bind one flow: it bounds the queue at
 * (cwndGain - 1) BDP when the estimate exceeds c (several BBR flows: Scherrer et al. 2022, Ware et
 * al. 2019 §4.2). PROBE_RTT every minRttWindowS: the flow drains to 4 packets (the link stays busy
 * while the pipe empties), holds them for probeRttS (the link nearly idle) and refills in one RTT.
 */
export function bbrSteadyState(path: BbrPath, k: BbrKnobs): BbrSteadyState {
  const { linkPps: c, baseRttS: l, bufferPackets: q } = path;
  const m = k.pacingMarginPercent / 100;
  const bdp = c * l;
  const up = k.probeUpGain * (1 - m);
  const down = k.probeDownGain * (1 - m);
  const burst = (gain: number) => (path.mssBytes === undefined ? 0 : tsoSegsGoal(gain * (1 - m) * c * path.mssBytes * 8, path.mssBytes, k.ns3SendQuantum === 1));
  const e = up - 1;
  // Up: until the inflight target (or a reported loss), at least one min_rtt.
  const target = Math.max(0, k.probeUpGain - 1) * bdp + 2 * burst(k.probeUpGain) + 2;
  const upS = e > 0 ? Math.max(l, Math.min(target / (e * c), q / (e * c) + l)) : l;
  const excess = Math.max(0, e * c * upS);
  const peak = Math.min(q, excess);
  const fillS = e > 0 ? Math.min(upS, peak / (e * c)) : 0;
  const upArea = (peak * fillS) / 2 + peak * (upS - fillS);
  // Down: until one min_rtt or the residue of two bursts.
  const residue = Math.min(peak, 2 * burst(k.probeDownGain));
  const fall = Math.max(0, 1 - down) * c;
  const downS = fall > 0 ? Math.min(l, (peak - residue) / fall) : l;
  const afterDown = Math.max(0, peak - fall * downS);
  const downArea = ((peak + afterDown) / 2) * downS;
  // Cruise: six min_rtts paced 1% below the link; the residue drains at m c.
  const cruiseS = (BBR_CYCLE_PHASES - 2) * l;
  const emptyS = m > 0 ? Math.min(cruiseS, afterDown / (m * c)) : cruiseS;
  const cruiseArea = afterDown * emptyS - (m * c * emptyS * emptyS) / 2;
  const cycleS = upS + downS + cruiseS;
  const sent = c * (up * upS + down * downS + (1 - m) * cruiseS);
  const dropped = Math.max(0, excess - q);
  // The link is busy while a queue is there (up, down, the cruise until empty), else at 1 - m.
  const probeBwUtilisation = (upS + downS + emptyS + (1 - m) * (cruiseS - emptyS)) / cycleS;
  const probeRttShare = k.probeRttS > 0 ? (k.probeRttS + l) / (k.minRttWindowS + k.probeRttS + l) : 0;
  return {
    regime: dropped > 0 ? 'buffer-overflow' : 'pacing-limited',
    probeQueuePackets: excess,
    peakQueuePackets: peak,
    meanQueuePackets: (upArea + downArea + cruiseArea) / cycleS,
    lossRate: sent > 0 ? dropped / sent : 0,
    probeBwUtilisation,
    probeRttShare,
    utilisation: probeBwUtilisation * (1 - probeRttShare),
    cwndCapQueuePackets: Math.max(0, k.cwndGain - 1) * bdp,
  };
}

/** Ware et al.'s figures for N BBR flows against any number of loss-based flows. */
export interface WareShare {
  /** Buffer over BDP, q / (c l). */
  bufferBdp: number;
  /** Simple model (eq. 5): BBR's share when q >> BDP, whatever the number of loss-based flows. */
  simpleShare: number;
  /** Eq. 9 before clamping: 1/2 - 1/(2X) - 4N/q (negative: BBR's cap exceeds BDP + buffer). */
  lossBasedShareRaw: number;
  /** p, clamped to [0, 1/2]. */
  lossBasedShare: number;
  /** Eq. 7: BBR's min-RTT estimate under competition, s. */
  rttEstimateS: number;
  /** Eq. 11 over d: share of time in PROBE_RTT, (q/c + probeRttS + l) / minRttWindowS, at most 1. */
  probeTimeShare: number;
  /** Eq. 10: (1 - p)(1 - probeTimeShare): the BBR flows' aggregate share of the link. */
  extendedShare: number;
}

/**
 * Ware et al. IMC 2019, simple and extended models (module note). `bbrFlows` is N; the 4 packets per
 * flow of PROBE_RTT, the 10 s interval and the 200 ms are BBRv1's knobs (minCwndSegments,
 * minRttWindowS, probeRttS), the paper's constants by default.
 */
export function wareShare(path: BbrPath, bbrFlows: number, k: Pick<BbrKnobs, 'minRttWindowS' | 'probeRttS' | 'minCwndSegments'>): WareShare {
  const { linkPps: c, baseRttS: l, bufferPackets: q } = path;
  const x = q / (c * l);
  const probeRttInflight = k.minCwndSegments * bbrFlows;
  const raw = q > 0 ? 0.5 - 1 / (2 * x) - probeRttInflight / q : -Infinity;
  const p = Math.min(0.5, Math.max(0, raw));
  const probeTimeShare = Math.min(1, (q / c + k.probeRttS + l) / k.minRttWindowS);
  return {
    bufferBdp: x,
    simpleShare: 0.5,
    lossBasedShareRaw: raw,
    lossBasedShare: p,
    rttEstimateS: (p * q + probeRttInflight) / c + l,
    probeTimeShare,
    extendedShare: (1 - p) * (1 - probeTimeShare),
  };
}
