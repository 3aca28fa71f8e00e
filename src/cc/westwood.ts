/**
 * Westwood+: S. Mascolo, L. A. Grieco, R. Ferorelli, P. Camarda, G. Piscitelli, "Performance
 * evaluation of Westwood+ TCP congestion control", Performance Evaluation 55 (2004); the bandwidth
 * estimator of Linux `net/ipv4/tcp_westwood.c`; the loss response of ns-3 `TcpWestwoodPlus`
 * (src/internet/model/tcp-westwood-plus.cc), its counterpart in the ns-3 agreement check.
 *
 * - Bandwidth estimate (BWE), Linux style, on ACKs and without a timer: the bytes acknowledged are
 *   summed into `bk`; on the first ACK after more than max(RTT, 50 ms) has passed since the window
 *   began (RTT = latest sample; 50 ms = Linux TCP_WESTWOOD_RTT_MIN), the sample bk / elapsed goes
 *   through Linux's two-stage filter, bw_ns = (7 bw_ns + sample) / 8, bw = (7 bw + bw_ns) / 8 (the
 *   first sample fills both stages). ns-3 instead samples on a timer with a Tustin filter (alpha 0.9);
 *   both settle on the delivery rate.
 * - DupACKs count as Linux `westwood_acked_count` does: a dupACK means a segment left the network,
 *   so it adds 1 MSS to bk and to an `accounted` debt; the cumulative ACK that follows is reduced by
 *   that debt so no byte is counted twice (ns-3 counts a dupACK as 1 segment without the debt).
 * - ssthresh is cut from the ESTIMATE: max(BWE x RTTmin, 2 MSS) on every loss (dupacks or timeout),
 *   as ns-3 `GetSsThresh`; RTTmin is the sender's smallest RTT sample (ns-3 `tcb->m_minRtt`; Linux
 *   resets its own minimum after a timeout, we do not). When fast recovery completes, cwnd = ssthresh
 *   (Linux CA_EVENT_COMPLETE_CWR; ns-3 TcpClassicRecovery does the same).
 * - Recovery: 'newreno'. ns-3 runs Westwood+ under TcpClassicRecovery, whose partial ACKs keep the
 *   sender in recovery (NewReno style), so we pick 'newreno' to match the reference.
 * - Counting choice (param `segmentCounting`): Westwood+ changes only the decrease; the increase is
 *   Reno's. Default 0 = ns-3's (TcpWestwoodPlus inherits TcpNewReno: slow start by segments, then
 *   MSS x MSS / cwnd per ACK, halved by delayed ACKs). 1 = Linux's (`tcp_reno_cong_avoid`: per
 *   acknowledged segment, ~1 MSS per RTT with delayed ACKs).
 */
import type {
  AckSample,
  CaState,
  CongestionControl,
  CongestionControlFactory,
  LossKind,
  ParamSpec,
  TcpState,
} from './types.js';
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
];

/** Linux `westwood_do_filter`: one stage of the 7/8 EWMA. */
function filter7of8(prev: number, sample: number): number {
  return (7 * prev + sample) / 8;
}

export class WestwoodPlus implements CongestionControl {
  readonly id = 'westwood' as const;
  readonly recovery = 'newreno' as const;

  /** Filtered bandwidth estimate, bytes/s (Linux `bw_est`). */
  bweBytesPerS = 0;
  /** First filter stage, bytes/s (Linux `bw_ns_est`). */
  private bwNs = 0;
  /** Bytes counted in the current sampling window (Linux `bk`). */
  private bk = 0;
  /** Bytes credited for dupACKs and not yet matched by a cumulative ACK (Linux `accounted`). */
  private accounted = 0;
  private windowStartS = Number.NaN;
  /** Latest RTT sample, s; 0 before the first (Linux `w->rtt`). */
  private lastRttS = 0;
  /** Smallest RTT sample this algorithm saw, s: used only if the sender has none. */
  private ownMinRttS = Infinity;
  private lastState: CaState = 'open';
  private readonly credit: AiCredit = { cnt: 0 };
  private readonly segmentCounting: boolean;

  constructor(params: Readonly<Record<string, number>>) {
    this.segmentCounting = (params.segmentCounting ?? 0) === 1;
  }

  onAck(tcb: TcpState, ack: AckSample): void {
    if (Number.isNaN(this.windowStartS)) this.windowStartS = ack.nowS;
    // As Linux: close the window (if an RTT has passed) before counting this ACK's bytes.
    const elapsed = ack.nowS - this.windowStartS;
    if (this.lastRttS > 0 && elapsed > Math.max(this.lastRttS, WESTWOOD_MIN_WINDOW_S)) {
      this.sample(this.bk / elapsed);
      this.bk = 0;
      this.windowStartS = ack.nowS;
    }
    this.bk += this.ackedCount(tcb, ack);
    if (ack.rttS !== undefined && ack.rttS > 0) {
      this.lastRttS = ack.rttS;
      this.ownMinRttS = Math.min(this.ownMinRttS, ack.rttS);
    }
  }

  ssthresh(tcb: TcpState, _kind: LossKind, _nowS: number): number {
    const rttMin = Number.isFinite(tcb.minRttS) ? tcb.minRttS : this.ownMinRttS;
    const bdp = Number.isFinite(rttMin) ? Math.floor(this.bweBytesPerS * rttMin) : 0;
    return Math.max(bdp, 2 * tcb.mssBytes);
  }

  increaseWindow(tcb: TcpState, ack: AckSample): void {
    if (this.segmentCounting) linuxRenoIncrease(tcb, this.credit, ack);
    else newRenoIncrease(tcb, ack);
  }

  onStateChange(tcb: TcpState, state: CaState, _nowS: number): void {
    // Fast recovery completed: cwnd = ssthresh = BWE x RTTmin (Linux CA_EVENT_COMPLETE_CWR).
    if (this.lastState === 'recovery' && state === 'open') tcb.cwndBytes = tcb.ssthreshBytes;
    if (state === 'recovery' || state === 'loss') this.credit.cnt = 0;
    this.lastState = state;
  }

  /** Linux `westwood_filter`; the first sample fills both stages. */
  private sample(bytesPerS: number): void {
    if (this.bwNs === 0 && this.bweBytesPerS === 0) {
      this.bwNs = bytesPerS;
      this.bweBytesPerS = bytesPerS;
    } else {
      this.bwNs = filter7of8(this.bwNs, bytesPerS);
      this.bweBytesPerS = filter7of8(this.bweBytesPerS, this.bwNs);
    }
  }

  /** Linux `westwood_acked_count`: bytes this ACK says have left the network. */
  private ackedCount(tcb: TcpState, ack: AckSample): number {
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
