import type { Variant } from '../variants.js';

/**
 * The congestion-control plug-in interface of the packet engine, after Linux's `tcp_congestion_ops`
 * and ns-3's `TcpCongestionOps`. An algorithm is a small object of hooks with private per-flow state;
 * it sees only the TCP state below and the ACK facts it is handed, never the simulator, a timer or a
 * packet. The sender owns loss detection, retransmission and the recovery state machine; the algorithm
 * owns the window arithmetic.
 */

/**
 * Linux/ns-3 congestion states. 'cwr' (Linux TCP_CA_CWR, ns-3 CA_CWR) is the window reduction an
 * ECN-Echo starts (RFC 3168 6.1.2): entered from 'open' or 'disorder', left when an ACK covers more
 * than what was outstanding at the reduction; only flows that negotiated ECN ever enter it.
 */
export type CaState = 'open' | 'disorder' | 'cwr' | 'recovery' | 'loss';

/** What the sender shares with the algorithm (ns-3's TcpSocketState). Windows in bytes, as ns-3. */
export interface TcpState {
  readonly mssBytes: number;
  /** The algorithm writes cwnd in increaseWindow and on state changes. */
  cwndBytes: number;
  /** Set by the sender from ssthresh(); an algorithm may also set it (e.g. HyStart). */
  ssthreshBytes: number;
  /**
   * Data sent and not yet cumulatively acknowledged (RFC 5681 FlightSize). In `onAck` it already
   * excludes what that ACK acknowledges (the packet engine updates it first; HyStart relies on it).
   */
  readonly bytesInFlight: number;
  /** RFC 6298 SRTT; 0 before the first sample. */
  readonly srttS: number;
  /** Smallest RTT sample seen; Infinity before the first sample. */
  readonly minRttS: number;
  readonly caState: CaState;
  /**
   * SACK was negotiated (RFC 2018): the sender's scoreboard takes SACK blocks and loss recovery follows
   * RFC 6675. Linux tcp_is_sack(tp); BBRv3's C.has_selective_acks (draft-ietf-ccwg-bbr), which decides
   * whether losses are judged by their rate or any loss counts.
   */
  readonly sackEnabled: boolean;
  /**
   * The window, not the peer's window, the send buffer, the application or the pacer, is what limits
   * sending (Linux tcp_is_cwnd_limited; ns-3 TcpSocketState::IsCwndLimited): the window was used up at
   * some send of the current usage window, or, in slow start, cwnd is below twice the largest flight of
   * that window. Algorithms that grow cwnd only while it is validated read it (RFC 7661 4.3: a window
   * that is not used says nothing about the path, so it must not grow).
   */
  readonly isCwndLimited: boolean;
  /**
   * Pacing rate, payload bits per second; Infinity = unpaced (the value of every flow that never
   * sets it). A paced sender spaces departure i + 1 at least len_i x 8 / pacingRateBps after departure
   * i (Linux sk_pacing_rate with internal pacing / fq; ns-3 TcpSocketState::m_pacingRate). A rate-based
   * algorithm writes it in {@link CongestionControl.congControl}; for the others the sender sets it
   * from cwnd / SRTT when the scenario asks for pacing (Linux tcp_update_pacing_rate). Written only
   * where pacing is on: without pacing nothing reads it.
   */
  pacingRateBps: number;
}

/**
 * One delivery-rate sample, made per ACK by src/tcp/rate-sampler.ts as Linux `tcp_rate_gen` makes
 * `struct rate_sample` (net/ipv4/tcp_rate.c) and ns-3 `TcpRateLinux::GenerateSample` its
 * `TcpRateSample`. Bytes, not Linux's packets (as ns-3). Reused by the sender: read it in the hook,
 * do not keep it.
 */
export interface RateSample {
  /**
   * When the ACK was processed, s (Linux tp->tcp_mstamp, the clock tcp_rate_gen and cong_control read;
   * ns-3 Simulator::Now() in CongControl). A field, not an argument of congControl: a time past 2^31 ns
   * handed to a call V8 does not inline is a new heap number on every ACK.
   */
  nowS: number;
  /** Bytes delivered (SACKed or cumulatively acknowledged) between the sampled segment's send and now; -1 if invalid (rs->delivered, ns-3 m_delivered). */
  deliveredBytes: number;
  /** max(send interval, ACK interval), s; -1 if invalid or below the minimum RTT (rs->interval_us, ns-3 m_interval). */
  intervalS: number;
  /** deliveredBytes x 8 / intervalS, bits/s; 0 when the sample is invalid (ns-3 m_deliveryRate). */
  deliveryRateBps: number;
  /** Send phase: from the first to the last send of the sampled flight, s (rs->snd_interval_us, ns-3 m_sendElapsed). */
  sendIntervalS: number;
  /** ACK phase: from the delivery time recorded at the sampled segment's send to now, s (rs->rcv_interval_us, ns-3 m_ackElapsed). */
  ackIntervalS: number;
  /** RTT of the most recently sent segment this ACK delivered that was never retransmitted, s; -1 if none (rs->rtt_us, Linux ca_rtt_us). */
  rttS: number;
  /** The sampled segment was sent while the application had nothing to send (rs->is_app_limited). */
  isAppLimited: boolean;
  /** The sampled segment was a retransmission (rs->is_retrans). */
  isRetrans: boolean;
  /** Bytes newly marked lost while this ACK was processed (rs->losses, ns-3 m_bytesLoss). */
  lostBytes: number;
  /** Bytes this ACK newly SACKed or cumulatively acknowledged (rs->acked_sacked, ns-3 m_ackedSacked). */
  ackedSackedBytes: number;
  /** RFC 6675 pipe before this ACK was processed, bytes (rs->prior_in_flight, ns-3 m_priorInFlight). */
  priorInFlightBytes: number;
  /** The connection's delivered count when the sampled segment was sent, bytes (rs->prior_delivered, ns-3 m_priorDelivered). */
  priorDeliveredBytes: number;
  /**
   * RFC 6675 pipe just after the sampled segment was sent, that segment included (Google's BBRv3
   * tcp_rate.c: rs->tx_in_flight from TCP_SKB_CB(skb)->tx.in_flight; draft-ietf-ccwg-bbr RS.tx_in_flight); 0 without a sample.
   */
  txInFlightBytes: number;
  /**
   * Bytes marked lost between the sampled segment's send and this ACK (Google's BBRv3: rs->lost =
   * tp->lost - tx.lost; draft-ietf-ccwg-bbr RS.lost); 0 without a sample. `lostBytes` is this ACK's alone.
   */
  lostSinceTxBytes: number;
}

/**
 * A rate sample with the given fields and nothing else measured (no delivery, interval or RTT: -1 or
 * 0, as Linux's struct rate_sample initialisers): the sampler's reused sample before its first ACK,
 * or the one-loss sample bbr_set_state hands the long-term sampler at an RTO.
 */
export function rateSample(fields: Partial<RateSample>): RateSample {
  return {
    nowS: 0,
    deliveredBytes: -1,
    intervalS: -1,
    deliveryRateBps: 0,
    sendIntervalS: 0,
    ackIntervalS: 0,
    rttS: -1,
    isAppLimited: false,
    isRetrans: false,
    lostBytes: 0,
    ackedSackedBytes: 0,
    priorInFlightBytes: 0,
    priorDeliveredBytes: 0,
    txInFlightBytes: 0,
    lostSinceTxBytes: 0,
    ...fields,
  };
}

/**
 * The connection-wide delivery state (Linux `tcp_sock` delivered / delivered_mstamp / app_limited;
 * ns-3 `TcpRateConnection`). Read-only but for {@link appLimitedUntilBytes}, which BBR writes when it
 * enters PROBE_RTT (Linux bbr_update_min_rtt: "ignore low rate samples during this mode").
 */
export interface RateConnection {
  /** Bytes delivered so far (tp->delivered, ns-3 m_delivered). */
  readonly deliveredBytes: number;
  /** When deliveredBytes last grew, s (tp->delivered_mstamp, ns-3 m_deliveredTime). */
  readonly deliveredTimeS: number;
  /** Send time of the most recently delivered segment, s (tp->first_tx_mstamp, ns-3 m_firstSentTime). */
  readonly firstTxTimeS: number;
  /**
   * 0, or the delivered count (bytes) after which the current app-limited period ends (tp->app_limited,
   * ns-3 m_appLimited): segments sent while it is non-zero give app-limited samples.
   */
  appLimitedUntilBytes: number;
  /** Bytes ever marked lost (tp->lost), as of the last ACK. */
  readonly lostBytes: number;
  /** The last non-app-limited sample, or the highest app-limited one: bytes, s, flag (tp->rate_delivered, rate_interval_us, rate_app_limited). */
  readonly rateDeliveredBytes: number;
  readonly rateIntervalS: number;
  readonly rateAppLimited: boolean;
}

/**
 * One segment the sender has just marked lost, with the rate state it recorded when it sent that
 * segment (Linux hands `skb_marked_lost` the skb, whose TCP_SKB_CB(skb)->tx fields Google's BBRv3
 * reads; draft-ietf-ccwg-bbr HandleLostPacket(P) reads P.tx_in_flight, P.lost, P.is_app_limited).
 * Reused by the sender: read it in the hook, do not keep it.
 */
export interface LostSegment {
  /** Sequence number of the segment's first byte. */
  seq: number;
  /** P.size, bytes (tcp_skb_pcount x MSS in Linux). */
  sizeBytes: number;
  /** RFC 6675 pipe just after the segment's latest transmission, the segment included (tx.in_flight, P.tx_in_flight). */
  txInFlightBytes: number;
  /** Bytes marked lost between that transmission and now, this segment included (tp->lost - tx.lost; C.lost - P.lost). */
  lostSinceTxBytes: number;
  /** The transmission was application-limited (tx.is_app_limited, P.is_app_limited). */
  isAppLimited: boolean;
}

/** Facts about one arriving ACK. */
export interface AckSample {
  nowS: number;
  /** Bytes newly acknowledged cumulatively by this ACK (0 for a duplicate ACK). */
  bytesAcked: number;
  /** Segments newly acknowledged (ns-3's segmentsAcked, rounded up): 2 for a delayed ACK. */
  segmentsAcked: number;
  /** True for a duplicate ACK. */
  duplicate: boolean;
  /** RTT measured by this ACK, when it yields one (Karn's rule / timestamps decide). */
  rttS?: number;
}

/** A tunable knob of an algorithm, with metadata that drives validation, docs and sweeps. */
export interface ParamSpec {
  name: string;
  doc: string;
  unit: string;
  default: number;
  min: number;
  max: number;
}

/**
 * Why ssthresh is asked for: a loss found by duplicate ACKs/SACK, a retransmission timeout, or an
 * ECN-Echo (RFC 3168 6.1.2: the sender reacts "as for a lost packet", without retransmitting).
 */
export type LossKind = 'dupacks' | 'timeout' | 'ecn';

/**
 * What the sender hands the algorithm on every ACK of a flow that negotiated ECN (RFC 3168), before
 * `onAck`. Linux passes the flag as `in_ack_event(sk, CA_ACK_ECE)` and DCTCP counts
 * `tp->delivered` against it (tcp_dctcp.c dctcp_update_alpha); ns-3 has DCTCP read
 * `tcb->m_ecnState == ECN_ECE_RCVD` in `PktsAcked`. Reused between calls.
 */
export interface EcnAck {
  nowS: number;
  /** The ACK carried ECN-Echo (classic: a CE since the last CWR; DCTCP: the CE state of what it acknowledges). */
  ece: boolean;
  /** Bytes this ACK newly delivered: cumulatively acknowledged plus newly SACKed (Linux acked_sacked). */
  deliveredBytes: number;
  /** The ACK's cumulative acknowledgement number (SND.UNA after it). */
  ackNo: number;
  /** SND.NXT: one past the highest byte sent (DCTCP's WindowEnd, RFC 8257 3.3). */
  sndNxt: number;
}

export interface CongestionControl {
  readonly id: Variant;
  /**
   * What the sender does after `dupAckThreshold` duplicate ACKs:
   * - 'none': Tahoe; fast retransmit, then cwnd = 1 MSS and slow start (RFC 5681 without 3.2 step 4-6).
   * - 'reno': RFC 5681 fast recovery with window inflation; leaves recovery on the first new ACK.
   * - 'newreno': RFC 6582; partial ACKs retransmit the next hole and stay in recovery.
   */
  readonly recovery: 'none' | 'reno' | 'newreno';
  /** (required) New ssthresh in bytes after a loss event; returns it, does not set it (ns-3 GetSsThresh). */
  ssthresh(tcb: TcpState, kind: LossKind, nowS: number): number;
  /** (required) Grow cwnd for an ACK of new data while in 'open' state: slow start and congestion avoidance. */
  increaseWindow(tcb: TcpState, ack: AckSample): void;
  /**
   * (optional) The connection starts, before it sends anything (Linux `init`, ns-3 `Init(tcb)`): e.g.
   * BBR's first pacing rate from cwnd and a nominal RTT (bbr_init_pacing_rate_from_rtt).
   */
  init?(tcb: TcpState, nowS: number): void;
  /** (optional) Every ACK, in any state, before the sender acts on it: RTT samples, bandwidth estimation. */
  onAck?(tcb: TcpState, ack: AckSample): void;
  /**
   * (optional) The sender changed state (entering 'cwr'/'recovery'/'loss' marks a congestion event; Linux
   * `set_state`, ns-3 `CongestionStateSet`). A rate-based algorithm learns here when recovery begins
   * and ends (Linux bbr_set_state; BBR's packet conservation in the first recovery round and its cwnd
   * restore on the way out read `tcb.caState` in congControl, as bbr_set_cwnd_to_recover_or_restore).
   */
  onStateChange?(tcb: TcpState, state: CaState, nowS: number): void;
  /**
   * (optional) Rate-based control, after Linux `tcp_congestion_ops.cong_control` (called from
   * tcp_cong_control at the end of tcp_ack) and ns-3 `HasCongControl` / `CongControl(tcb, rc, rs)`.
   * When present, the sender calls it once per ACK (new, duplicate or partial), after loss detection,
   * the recovery state machine and the rate sample, and the algorithm sets `cwndBytes` and
   * `pacingRateBps` itself. The sender then never calls `increaseWindow`, and its recovery strategy
   * keeps its retransmission rules but writes no cwnd (Linux skips tcp_cwnd_reduction/tcp_cong_avoid
   * for such ops). A timeout still sets cwnd = 1 MSS (Linux tcp_enter_loss). `ssthresh` is still called
   * at every loss event and timeout: that is where a rate-based algorithm learns of it (Linux
   * bbr_ssthresh saves cwnd and returns ssthresh unchanged; ns-3 TcpBbr::GetSsThresh likewise).
   * `rs.lostBytes` carries the bytes each ACK marked lost (Linux rs->losses), `rs.nowS` the ACK's time.
   */
  congControl?(tcb: TcpState, rs: RateSample, conn: RateConnection): void;
  /**
   * (optional) Rate-based algorithms only (it needs the per-segment send state the delivery-rate
   * sampler keeps): the sender marked one segment lost (Linux `skb_marked_lost`, called from
   * tcp_mark_skb_lost for RFC 6675 / RACK marks, lost retransmissions and every segment an RTO marks;
   * draft-ietf-ccwg-bbr HandleLostPacket). Called once per segment, at the moment it is marked and
   * before that ACK's `congControl` (or, at a timeout, after `onStateChange(.., 'loss')`), with the
   * connection's loss count already including it. `conn.deliveredBytes` counts what the ACK being
   * processed delivered so far (Linux updates tp->delivered in tcp_sacktag_write_queue, before the
   * marks). An algorithm without this hook gets the same losses per ACK in `rs.lostBytes`.
   */
  onPacketLost?(tcb: TcpState, lost: LostSegment, conn: RateConnection, nowS: number): void;
  /**
   * (optional) True if this algorithm must be paced whatever the scenario's `tcp.pacing` says, as
   * ns-3's TcpBbr sets tcb->m_pacing in Init and Linux BBR asks for SK_PACING_NEEDED.
   */
  readonly needsPacing?: boolean;
  /**
   * (optional) ECN flows only: every ACK, before `onAck`, with its ECN-Echo flag (Linux
   * `in_ack_event` with CA_ACK_ECE; ns-3 `PktsAcked` reading `m_ecnState`). The sender's own
   * response to ECE (once per window: `ssthresh(tcb, 'ecn')`, cwnd = ssthresh, state 'cwr') does not
   * depend on it; an algorithm uses it to measure marking (DCTCP's alpha).
   */
  onEcnAck?(tcb: TcpState, ecn: EcnAck): void;
}

/**
 * Where an instance runs: the scenario's seed and the flow's index, from which an algorithm that
 * draws random numbers (BBR's random PROBE_BW start phase, Linux prandom_u32_max) derives its own
 * seeded stream (src/engine/rng.ts rngStream(seed, name)), so the same seed gives the same run.
 */
export interface CcEnvironment {
  seed: number;
  flow: number;
}

/** A registered algorithm: its id, its knobs and a factory for per-flow instances. */
export interface CongestionControlFactory {
  readonly id: Variant;
  readonly title: string;
  readonly params: readonly ParamSpec[];
  /**
   * The algorithm needs ECN and the receiver's exact CE echo (RFC 8257 3.2) instead of RFC 3168's
   * ECE-until-CWR: Linux `TCP_CONG_NEEDS_ECN` (tcp_dctcp.c), ns-3 `m_ecnMode = DctcpEcn`. A scenario
   * running it without `tcp.ecn` is refused.
   */
  readonly needsEcn?: boolean;
  create(params: Readonly<Record<string, number>>, env?: CcEnvironment): CongestionControl;
}
