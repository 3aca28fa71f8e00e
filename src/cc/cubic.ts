/**
 * CUBIC: RFC 9438 (CUBIC for Fast and Long-Distance Networks), checked against Linux
 * `net/ipv4/tcp_cubic.c` and ns-3 `TcpCubic` (src/internet/model/tcp-cubic.cc), its counterpart in
 * the ns-3 agreement check. Window arithmetic is in segments internally (as the RFC writes it) and
 * converted to bytes for the TcpState; time in seconds.
 *
 * - W_cubic(t) = C (t - K)^3 + W_max (eq. 1), K = cbrt((W_max - cwnd_epoch) / C) (eq. 2), which is
 *   cbrt(W_max (1 - beta) / C) right after a reduction to beta x W_max. t runs from the epoch start,
 *   the first ACK of congestion avoidance after a congestion event (RFC 4.2; Linux epoch_start).
 *   If cwnd_epoch >= W_max (after a timeout, or slow start above the old maximum) K = 0 and the
 *   origin is cwnd_epoch (RFC 4.8; Linux bictcp_update).
 * - Target = W_cubic(t + RTT) clamped to [cwnd, 1.5 cwnd] (RFC 4.2); RTT = smoothed RTT (RFC; Linux
 *   and ns-3 use the minimum RTT instead).
 * - Reno-friendly region (RFC 4.3): W_est starts at cwnd_epoch and grows by alpha x segmentsAcked /
 *   cwnd, alpha = 3 (1 - beta) / (1 + beta), and alpha = 1 once W_est >= cwnd_prior (the cwnd before
 *   the last reduction). While W_cubic(t) < W_est, cwnd = W_est. Linux's tcp_friendliness and ns-3's
 *   TcpFriendliness are the same idea in integer form (param `renoFriendly` = 0 drops it).
 * - Arithmetic (param `cntArithmetic`): the default, 0, is RFC 9438's real-valued curve described
 *   here; 1 is ns-3 TcpCubic's, in whole segments with a count of acknowledged segments per
 *   one-segment increase (cubic-cnt.ts). They agree on large windows and part on small ones. ns-3
 *   agreement (median of 10 seeds vs ns-3, real-valued / ns-3 arithmetic): SACK on lossy +68% / +15%,
 *   normal -4.1 / -7.7%, lfn 0.0 / +4.6%; SACK off normal +33.6 / +27.7%, lfn +0.2 / +5.3%, lossy
 *   -12.1 / -12.9%. The default stays the RFC's because it is what the theory predicts: on `lfn`
 *   measured from 20 s (5 seeds) the real-valued curve gives a mean cwnd of 71.9 segments, the RFC's
 *   response function 75.3 and the fluid model 74.5, where ns-3's arithmetic gives 90.8 (+21%: the
 *   truncated target sits up to a segment above the curve, cnt is floored, and m_cWndCnt is never
 *   cleared at a loss).
 * - Counting choice: per acknowledged SEGMENT. Each ACK grows cwnd by segmentsAcked x
 *   (target - cwnd) / cwnd segments (RFC 4.4/4.5 state the increment per ACK; Linux and ns-3 count
 *   acked segments through `cnt`), so delayed ACKs do not slow the curve and cwnd follows W_cubic(t)
 *   in time. Fractional bytes are carried in a credit so cwnd stays whole bytes.
 * - Loss (RFC 4.6, 4.7): ssthresh is cut from CWND: max(cwnd x beta, 2 MSS). W_max = cwnd, or with
 *   fast convergence (on by default) W_max = cwnd (1 + beta) / 2 when cwnd < the previous W_max. A
 *   timeout also forgets W_max (Linux bictcp_reset on CA_Loss; ns-3 keeps it, as cubic-cnt.ts does),
 *   so the next epoch starts with K = 0.
 * - Slow start by acknowledged segments, capped at ssthresh (Linux tcp_slow_start). HyStart (param
 *   `hystart`, on by default as in Linux and ns-3; 0 for RFC 9438's plain slow start) is Linux's
 *   classic HyStart, see hystart.ts. Before the first loss (W_max = 0) growth is at least
 *   1/cntClamp of cwnd per RTT (Linux's and ns-3's cnt clamp of 20; `cntClamp` = 0 drops it).
 * - Recovery: 'newreno' (ns-3's TcpClassicRecovery, as for the other ns-3 variants).
 */
import type { AckSample, CaState, CongestionControl, CongestionControlFactory, LossKind, ParamSpec, TcpState } from './types.js';
import { inSlowStart, slowStart } from './common.js';
import { CubicCntGrowth } from './cubic-cnt.js';
import { HyStart, HYSTART_ACK_TRAIN, HYSTART_DELAY } from './hystart.js';

const PARAMS: readonly ParamSpec[] = [
  { name: 'c', doc: 'Cubic scaling constant C (RFC 9438 4.1)', unit: 'segments/s^3', default: 0.4, min: 0.01, max: 10 },
  { name: 'beta', doc: 'Multiplicative decrease factor beta_cubic (RFC 9438 4.6)', unit: 'ratio', default: 0.7, min: 0.1, max: 0.95 },
  { name: 'fastConvergence', doc: 'Fast convergence (RFC 9438 4.7): 1 on, 0 off', unit: 'flag', default: 1, min: 0, max: 1 },
  { name: 'renoFriendly', doc: 'Reno-friendly region W_est (RFC 9438 4.3): 1 on, 0 off (ns-3 TcpCubic has none)', unit: 'flag', default: 1, min: 0, max: 1 },
  { name: 'hystart', doc: 'Classic HyStart in slow start (Linux tcp_cubic.c, ns-3 TcpCubic default): 1 on, 0 off (RFC 9438 leaves slow start to RFC 5681)', unit: 'flag', default: 1, min: 0, max: 1 },
  { name: 'cntClamp', doc: 'While no loss has been seen (W_max = 0) cwnd grows at least 1/cntClamp per RTT (Linux and ns-3: cnt <= 20, 5% per RTT); 0 = RFC 9438 curve only', unit: 'count', default: 20, min: 0, max: 1000 },
  { name: 'hystartNs3', doc: 'HyStart thresholds: 0 = Linux (ACK train delayMin/2, delay clamp(delayMin/8, 4, 16 ms), RTT samples), 1 = ns-3 TcpCubic (delayMin, clamp(delayMin, 4 ms, 1 s), SRTT)', unit: 'flag', default: 0, min: 0, max: 1 },
  { name: 'cntArithmetic', doc: 'Growth arithmetic: 0 = RFC 9438 real-valued curve, 1 = ns-3 TcpCubic (whole segments, cnt per one-segment increase, W_max kept after a timeout; see cubic-cnt.ts)', unit: 'flag', default: 0, min: 0, max: 1 },
  { name: 'hystartDetect', doc: 'HyStart detectors: 1 ACK train, 2 delay increase, 3 both', unit: 'bitmask', default: HYSTART_ACK_TRAIN | HYSTART_DELAY, min: 1, max: 3 },
];

/** Linux discards HyStart delay samples for 1 s (HZ) after a congestion epoch begins. */
const DELAY_SAMPLE_HOLDOFF_S = 1;

/** RFC 9438 eq. (2): time, s, for W_cubic to climb from cwndEpoch back to wMax (segments). */
export function cubicK(wMax: number, cwndEpoch: number, c: number): number {
  return Math.cbrt(Math.max(0, wMax - cwndEpoch) / c);
}

/** RFC 9438 eq. (1): W_cubic(t), segments. */
export function wCubic(t: number, k: number, wMax: number, c: number): number {
  return c * (t - k) ** 3 + wMax;
}

/** RFC 9438 eq. (5): alpha_cubic, the Reno-friendly additive increase per RTT, segments. */
export function renoFriendlyAlpha(beta: number): number {
  return (3 * (1 - beta)) / (1 + beta);
}

export class Cubic implements CongestionControl {
  readonly id = 'cubic' as const;
  readonly recovery = 'newreno' as const;
  readonly c: number;
  readonly beta: number;
  readonly fastConvergence: boolean;
  readonly renoFriendly: boolean;
  readonly hystart: HyStart | null;
  readonly cntClamp: number;
  /** ns-3's integer growth instead of the real-valued curve (param `cntArithmetic`). */
  readonly cnt: CubicCntGrowth | null;

  /** W_max, segments; 0 = none (start of connection, or after a timeout). */
  wMax = 0;
  /**
   * RFC 9438 cwnd_prior, segments: cwnd at the last congestion event (4.6), or, before any, cwnd when
   * the first slow start ended (4.10: HyStart's exit or ssthresh reached without a loss); 0 before both.
   */
  cwndPrior = 0;
  /** A congestion event (a loss or a timeout) has happened. */
  private congested = false;
  /** Epoch start, s; NaN until the first congestion-avoidance ACK after a congestion event. */
  epochStartS = Number.NaN;
  /** K of the current epoch, s. */
  k = 0;
  /** Plateau of the current epoch's curve, segments (W_max, or cwnd_epoch when K = 0). */
  origin = 0;
  /** Reno-friendly estimate W_est, segments. */
  wEst = 0;
  /** Fraction of a byte of growth not yet added to cwnd. */
  private byteCredit = 0;

  constructor(params: Readonly<Record<string, number>>) {
    this.c = params.c ?? 0.4;
    this.beta = params.beta ?? 0.7;
    this.fastConvergence = (params.fastConvergence ?? 1) === 1;
    this.renoFriendly = (params.renoFriendly ?? 1) === 1;
    this.hystart = (params.hystart ?? 1) === 1 ? new HyStart(params.hystartDetect ?? 3, (params.hystartNs3 ?? 0) === 1) : null;
    this.cntClamp = params.cntClamp ?? 20;
    this.cnt = (params.cntArithmetic ?? 0) === 1 ? new CubicCntGrowth(this.c, this.beta, this.fastConvergence, this.renoFriendly, this.cntClamp) : null;
  }

  onAck(tcb: TcpState, ack: AckSample): void {
    // ns-3 hands PktsAcked its SRTT on every ACK, duplicate or not.
    if (this.cnt !== null && tcb.srttS > 0) this.cnt.onRtt(ack.nowS, tcb.srttS);
    if (!this.hystart) return;
    const epochStartS = this.cnt !== null ? this.cnt.epochStartS : this.epochStartS;
    const sinceEpoch = ack.nowS - epochStartS; // NaN (no epoch) compares false
    this.hystart.onAck(tcb, ack, sinceEpoch < DELAY_SAMPLE_HOLDOFF_S);
  }

  ssthresh(tcb: TcpState, kind: LossKind, _nowS: number): number {
    if (this.cnt !== null) return this.cnt.ssthresh(tcb);
    const cwnd = tcb.cwndBytes / tcb.mssBytes;
    this.wMax = this.fastConvergence && cwnd < this.wMax ? (cwnd * (1 + this.beta)) / 2 : cwnd;
    this.cwndPrior = cwnd;
    this.congested = true;
    this.epochStartS = Number.NaN;
    if (kind === 'timeout') this.forget();
    // The epsilon keeps e.g. 90000 x 0.7 = 62999.999... from flooring a byte short.
    return Math.max(Math.floor(tcb.cwndBytes * this.beta + 1e-6), 2 * tcb.mssBytes);
  }

  increaseWindow(tcb: TcpState, ack: AckSample): void {
    // Linux cubictcp_cong_avoid and ns-3 TcpCubic::IncreaseWindow both begin so: a window that does
    // not limit sending does not grow (HyStart's delay samples are taken elsewhere, in onAck).
    if (!tcb.isCwndLimited) return;
    if (this.cnt !== null) {
      this.cnt.increaseWindow(tcb, ack.nowS, ack.segmentsAcked);
      return;
    }
    let segs = ack.segmentsAcked;
    if (inSlowStart(tcb)) segs = slowStart(tcb, segs);
    // An ACK that acknowledges no whole segment neither grows cwnd nor opens an epoch (ns-3).
    if (segs <= 0) return;
    this.congestionAvoidance(tcb, ack.nowS, segs);
  }

  onStateChange(_tcb: TcpState, state: CaState, _nowS: number): void {
    if (state !== 'loss') return;
    if (this.cnt !== null) {
      this.cnt.reset();
      this.hystart?.reset();
      return;
    }
    this.forget();
  }

  /** RFC 9438 4.2-4.5 for one ACK in congestion avoidance. */
  private congestionAvoidance(tcb: TcpState, nowS: number, segs: number): void {
    const mss = tcb.mssBytes;
    const cwnd = tcb.cwndBytes / mss;
    if (Number.isNaN(this.epochStartS)) this.startEpoch(cwnd, nowS);
    const t = nowS - this.epochStartS;

    const alpha = this.wEst >= this.cwndPrior ? 1 : renoFriendlyAlpha(this.beta);
    this.wEst += (alpha * segs) / cwnd;

    // Linux bictcp_update: `if (last_max_cwnd == 0 && cnt > 20) cnt = 20`, one segment per 20 acked.
    const clampInc = this.wMax === 0 && this.cntClamp > 0 ? segs / this.cntClamp : 0;
    if (this.renoFriendly && wCubic(t, this.k, this.origin, this.c) < this.wEst) {
      // Reno-friendly region: cwnd = W_est (never shrinking cwnd on an ACK).
      this.addBytes(tcb, Math.max(0, this.wEst * mss - tcb.cwndBytes, clampInc * mss));
      return;
    }
    const rtt = tcb.srttS > 0 ? tcb.srttS : Number.isFinite(tcb.minRttS) ? tcb.minRttS : 0;
    const target = Math.min(Math.max(wCubic(t + rtt, this.k, this.origin, this.c), cwnd), 1.5 * cwnd);
    // An ACK covering more than a window (the full ACK ending a long recovery) stops at the target.
    const inc = Math.min(((target - cwnd) / cwnd) * segs, target - cwnd);
    this.addBytes(tcb, Math.max(inc, clampInc) * mss);
  }

  private startEpoch(cwnd: number, nowS: number): void {
    // RFC 9438 4.10: the first slow start ended without a congestion event (HyStart, or cwnd reached
    // an initial ssthresh): cwnd_prior = cwnd, K = 0 and W_max = cwnd (below, as wMax is 0). Numerically
    // neutral here: W_est starts at cwnd_epoch = cwnd_prior, so alpha_cubic = 1 either way (4.3).
    if (!this.congested) this.cwndPrior = cwnd;
    this.epochStartS = nowS;
    this.wEst = cwnd;
    this.byteCredit = 0;
    if (this.wMax <= cwnd) {
      this.k = 0;
      this.origin = cwnd;
    } else {
      this.k = cubicK(this.wMax, cwnd, this.c);
      this.origin = this.wMax;
    }
  }

  private addBytes(tcb: TcpState, bytes: number): void {
    this.byteCredit += bytes;
    const whole = Math.floor(this.byteCredit);
    tcb.cwndBytes += whole;
    this.byteCredit -= whole;
  }

  /** After a timeout: no W_max, no epoch, fresh HyStart (Linux bictcp_reset, ns-3 CubicReset). */
  private forget(): void {
    this.wMax = 0;
    this.epochStartS = Number.NaN;
    this.hystart?.reset();
  }
}

export const cubic: CongestionControlFactory = {
  id: 'cubic',
  title: 'CUBIC (RFC 9438; Linux tcp_cubic.c; ns-3 TcpCubic)',
  params: PARAMS,
  create: (params) => new Cubic(params),
};
