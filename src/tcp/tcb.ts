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
}
