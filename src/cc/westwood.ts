/**
 * Westwood+: S. Mascolo, L. A. Grieco, R. Ferorelli, P. Camarda, G. Piscitelli, "Performance
 * evaluation of Westwood+ TCP congestion control", Performance Evaluation 55 (2004); the bandwidth
 * estimator of Linux `net/ipv4/tcp_westwood.c`; the loss response of ns-3 `TcpWestwoodPlus`
 * (src/internet/model/tcp-westwood-plus.cc), its counterpart in the ns-3 agreement check.
 *
 * - Bandwidth estimate (BWE) from the ACK stream, no timer (param `estimator`):
 *   1 (default) = ns-3 `TcpWestwoodPlus`: an ACK opens a window of one SRTT (ns-3's m_lastRtt); every
 *     ACK inside it adds segmentsAcked x MSS to bk (a dupACK or a partial ACK 1 segment, a cumulative
 *     ACK all it covers); when the window has ended the sample is bk / RTT. Time without ACKs (a
 *     retransmission timeout) lies outside every window, and the segments of a loss episode are
 *     counted twice (by their dupACKs, then by the ACK that ends recovery), which inflates the
 *     estimate after each loss. Windows are one SRTT long, as ns-3's EstimateBW timer; on `lossy`
 *     (ACKs in one burst per RTT, SRTT above the current RTT) a window often reaches into the next
 *     burst, which is what ns-3 does too.
 *   0 = Linux `tcp_westwood.c`: windows follow each other; on the first ACK after more than
 *     max(RTT, 50 ms) (TCP_WESTWOOD_RTT_MIN) the sample is bk / elapsed, idle time included; bk
 *     counts bytes acknowledged, a dupACK adds 1 MSS (a segment left the network) to bk and to an
 *     `accounted` debt that the next cumulative ACK repays (`westwood_acked_count`).
 *   Consequence of the ns-3 counting (it is ns-3's: TcpSocketBase::ProcessAck calls PktsAcked(1) for
 *   every dupACK, in any state, and PktsAcked(all covered) on the ACK that ends recovery): with an
 *   empty queue BWE x RTTmin is about cwnd (1 + cwnd p) > cwnd, so a loss RAISES the window (cwnd =
 *   ssthresh on leaving recovery). Fat pipe (1 Gbit/s, 0.1 s, p = 1e-3), seed 1: cwnd 372 -> ssthresh
 *   419, 1211 -> 1319, cwnd 194 -> 1929 in 15 s (congestion avoidance alone: +75); the run-away stops
 *   only at the queue or when holes (cwnd p per RTT) outrun NewReno's one repair per RTT, in back-to-back
 *   recoveries and timeouts (go-back-N: 17k retransmissions for 680 drops in 100 s; the receiver's
 *   dupACKs for the copies are counted too). With the Linux estimator ssthresh ~ cwnd (176.9 -> 176.6):
 *   no halving and a slow creep, Westwood+ as published. The fluid model has both (its `estimator`).
 *   Why ns-3's by default: it is what the validation reference runs, and the difference is large.
 *   Medians of 500 s runs: `lfn` (random loss 1e-3) Linux 1.34 Mbit/s, ns-3 estimator 4.49
 *   (20 seeds; ns-3 4.76): the double counting lets the window climb past the delivery rate;
 *   `lossy` (p = 0.1, many timeouts) Linux 19.6 kbit/s, ns-3 estimator 46.3 (10 seeds; ns-3
 *   50.7): Linux's estimate decays over the timeouts.
 * - Filter (param `filter`): 1 (default) = ns-3's Tustin filter, bw = 0.9 bw + 0.1 (sample +
 *   previous sample) / 2, from 0; 0 = Linux's two stages, bw_ns = (7 bw_ns + sample) / 8,
 *   bw = (7 bw + bw_ns) / 8, the first sample filling both.
 * - ssthresh is cut from the ESTIMATE: max(BWE x RTTmin, 2 MSS) on every loss (dupacks or timeout),
 *   as ns-3 `GetSsThresh`. RTTmin: with the ns-3 estimator, the smallest smoothed RTT seen, which is
 *   what ns-3's `tcb->m_minRtt` holds (on `lossy` it mattered, with the earlier estimator mix: 42 kbit/s with the smallest raw
 *   sample, 53 with it; ns-3 50.7); with the Linux one, the sender's smallest RTT sample (Linux
 *   resets its minimum after a timeout, we do not). When fast recovery completes, cwnd = ssthresh
 *   (Linux CA_EVENT_COMPLETE_CWR; ns-3 TcpClassicRecovery does the same).
 * - Recovery: 'newreno'. ns-3 runs Westwood+ under TcpClassicRecovery, whose partial ACKs keep the
 *   sender in recovery (NewReno style), so we pick 'newreno' to match the reference.
 * - Counting choice (param `segmentCounting`): Westwood+ changes only the decrease; the increase is
 *   Reno's. Default 0 = ns-3's (TcpWestwoodPlus inherits TcpNewReno: slow start one MSS per ACK,
 *   then MSS x MSS / cwnd per ACK, halved by delayed ACKs). 1 = Linux's (`tcp_reno_cong_avoid`: per
 *   acknowledged segment, ~1 MSS per RTT with delayed ACKs).
 * - Defaults are ns-3's in every mechanism (estimator, SRTT windows, Tustin, per-ACK slow start), 10
 *   seeds x 500 s against ns-3: normal +0.3%, lfn +4.0% (30.6k retransmissions, ns-3 37.8k), lossy
 *   +21.2% (over 40 seeds +17.6%; ns-3's own runs span 34-67 kbit/s). An earlier mix (raw-RTT windows,
 *   Linux filter, segment-counting slow start) matched lossy goodput by compensation but resent 5.6x
 *   ns-3's segments on lfn after timeouts (src/packet/README.md).
 */
import type { AckSample, CaState, CongestionControl, CongestionControlFactory, LossKind, ParamSpec, TcpState } from './types.js';
import type { AiCredit } from './common.js';
import { newRenoIncrease } from './newreno.js';
import { linuxRenoIncrease } from './reno.js';

/** Linux TCP_WESTWOOD_RTT_MIN (HZ / 20): shortest window over which a bandwidth sample is taken, s. */
export const WESTWOOD_MIN_WINDOW_S = 0.05;

const PARAMS: readonly ParamSpec[] = [
  {
    name: 'segmentCounting',
    doc: 'Window increase: 0 = per ACK like ns-3 TcpWestwoodPlus (TcpNewReno), 1 = per acknowledged segment like Linux tcp_reno_cong_avoid',
    unit: 'flag',
    default: 0,
    min: 0,
    max: 1,
  },
  {
    name: 'estimator',
    doc: 'Bandwidth estimator: 1 = ns-3 TcpWestwoodPlus (windows of one RTT opened by an ACK, segmentsAcked of every ACK), 0 = Linux tcp_westwood.c (ACK-paced windows of max(RTT, 50 ms), bytes with dupACK debt)',
    unit: 'flag',
    default: 1,
    min: 0,
    max: 1,
  },
  {
    name: 'filter',
    doc: 'Bandwidth filter: 0 = Linux two-stage 7/8 EWMA (first sample fills it), 1 = ns-3 Tustin (alpha 0.9, from 0)',
    unit: 'flag',
    default: 1,
    min: 0,
    max: 1,
  },
];

/** Tolerance on window ends, s. */
const TIME_SLACK_S = 1e-9;

/** ns-3 TcpWestwoodPlus Tustin filter weight. */
const TUSTIN_ALPHA = 0.9;

/** Linux `westwood_do_filter`: one stage of the 7/8 EWMA. */
function filter7of8(prev: number, sample: number): number {
  return (7 * prev + sample) / 8;
}

export class WestwoodPlus implements CongestionControl {
  readonly id = 'westwood' as const;
  readonly recovery = 'newreno' as const;

  /** Filtered bandwidth estimate, bytes/s (Linux `bw_est`). */
  bweBytesPerS = 0;
  /** First filter stage, bytes/s (Linux `bw_ns_est`); with the Tustin filter, the previous sample. */
  private bwNs = 0;
  /** Bytes counted in the current sampling window (Linux `bk`, ns-3 m_ackedSegments x MSS). */
  private bk = 0;
  /** Bytes credited for dupACKs and not yet matched by a cumulative ACK (Linux `accounted`). */
  private accounted = 0;
  /** Start of the sampling window, s; NaN while no window is open (ns-3 estimator between windows). */
  private windowStartS = Number.NaN;
  /** ns-3 estimator: length of the open window (the RTT when it opened), s. */
  private windowLenS = 0;
  /** Latest RTT sample, s; 0 before the first (Linux `w->rtt`, ns-3 m_lastRtt). */
  private lastRttS = 0;
  /** Smallest RTT sample this algorithm saw, s: used only if the sender has none. */
  private ownMinRttS = Infinity;
  /** ns-3 estimator: smallest smoothed RTT seen after an RTT sample, s (ns-3 m_minRtt). */
  private minSrttS = Infinity;
  private lastState: CaState = 'open';
  private readonly credit: AiCredit = { cnt: 0 };
  private readonly segmentCounting: boolean;
  private readonly ns3Estimator: boolean;
  private readonly tustin: boolean;

  constructor(params: Readonly<Record<string, number>>) {
    this.segmentCounting = (params.segmentCounting ?? 0) === 1;
    this.ns3Estimator = (params.estimator ?? 1) === 1;
    this.tustin = (params.filter ?? 1) === 1;
  }

  /** ns-3's m_minRtt already holds the handshake's SRTT when there was one (TcpSpec.handshakeRtt). */
  init(tcb: TcpState): void {
    if (this.ns3Estimator && tcb.srttS > 0) this.minSrttS = Math.min(this.minSrttS, tcb.srttS);
  }

  onAck(tcb: TcpState, ack: AckSample): void {
    if (this.ns3Estimator) this.ns3OnAck(tcb, ack);
    else this.linuxOnAck(tcb, ack);
  }

  /** Linux westwood_update_window + westwood_fast_bw / westwood_acked_count. */
  private linuxOnAck(tcb: TcpState, ack: AckSample): void {
    if (Number.isNaN(this.windowStartS)) this.windowStartS = ack.nowS;
    // Close the window (if an RTT has passed) before counting this ACK's bytes, as Linux does.
    const elapsed = ack.nowS - this.windowStartS;
    if (this.lastRttS > 0 && elapsed > Math.max(this.lastRttS, WESTWOOD_MIN_WINDOW_S)) {
      this.sample(this.bk / elapsed);
      this.bk = 0;
      this.windowStartS = ack.nowS;
    }
    this.bk += this.linuxAckedCount(tcb, ack);
    this.noteRtt(ack);
  }

  /**
   * ns-3 PktsAcked + EstimateBW without the timer: an ACK opens a window of one RTT (the latest
   * sample) if none is open; the ACKs inside it are counted; the sample bk / RTT is taken when the
   * window has ended (at the next ACK or loss event, which is when it can matter).
   */
  private ns3OnAck(tcb: TcpState, ack: AckSample): void {
    this.noteRtt(ack);
    // ns-3's m_minRtt is the smallest SMOOTHED RTT (EstimateRtt: m_minRtt = min(m_lastRtt), where
    // m_lastRtt = the estimator's SRTT): ssthresh uses it. ns-3 also times its windows with that SRTT.
    if (ack.rttS !== undefined && tcb.srttS > 0) this.minSrttS = Math.min(this.minSrttS, tcb.srttS);
    // ns-3 ignores ACKs until there is an RTT (its m_srtt, which the handshake may already have set).
    if (this.lastRttS <= 0 && !(tcb.srttS > 0)) return;
    this.closeDueWindow(ack.nowS);
    this.bk += (ack.duplicate ? 1 : ack.segmentsAcked) * tcb.mssBytes;
    if (Number.isNaN(this.windowStartS)) {
      this.windowStartS = ack.nowS;
      // ns-3 schedules EstimateBW one m_lastRtt later, and m_lastRtt is the estimator's SRTT.
      this.windowLenS = tcb.srttS > 0 ? tcb.srttS : this.lastRttS;
    }
  }

  private closeDueWindow(nowS: number): void {
    if (!this.ns3Estimator || Number.isNaN(this.windowStartS)) return;
    // An ACK at the very end belongs to the next window (ns-3's EstimateBW event, scheduled first,
    // runs before it); 1 ns of slack (the engine's clock tick) absorbs float rounding of start + RTT.
    if (nowS < this.windowStartS + this.windowLenS - TIME_SLACK_S) return;
    this.sample(this.bk / this.windowLenS);
    this.bk = 0;
    this.windowStartS = Number.NaN;
  }

  private noteRtt(ack: AckSample): void {
    if (ack.rttS !== undefined && ack.rttS > 0) {
      this.lastRttS = ack.rttS;
      this.ownMinRttS = Math.min(this.ownMinRttS, ack.rttS);
    }
  }

  ssthresh(tcb: TcpState, _kind: LossKind, nowS: number): number {
    this.closeDueWindow(nowS); // ns-3's timer would have taken the sample by now
    const rttMin = this.ns3Estimator && Number.isFinite(this.minSrttS)
      ? this.minSrttS
      : Number.isFinite(tcb.minRttS) ? tcb.minRttS : this.ownMinRttS;
    const bdp = Number.isFinite(rttMin) ? Math.floor(this.bweBytesPerS * rttMin) : 0;
    return Math.max(bdp, 2 * tcb.mssBytes);
  }

  increaseWindow(tcb: TcpState, ack: AckSample): void {
    if (this.segmentCounting) {
      linuxRenoIncrease(tcb, this.credit, ack);
      return;
    }
    // ns-3's TcpWestwoodPlus inherits TcpNewReno::IncreaseWindow: one MSS per ACK in slow start.
    newRenoIncrease(tcb, ack);
  }

  onStateChange(tcb: TcpState, state: CaState, _nowS: number): void {
    // Fast recovery completed: cwnd = ssthresh = BWE x RTTmin (Linux CA_EVENT_COMPLETE_CWR).
    if (this.lastState === 'recovery' && state === 'open') tcb.cwndBytes = tcb.ssthreshBytes;
    if (state === 'recovery' || state === 'loss' || state === 'cwr') this.credit.cnt = 0;
    this.lastState = state;
  }

  /**
   * Filter one bandwidth sample into the estimate. Linux `westwood_filter` (two 7/8 stages, the
   * first sample fills both), or ns-3's Tustin filter (alpha 0.9 over the mean of the last two
   * samples, starting from 0).
   */
  private sample(bytesPerS: number): void {
    if (this.tustin) {
      this.bweBytesPerS = TUSTIN_ALPHA * this.bweBytesPerS + (1 - TUSTIN_ALPHA) * ((bytesPerS + this.bwNs) / 2);
      this.bwNs = bytesPerS; // here: the previous sample (ns-3 m_lastSampleBW)
      return;
    }
    if (this.bwNs === 0 && this.bweBytesPerS === 0) {
      this.bwNs = bytesPerS;
      this.bweBytesPerS = bytesPerS;
    } else {
      this.bwNs = filter7of8(this.bwNs, bytesPerS);
      this.bweBytesPerS = filter7of8(this.bweBytesPerS, this.bwNs);
    }
  }

  /** Linux `westwood_acked_count`: bytes this ACK says have left the network. */
  private linuxAckedCount(tcb: TcpState, ack: AckSample): number {
    const mss = tcb.mssBytes;
    let cumul = ack.bytesAcked;
    if (ack.duplicate || cumul === 0) {
      this.accounted += mss;
      cumul = mss;
    }
    if (cumul > mss) {
      // A cumulative ACK after dupACKs: part of it was already counted, one MSS per dupACK.
      if (this.accounted >= cumul) {
        this.accounted -= cumul;
        cumul = mss;
      } else {
        cumul -= this.accounted;
        this.accounted = 0;
      }
    }
    return cumul;
  }
}

export const westwood: CongestionControlFactory = {
  id: 'westwood',
  title: 'Westwood+ (Mascolo et al.; Linux tcp_westwood.c; ns-3 TcpWestwoodPlus)',
  params: PARAMS,
  create: (params) => new WestwoodPlus(params),
};
