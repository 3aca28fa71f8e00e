import type { Bbr } from './bbr.js';
import type { RateConnection, RateSample, TcpState } from './types.js';

/**
 * BBRv1's min-RTT filter and PROBE_RTT (Linux tcp_bbr.c bbr_update_min_rtt and
 * bbr_check_probe_rtt_done; ns-3 TcpBbr::UpdateRTprop / CheckProbeRTT / HandleProbeRTT): the min RTT
 * over a 10 s window; when the estimate is that old, PROBE_RTT holds cwnd at 4 segments until
 * max(200 ms, one round) has passed at that level, so every flow sharing the queue sees it drain and
 * measures the propagation RTT again.
 */

/** bbr_update_min_rtt: the 10 s min filter and PROBE_RTT. */
export function updateMinRtt(b: Bbr, tcb: TcpState, rs: RateSample, conn: RateConnection): void {
  const p = b.p;
  const nowS = rs.nowS;
  const expired = nowS > b.minRttStampS + p.minRttWindowS!;
  // Strictly lower (Linux since commit 1b9e2a8c99a5, "tcp: only postpone PROBE_RTT if RTT is < current
  // min_rtt estimate"): a sample equal to the estimate does not restart its 10 s, so a flow alone on a
  // path whose RTT never drops below it still probes every 10 s. ns-3 TcpBbr keeps <= (param 1).
  const lower = p.minRttEqualRefreshes === 1 ? rs.rttS <= b.minRttS : rs.rttS < b.minRttS;
  if (rs.rttS >= 0 && (lower || expired)) {
    b.minRttS = rs.rttS;
    b.minRttStampS = nowS;
  }
  if (p.probeRttS! > 0 && expired && b.mode !== 'probe_rtt') {
    b.enterProbeRtt();
    b.saveCwnd(tcb);
    b.probeRttDoneS = -Infinity;
  }
  if (b.mode !== 'probe_rtt') return;
  // Samples while inflight is held down would drag the estimate: mark them app-limited.
  conn.appLimitedUntilBytes = conn.deliveredBytes + tcb.bytesInFlight || 1;
  if (b.probeRttDoneS < 0 && tcb.bytesInFlight <= p.minCwndSegments! * tcb.mssBytes) {
    b.probeRttDoneS = nowS + p.probeRttS!;
    b.probeRttRoundDone = false;
    b.nextRoundDeliveredBytes = conn.deliveredBytes;
  } else if (b.probeRttDoneS >= 0) {
    if (b.roundStart) b.probeRttRoundDone = true;
    if (b.probeRttRoundDone && nowS > b.probeRttDoneS) exitProbeRtt(b, tcb, nowS);
  }
}

/** bbr_check_probe_rtt_done: back to the mode the pipe calls for, cwnd restored. */
function exitProbeRtt(b: Bbr, tcb: TcpState, nowS: number): void {
  b.minRttStampS = nowS;
  tcb.cwndBytes = Math.max(tcb.cwndBytes, b.priorCwndBytes);
  if (b.fullBwReached) b.enterProbeBw(nowS);
  else b.enterStartup();
}
