/**
 * Classic HyStart (Hybrid Slow Start): S. Ha and I. Rhee, "Taming the elephants: New TCP slow
 * start", Computer Networks 55(9), 2011, as Linux implements it in `net/ipv4/tcp_cubic.c`
 * (`hystart_update`, `bictcp_hystart_reset`) and ns-3 ports it into `TcpCubic`. Chosen over
 * RFC 9406 HyStart++ because it is what both reference implementations run; it leaves slow start
 * for good (no conservative-slow-start phase), setting ssthresh = cwnd.
 *
 * Two detectors, per slow-start round (a round ends when the data outstanding at its start is ACKed):
 * - ACK train: ACKs keep arriving within 2 ms of each other for longer than delayMin / 2 since the
 *   round began — the pipe is full (Linux threshold; ns-3 uses delayMin).
 * - Delay increase: the smallest of the round's first 8 RTT samples exceeds
 *   delayMin + clamp(delayMin / 8, 4 ms, 16 ms) — a queue is building (Linux HYSTART_DELAY_THRESH;
 *   ns-3 uses clamp(delayMin, 4 ms, 1 s)). With a bursty slow start through an empty queue the
 *   first ACKs of each round still see the base RTT, so on the presets it is the ACK train that
 *   fires (e.g. `lfn`: slow start ends near 1100 segments instead of overshooting to ~1900).
 * It acts only while cwnd >= 16 segments (Linux hystart_low_window). Times in seconds.
 */
import type { AckSample, TcpState } from './types.js';

/** Which detectors run (Linux `hystart_detect` bits). */
export const HYSTART_ACK_TRAIN = 1;
export const HYSTART_DELAY = 2;

/** Linux defaults (tcp_cubic.c module parameters and constants). */
export const HYSTART_LOW_WINDOW_SEGMENTS = 16;
export const HYSTART_MIN_SAMPLES = 8;
export const HYSTART_ACK_DELTA_S = 0.002;
export const HYSTART_DELAY_MIN_S = 0.004;
export const HYSTART_DELAY_MAX_S = 0.016;
/** ns-3 TcpCubic HyStartDelayMax (its threshold is delayMin itself, clamped to [4 ms, 1 s]). */
export const NS3_HYSTART_DELAY_MAX_S = 1;

export class HyStart {
  /** Set once slow start has been ended by a detector (until {@link reset}). */
  found = false;
  /** Smallest RTT seen since the last reset, s (Linux `delay_min`). */
  delayMinS = Infinity;
  private roundStartS = 0;
  private lastAckS = 0;
  /** Cumulative bytes ACKed so far, and the cumulative count that ends the current round. */
  private ackedBytes = 0;
  private roundEndBytes = 0;
  private currRttS = Infinity;
  private sampleCnt = 0;

  /**
   * @param ns3Thresholds ns-3 TcpCubic's port instead of Linux's: the ACK train must last delayMin
   *   (not delayMin / 2), the delay threshold is clamp(delayMin, 4 ms, 1 s) (not clamp(delayMin / 8,
   *   4 ms, 16 ms)), and the delay fed to both is the smoothed RTT (ns-3 passes m_srtt to PktsAcked).
   */
  constructor(
    private readonly detect: number = HYSTART_ACK_TRAIN | HYSTART_DELAY,
    private readonly ns3Thresholds = false,
  ) {}

  /** Forget everything, as after a timeout (Linux `bictcp_reset` + `bictcp_hystart_reset`). */
  reset(): void {
    this.found = false;
    this.delayMinS = Infinity;
    this.roundEndBytes = this.ackedBytes; // the next ACK of new data opens a round
  }

  /**
   * Feed one ACK (call it before the sender acts, i.e. from `onAck`). May set
   * `tcb.ssthreshBytes = tcb.cwndBytes` to leave slow start.
   *
   * @param ignoreDelay true right after a congestion epoch began (Linux discards delay samples for
   *   1 s after fast recovery).
   */
  onAck(tcb: TcpState, ack: AckSample, ignoreDelay = false): void {
    this.ackedBytes += ack.bytesAcked;
    const inSlowStart = tcb.cwndBytes < tcb.ssthreshBytes;
    if (inSlowStart && ack.bytesAcked > 0 && this.ackedBytes > this.roundEndBytes) {
      this.newRound(tcb, ack);
    }
    if (ack.rttS === undefined || ack.rttS <= 0 || ignoreDelay) return;
    const delay = this.ns3Thresholds && tcb.srttS > 0 ? tcb.srttS : ack.rttS;
    this.delayMinS = Math.min(this.delayMinS, delay);
    if (this.found || !inSlowStart) return;
    if (tcb.cwndBytes < HYSTART_LOW_WINDOW_SEGMENTS * tcb.mssBytes) return;

    if (this.detect & HYSTART_ACK_TRAIN && ack.nowS - this.lastAckS <= HYSTART_ACK_DELTA_S) {
      this.lastAckS = ack.nowS;
      if (ack.nowS - this.roundStartS > (this.ns3Thresholds ? this.delayMinS : this.delayMinS / 2)) this.exit(tcb);
    }
    if (this.detect & HYSTART_DELAY) {
      this.currRttS = Math.min(this.currRttS, delay);
      if (this.sampleCnt < HYSTART_MIN_SAMPLES) {
        this.sampleCnt++;
      } else {
        const thresh = this.ns3Thresholds
          ? Math.min(Math.max(this.delayMinS, HYSTART_DELAY_MIN_S), NS3_HYSTART_DELAY_MAX_S)
          : Math.min(Math.max(this.delayMinS / 8, HYSTART_DELAY_MIN_S), HYSTART_DELAY_MAX_S);
        if (this.currRttS > this.delayMinS + thresh) this.exit(tcb);
      }
    }
  }

  /**
   * Linux `bictcp_hystart_reset`: the round ends when everything outstanding now (SND.NXT - SND.UNA,
   * end_seq) is ACKed. `bytesInFlight` is taken as the flight after this ACK, as the packet engine
   * sets it before calling onAck; were it the flight before, the round would run one ACK longer.
   */
  private newRound(tcb: TcpState, ack: AckSample): void {
    const outstanding = Math.max(0, tcb.bytesInFlight);
    this.roundEndBytes = this.ackedBytes + outstanding;
    this.roundStartS = ack.nowS;
    this.lastAckS = ack.nowS;
    this.currRttS = Infinity;
    this.sampleCnt = 0;
  }

  private exit(tcb: TcpState): void {
    if (this.found) return;
    this.found = true;
    tcb.ssthreshBytes = tcb.cwndBytes;
  }
}
