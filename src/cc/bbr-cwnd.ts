import type { Bbr } from './bbr.js';
import { bdpBytes, quantizationBudget } from './bbr-bdp.js';
import { INIT_CWND_SEGMENTS } from './bbr-params.js';
import type { CaState, RateConnection, RateSample, TcpState } from './types.js';

/**
 * BBRv1's congestion window (Linux tcp_bbr.c bbr_set_cwnd with bbr_set_cwnd_to_recover_or_restore;
 * ns-3 TcpBbr::SetCwnd / ModulateCwndForRecovery): cwnd grows towards cwnd gain x BDP plus the
 * ACK-aggregation allowance and the send-quantum budget; packet conservation in the first round of a
 * recovery, the cwnd from before it restored on the way out; PROBE_RTT caps it at the minimum.
 */

/**
 * Linux's `state >= TCP_CA_Recovery` (TCP_CA_Open < Disorder < CWR < Recovery < Loss). Two string
 * compares: a table read with the state as key went through V8's megamorphic keyed lookup, twice
 * per ACK.
 */
export function inRecoveryOrLoss(state: CaState): boolean {
  return state === 'recovery' || state === 'loss';
}

/** bbr_set_cwnd. */
export function setCwnd(b: Bbr, tcb: TcpState, rs: RateSample, conn: RateConnection): void {
  const mss = tcb.mssBytes;
  const acked = rs.ackedSackedBytes;
  let cwnd = tcb.cwndBytes;
  if (acked > 0) {
    cwnd = recoverOrRestore(b, tcb, rs, conn);
    if (!b.packetConservation) {
      b.updateAckAggregationCwnd();
      let target = bdpBytes(b, tcb, b.bwNowBytesPerS, b.cwndGain) + b.ackAggregationCwndBytes;
      target = quantizationBudget(b, tcb, target);
      if (b.fullBwReached) cwnd = Math.min(cwnd + acked, target);
      else if (cwnd < target || conn.deliveredBytes < INIT_CWND_SEGMENTS * mss) cwnd += acked;
      cwnd = Math.max(cwnd, b.p.minCwndSegments! * mss);
    }
  }
  if (b.mode === 'probe_rtt') cwnd = Math.min(cwnd, b.p.minCwndSegments! * mss);
  tcb.cwndBytes = cwnd;
}

/**
 * bbr_set_cwnd_to_recover_or_restore: packet conservation in the first recovery round, restore
 * after. Returns the cwnd to start from; `b.packetConservation` says whether it is conserving packets.
 */
function recoverOrRestore(b: Bbr, tcb: TcpState, rs: RateSample, conn: RateConnection): number {
  const state = tcb.caState;
  const prev = b.prevCaState;
  const acked = rs.ackedSackedBytes;
  let cwnd = tcb.cwndBytes;
  if (rs.lostBytes > 0) cwnd = Math.max(cwnd - rs.lostBytes, tcb.mssBytes);
  if (state === 'recovery' && prev !== 'recovery') {
    b.packetConservation = true;
    b.nextRoundDeliveredBytes = conn.deliveredBytes; // the round starts now
    cwnd = tcb.bytesInFlight + acked;
  } else if (inRecoveryOrLoss(prev) && !inRecoveryOrLoss(state)) {
    cwnd = Math.max(cwnd, b.priorCwndBytes);
    b.packetConservation = false;
  }
  b.prevCaState = state;
  return b.packetConservation ? Math.max(cwnd, tcb.bytesInFlight + acked) : cwnd;
}
