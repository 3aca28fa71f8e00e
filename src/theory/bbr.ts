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
}

/** One BBRv1 flow alone on a drop-tail bottleneck, in PROBE_BW with PROBE_RTT every minRttWindowS. */
export interface BbrSteadyState {
  /** 'pacing-limited': the probe's queue fits the buffer; 'buffer-overflow': the 1.25 phase overflows it every cycle. */
  regime: 'pacing-limited' | 'buffer-overflow';
  /** Queue the 1.25 phase builds over one min_rtt before the 0.75 phase drains it, packets (before the buffer caps it). */
  probeQueuePackets: number;
  /** Peak queue, packets: the probe's, capped by the buffer. */
  peakQueuePackets: number;
  /** Time-mean queue over a gain cycle, packets (a triangle of one RTT up and the drain down, over 8 RTTs). */
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
 * One BBRv1 flow's steady state [D] from the gain cycle (Cardwell et al. 2016; Linux tcp_bbr.c).
 * The max filter holds the link rate c (a lone flow's delivery samples cannot exceed it), pacing is
 * g (1 - m) c. The 1.25 phase lasts one min_rtt l: the queue grows at (g_up (1 - m) - 1) c for l, to
 * Q = (g_up (1 - m) - 1) c l; the 0.75 phase drains it at (1 - g_down (1 - m)) c (Linux ends that
 * phase once inflight is back at the BDP). A buffer q below Q drops Q - q per cycle of
 * sum(g) (1 - m) c l packets. Between probes the flow paces at (1 - m) c and keeps no queue, so the
 * cwnd cap (2 BDP) does not bind for one flow: it bounds the queue at (cwndGain - 1) BDP when the
 * estimate exceeds c (several BBR flows: Scherrer et al. 2022, Ware et al. 2019 §4.2).
 * PROBE_RTT every minRttWindowS: the flow drains to 4 packets (the link stays busy while the pipe
 * empties), holds 4 packets for probeRttS (the link nearly idle) and refills the pipe in one RTT.
 */
export function bbrSteadyState(path: BbrPath, k: BbrKnobs): BbrSteadyState {
  const { linkPps: c, baseRttS: l, bufferPackets: q } = path;
  const m = k.pacingMarginPercent / 100;
  const bdp = c * l;
  const up = k.probeUpGain * (1 - m);
  const down = k.probeDownGain * (1 - m);
  const cruise = 1 - m;
  const probeQueue = Math.max(0, up - 1) * bdp;
  const peak = Math.min(q, probeQueue);
  // The queue rises at (up - 1) c until the buffer caps it, stays there to the end of the probe's
  // RTT, then falls at (1 - down) c: a trapezoid over a cycle of 8 RTTs.
  const riseS = probeQueue > 0 ? Math.min(l, peak / ((up - 1) * c)) : 0;
  const drainS = down < 1 ? peak / ((1 - down) * c) : Infinity;
  const area = (peak * riseS) / 2 + peak * (l - riseS) + (peak * drainS) / 2;
  const meanQueue = Number.isFinite(drainS) ? Math.min(peak, area / (BBR_CYCLE_PHASES * l)) : peak;
  const sentPerCycle = (k.probeUpGain + k.probeDownGain + (BBR_CYCLE_PHASES - 2)) * (1 - m) * bdp;
  const dropped = Math.max(0, probeQueue - q);
  // The up and down phases keep the link busy while a queue is there; the cruise phases idle it by m.
  const probeBwUtilisation = (2 + (BBR_CYCLE_PHASES - 2) * cruise) / BBR_CYCLE_PHASES;
  const probeRttShare = k.probeRttS > 0 ? (k.probeRttS + l) / (k.minRttWindowS + k.probeRttS + l) : 0;
  return {
    regime: dropped > 0 ? 'buffer-overflow' : 'pacing-limited',
    probeQueuePackets: probeQueue,
    peakQueuePackets: peak,
    meanQueuePackets: meanQueue,
    lossRate: sentPerCycle > 0 ? dropped / sentPerCycle : 0,
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
