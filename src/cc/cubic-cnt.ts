/**
 * CUBIC's window growth as ns-3's `TcpCubic` computes it (src/internet/model/tcp-cubic.cc, the
 * ns-3 agreement check's reference; Linux `bictcp_update` is the same scheme in fixed point):
 * every quantity in WHOLE segments, the curve turned into a count `cnt` of acknowledged segments
 * per one-segment increase, and cwnd growing one whole segment at a time. RFC 9438's real-valued
 * curve (cubic.ts) and this scheme agree on large windows; on windows of a few segments (the
 * seed's `lossy` line, p = 0.1) the integer truncations decide the growth rate:
 * - W_max, cwnd and the curve's target are truncated to segments, so with cwnd = 2 and W_max = 3 the
 *   target is 2 or 3 and cnt is 2 or 200 (no fraction in between);
 * - the Reno-friendly estimate grows one segment per (15 cwnd) >> 3 acknowledged segments
 *   (scale 15 for beta = 0.7) and only lowers cnt, to cwnd / (W_est - cwnd);
 * - W_max survives a retransmission timeout (ns-3's CubicReset clears the epoch, K, the origin,
 *   the friendly estimate and the delay minimum, not m_lastMaxCwnd);
 * - slow start adds segmentsAcked x MSS without stopping at ssthresh (ns-3's QUICKACK stand-in).
 * The time inside the curve is t = now + delayMin - epochStart, delayMin being the smallest RTT
 * handed to PktsAcked (ns-3 passes SRTT), skipped for cubicDelta = 10 ms after an epoch starts.
 * Left out: ns-3's `m_isCwndLimited` guard (no growth while the flow is not cwnd-limited), because the
 * TcpState hooks do not carry it; cclab's bulk senders are cwnd-limited except at the receive window.
 */
import type { TcpState } from './types.js';

/** ns-3 TcpCubic CubicDelta: delay samples right after an epoch starts are discarded, s. */
const CUBIC_DELTA_S = 0.01;

export class CubicCntGrowth {
  /** ns-3 m_lastMaxCwnd, whole segments; 0 before the first loss. */
  lastMaxCwnd = 0;
  /** ns-3 m_epochStart, s; NaN = Time::Min() (no epoch). */
  epochStartS = Number.NaN;
  private bicK = 0;
  private bicOriginPoint = 0;
  private ackCnt = 0;
  private tcpCwnd = 0;
  /** ns-3 m_delayMin, s; NaN = Time::Min(). */
  private delayMinS = Number.NaN;
  /** ns-3 m_cWndCnt: segments acknowledged since the last one-segment increase. */
  private cwndCnt = 0;
  /** (8 (1024 + 1024 beta) / 3 / (1024 - 1024 beta)), truncated as ns-3's uint32_t. */
  private readonly friendlyScale: number;

  constructor(
    private readonly c: number,
    private readonly beta: number,
    private readonly fastConvergence: boolean,
    private readonly renoFriendly: boolean,
    private readonly cntClamp: number,
  ) {
    this.friendlyScale = Math.trunc((8 * (1024 + beta * 1024)) / 3 / (1024 - beta * 1024));
  }

  /** ns-3 PktsAcked: the delay minimum (rttS is SRTT, as ns-3 passes m_srtt). */
  onRtt(nowS: number, rttS: number): void {
    if (!Number.isNaN(this.epochStartS) && nowS - this.epochStartS < CUBIC_DELTA_S) return;
    if (Number.isNaN(this.delayMinS) || this.delayMinS > rttS) this.delayMinS = rttS;
  }

  /** ns-3 IncreaseWindow. */
  increaseWindow(tcb: TcpState, nowS: number, segmentsAcked: number): void {
    let segs = segmentsAcked;
    if (tcb.cwndBytes < tcb.ssthreshBytes) {
      tcb.cwndBytes += segs * tcb.mssBytes;
      segs = 0;
    }
    if (tcb.cwndBytes >= tcb.ssthreshBytes && segs > 0) {
      this.cwndCnt += segs;
      const cnt = this.update(tcb, nowS, segs);
      if (this.cwndCnt >= cnt) {
        tcb.cwndBytes += tcb.mssBytes;
        this.cwndCnt -= cnt;
      }
    }
  }

  /** ns-3 Update: the number of acknowledged segments per one-segment increase. */
  private update(tcb: TcpState, nowS: number, segmentsAcked: number): number {
    const segCwnd = Math.floor(tcb.cwndBytes / tcb.mssBytes);
    this.ackCnt += segmentsAcked;
    if (Number.isNaN(this.epochStartS)) {
      this.epochStartS = nowS;
      this.ackCnt = segmentsAcked;
      this.tcpCwnd = segCwnd;
      if (this.lastMaxCwnd <= segCwnd) {
        this.bicK = 0;
        this.bicOriginPoint = segCwnd;
      } else {
        this.bicK = Math.cbrt((this.lastMaxCwnd - segCwnd) / this.c);
        this.bicOriginPoint = this.lastMaxCwnd;
      }
    }
    const t = nowS + (Number.isNaN(this.delayMinS) ? 0 : this.delayMinS) - this.epochStartS;
    const offs = t < this.bicK ? this.bicK - t : t - this.bicK;
    const delta = Math.trunc(this.c * offs ** 3);
    const bicTarget = t < this.bicK ? this.bicOriginPoint - delta : this.bicOriginPoint + delta;
    let cnt = bicTarget > segCwnd ? Math.trunc(segCwnd / (bicTarget - segCwnd)) : 100 * segCwnd;
    if (this.lastMaxCwnd === 0 && this.cntClamp > 0 && cnt > this.cntClamp) cnt = this.cntClamp;
    if (this.renoFriendly) {
      const ackPerSeg = (segCwnd * this.friendlyScale) >> 3;
      // ns-3 loops `while (m_ackCnt > delta)`; a zero delta (cwnd 0) would never end it.
      if (ackPerSeg > 0) {
        while (this.ackCnt > ackPerSeg) {
          this.ackCnt -= ackPerSeg;
          this.tcpCwnd++;
        }
      }
      if (this.tcpCwnd > segCwnd) {
        const maxCnt = Math.trunc(segCwnd / (this.tcpCwnd - segCwnd));
        if (cnt > maxCnt) cnt = maxCnt;
      }
    }
    return Math.max(cnt, 2);
  }

  /** ns-3 GetSsThresh. */
  ssthresh(tcb: TcpState): number {
    const segCwnd = Math.floor(tcb.cwndBytes / tcb.mssBytes);
    this.lastMaxCwnd = segCwnd < this.lastMaxCwnd && this.fastConvergence ? Math.trunc((segCwnd * (1 + this.beta)) / 2) : segCwnd;
    this.epochStartS = Number.NaN;
    return Math.max(Math.trunc(segCwnd * this.beta), 2) * tcb.mssBytes;
  }

  /** ns-3 CubicReset on entering CA_LOSS: the epoch's curve goes, W_max stays. */
  reset(): void {
    this.bicOriginPoint = 0;
    this.bicK = 0;
    this.ackCnt = 0;
    this.tcpCwnd = 0;
    this.delayMinS = Number.NaN;
  }
}
