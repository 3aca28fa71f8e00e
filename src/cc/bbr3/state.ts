/**
 * BBRv3's per-flow state and the per-ACK facts it reads, named after draft-ietf-ccwg-bbr-06
 * (section 2, "Terminology": BBR.* algorithm state, RS.* rate sample, C.* connection state) with the
 * unit in the name. Volumes are bytes, times seconds, rates bytes per second, as the draft
 * RECOMMENDS (Google v3 counts packets and packets per microsecond << 24).
 */

export type Bbr3Mode = 'startup' | 'drain' | 'probe_bw_down' | 'probe_bw_cruise' | 'probe_bw_refill' | 'probe_bw_up' | 'probe_rtt';

/** How the ACK stream relates to bandwidth probing (draft BBR.ack_phase, v3 bbr_ack_phase). */
export type AckPhase = 'init' | 'refilling' | 'probe_starting' | 'probe_feedback' | 'probe_stopping';

/**
 * One ACK as BBR sees it: the rate sample (draft 4.1, Linux tcp_rate.c) and the connection state
 * after the sender processed the ACK.
 */
export interface Bbr3Ack {
  nowS: number;
  /** RS.delivery_rate, bytes/s; 0 when the ACK gives no valid sample. */
  deliveryRateBytesPerS: number;
  /** RS.delivered: bytes delivered over the sample's interval. */
  deliveredBytes: number;
  /** RS.prior_delivered: C.delivered when the newest acknowledged packet was sent; -1 without a sample. */
  priorDeliveredBytes: number;
  /** RS.rtt of the newest acknowledged packet, s; -1 when none. */
  rttS: number;
  /** RS.is_app_limited. */
  isAppLimited: boolean;
  /** RS.tx_in_flight: C.inflight when the newest acknowledged packet was sent. */
  txInFlightBytes: number;
  /** RS.lost: bytes marked lost between that packet's transmission and this ACK. */
  lostBytes: number;
  /** RS.newly_acked: bytes cumulatively or selectively acknowledged by this ACK. */
  newlyAckedBytes: number;
  /** RS.newly_lost: bytes newly marked lost on this ACK. */
  newlyLostBytes: number;
  /** C.delivered after this ACK. */
  cDeliveredBytes: number;
  /** C.inflight after this ACK (RFC 6675 pipe). */
  inflightBytes: number;
  /** C.is_cwnd_limited: cwnd was fully used at some point in the last round. */
  isCwndLimited: boolean;
  /** The sender is in fast recovery (Linux TCP_CA_Recovery). */
  inFastRecovery: boolean;
}

/** A lost packet as the draft's HandleLostPacket(P) sees it (v3 bbr_skb_marked_lost). */
export interface Bbr3LostPacket {
  /** P.size, bytes. */
  sizeBytes: number;
  /** P.tx_in_flight: C.inflight when P was sent, P included. */
  txInFlightBytes: number;
  /** C.lost - P.lost: bytes marked lost since P was sent, P included. */
  lostSinceTxBytes: number;
  /** P.is_app_limited. */
  isAppLimited: boolean;
}

/** The draft's BBR.* variables (names kept, units added). */
export class Bbr3State {
  mode: Bbr3Mode = 'startup';
  pacingGain = -0;
  cwndGain = -0;

  // Round counting (draft 5.5.1).
  roundCount = 0;
  roundStart = false;
  nextRoundDeliveredBytes = -0;

  // Data-rate model.
  maxBwBytesPerS = -0;
  bwShorttermBytesPerS = Infinity;
  bwBytesPerS = -0;
  cycleCount = 0;
  bwLatestBytesPerS = -0;

  // Data-volume model.
  minRttS = Infinity;
  minRttStampS = -0;
  extraAckedBytes = -0;
  extraAckedIntervalStartS = -0;
  extraAckedDeliveredBytes = -0;
  inflightLongtermBytes = Infinity;
  inflightShorttermBytes = Infinity;
  inflightLatestBytes = -0;
  maxInflightBytes = -0;

  // Congestion signals.
  isLossInRound = false;
  lossRoundDeliveredBytes = -0;
  lossRoundStart = false;
  /** ACKs that marked losses in this loss round (v3 loss_events_in_round; STARTUP's loss exit). */
  lossEventsInRound = 0;

  // STARTUP / full pipe.
  fullBwReached = false;
  fullBwNow = false;
  fullBwBytesPerS = -0;
  fullBwCount = 0;
  drainStartRound = 0;

  // ProbeBW.
  ackPhase: AckPhase = 'init';
  isBwProbeSample = false;
  bwProbeUpAckedBytes = -0;
  probeUpAckedPerIncBytes = Infinity;
  bwProbeUpRounds = 0;
  roundsSinceProbeUp = 0;
  bwProbeWaitS = -0;
  cycleStampS = -0;
  prevProbeTooHigh = false;
  prevProbePrecautionary = false;

  // ProbeRTT and min_rtt.
  probeRttMinDelayS = Infinity;
  probeRttMinStampS = -0;
  probeRttExpired = false;
  probeRttDoneStampS = -0;
  probeRttRoundDone = false;
  idleRestart = false;
  priorCwndBytes = -0;

  // Undo (draft 5.5.10).
  undoState: Bbr3Mode | null = null;
  undoBwShorttermBytesPerS = -0;
  undoInflightShorttermBytes = -0;
  undoInflightLongtermBytes = -0;

  // Control parameters (C.*) BBR owns.
  pacingRateBytesPerS = -0;
  sendQuantumBytes = -0;
  /** The first RTT sample re-seeds the initial pacing rate (draft InitPacingRate; v3 has_seen_rtt). */
  hasSeenRtt = false;

  constructor() {
    // The fields declared `= -0` hold doubles and start as one, then are set here (src/tcp/rate-sampler.ts
    // says why: a field typed a small integer at first and a double later throws away the optimized ACK
    // path when the double arrives; at 100 BBRv3 flows that happened after it was compiled).
    this.pacingGain = this.cwndGain = 1;
    this.nextRoundDeliveredBytes = this.maxBwBytesPerS = this.bwBytesPerS = this.bwLatestBytesPerS = 0;
    this.minRttStampS = this.extraAckedBytes = this.extraAckedIntervalStartS = this.extraAckedDeliveredBytes = 0;
    this.inflightLatestBytes = this.maxInflightBytes = this.lossRoundDeliveredBytes = this.fullBwBytesPerS = 0;
    this.bwProbeUpAckedBytes = this.bwProbeWaitS = this.cycleStampS = this.probeRttMinStampS = 0;
    this.probeRttDoneStampS = this.priorCwndBytes = this.undoBwShorttermBytesPerS = 0;
    this.undoInflightShorttermBytes = this.undoInflightLongtermBytes = this.pacingRateBytesPerS = this.sendQuantumBytes = 0;
  }
}

export function isInProbeBwState(mode: Bbr3Mode): boolean {
  return mode === 'probe_bw_down' || mode === 'probe_bw_cruise' || mode === 'probe_bw_refill' || mode === 'probe_bw_up';
}

/** Draft IsProbingBW (v3 bbr_is_probing_bandwidth): the states that push inflight up. */
export function isProbingBw(mode: Bbr3Mode): boolean {
  return mode === 'startup' || mode === 'probe_bw_refill' || mode === 'probe_bw_up';
}
