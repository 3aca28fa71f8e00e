import { inSlowStart } from '../cc/common.js';
import type { CaState, TcpState } from '../cc/types.js';

/**
 * The mutable TCP control block shared with the congestion-control algorithm (ns-3's
 * TcpSocketState). The sender keeps `bytesInFlight`, `srttS`, `minRttS` and `caState` current
 * before every hook call; the algorithm writes `cwndBytes` (and may write `ssthreshBytes`).
 */
export class Tcb implements TcpState {
  cwndBytes: number;
  ssthreshBytes: number;
  bytesInFlight = 0;
  srttS = 0;
  minRttS = Infinity;
  caState: CaState = 'open';
  /** Infinity: unpaced (see TcpState.pacingRateBps). */
  pacingRateBps = Infinity;
  /** The window was used up at a send of the current usage window (Linux tp->is_cwnd_limited). */
  private cwndUsedUp = false;
  /** The largest flight (RFC 6675 pipe) of the current usage window, bytes (Linux tp->max_packets_out; ns-3 m_maxBytesInFlight). */
  private maxFlightBytes = 0;
  /** The usage window ends when SND.UNA reaches this (Linux tp->cwnd_usage_seq; ns-3 m_cwndUsageSeq). */
  private usageEndSeq = 0;

  constructor(
    readonly mssBytes: number,
    initialCwndBytes: number,
    initialSsthreshBytes: number | null,
    /** SACK negotiated (TcpState.sackEnabled). */
    readonly sackEnabled: boolean,
  ) {
    this.cwndBytes = initialCwndBytes;
    this.ssthreshBytes = initialSsthreshBytes ?? Infinity;
  }

  /** TcpState.isCwndLimited, as Linux tcp_is_cwnd_limited: in slow start, cwnd may grow to twice what was in flight. */
  get isCwndLimited(): boolean {
    if (this.cwndUsedUp) return true;
    return inSlowStart(this) && this.cwndBytes < 2 * this.maxFlightBytes;
  }

  /**
   * Records how the window was used after the sender filled it (Linux tcp_cwnd_validate's first
   * part, ns-3 TcpSocketState::UpdateCwndUsage). The signal is per usage window, one flight long: a
   * window that was used up once stays "limited" until SND.UNA passes what was outstanding then, so a
   * flight that shrinks as its ACKs return does not stop growth; a window that was never used up
   * keeps the largest flight it saw.
   */
  noteWindowUse(usedUp: boolean, unaSeq: number, sndNxtSeq: number, flightBytes: number): void {
    if (unaSeq >= this.usageEndSeq || usedUp || (!this.cwndUsedUp && flightBytes > this.maxFlightBytes)) {
      this.cwndUsedUp = usedUp;
      this.maxFlightBytes = flightBytes;
      this.usageEndSeq = sndNxtSeq;
    }
  }
}
