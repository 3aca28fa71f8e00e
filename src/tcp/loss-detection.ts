import type { AckEvent } from './recovery/index.js';
import type { TcpSender } from './sender.js';

/**
 * The sender's loss detection and the start of a loss event: duplicate ACKs (RFC 5681 DupThresh,
 * RFC 3042 'disorder'), RFC 6675 IsLost with SACK, the RFC 6582 `recover` guard, and what a fast
 * retransmit or a timeout does to ssthresh, the state and the scoreboard before the recovery strategy
 * (src/tcp/recovery) takes over (ns-3 TcpSocketBase::DupAck / EnterRecovery, Linux
 * tcp_fastretrans_alert / tcp_enter_recovery / tcp_enter_loss).
 */

/** A duplicate ACK (RFC 5681; with SACK it SACKed new data). */
export function onDupAck(s: TcpSender, ev: AckEvent): void {
  const tcb = s.tcb;
  const sample = s.sample;
  sample.bytesAcked = 0;
  sample.segmentsAcked = 1; // ns-3 PktsAcked(1): one segment left the network
  sample.duplicate = true;
  s.callOnAck();
  const state = tcb.caState;
  // Duplicate ACKs after a timeout may come from go-back-N copies: they start nothing.
  if (state === 'loss') return;
  if (state === 'recovery') {
    s.recovery.onAck(s, ev);
    return;
  }
  s.dupAcks++;
  if (state === 'open') {
    s.flightAtDisorderBytes = s.sb.outstandingBytes;
    s.setState('disorder');
  }
  if (lossDetected(s)) startRecovery(s, ev);
}

/** Whether the evidence in hand says the head is lost (RFC 5681 DupThresh or RFC 6675 IsLost), outside a guarded window. */
export function lossDetected(s: TcpSender): boolean {
  const sb = s.sb;
  if (s.recovery.usesSack) {
    // RFC 6675 5.1: no new recovery until HighACK reaches the RecoveryPoint of the last one.
    if (sb.una < s.recoverEnd) return false;
    // ns-3 TcpSocketBase::DupAck (sackAdvanceAck 'dupAck'): DupThresh duplicate ACKs also start one
    // (RFC 6675 5 step 1), which, once ACKs that move SND.UNA count, can come before IsLost (step 2).
    if (s.config.sackAdvanceAck === 'dupAck' && s.dupAcks === s.config.dupAckThreshold) return true;
    return sb.isLost(sb.una);
  }
  // RFC 6582 3.2 step 1: the duplicate ACKs must cover more than `recover`. By default read strictly
  // as Linux does for Reno ("hold old state until something *above* high_seq is ACKed"): an ACK equal
  // to SND.MAX at the last loss event does not qualify, because the go-back-N copies of segments the
  // receiver held come back as exactly such duplicate ACKs. 'atLeast' accepts equality: the RFC's
  // recover is the highest sequence number sent (SND.MAX - 1), and ns-3 tests m_highRxAckMark >= m_recover.
  if (s.dupAcks !== s.config.dupAckThreshold) return false;
  return s.config.recoverCheck === 'atLeast' ? sb.una >= s.recoverEnd : sb.una > s.recoverEnd;
}

/** A fast retransmit: ssthresh cut, `recover` set, the strategy entered (Tahoe: slow start instead). */
export function startRecovery(s: TcpSender, ev: AckEvent): void {
  const tcb = s.tcb;
  const sb = s.sb;
  s.audit?.recoveryStarts(s);
  s.fastRecoveries++;
  // What ssthresh is cut from: without SACK RFC 5681's FlightSize, leaving out what limited
  // transmit sent (3.2 step 2, a MUST); with SACK RFC 6675's pipe, as ns-3 passes BytesInFlight()
  // (RFC 6675 4.2 writes FlightSize; on the seed's lossy line that choice is +64% vs ns-3's NewReno).
  // `sackSsthreshInput: flightSize` hands RFC 6675 4.2's FlightSize (SND.MAX - SND.UNA) instead.
  tcb.bytesInFlight = !s.config.sack
    ? Math.min(sb.outstandingBytes, s.flightAtDisorderBytes)
    : s.config.sackSsthreshInput === 'flightSize' ? sb.outstandingBytes : sb.pipeBytes;
  // A loss in a window ECN already cut is not cut again (RFC 3168 6.1.2: once per window for CE and
  // loss alike; Linux tcp_enter_recovery skips tcp_init_cwnd_reduction when in CWR).
  if (tcb.caState !== 'cwr') tcb.ssthreshBytes = s.cc.ssthresh(tcb, 'dupacks', s.nowS);
  s.ecn?.windowReduced(sb.highTx);
  if (s.recovery.guardsRecover) s.recoverEnd = sb.highTx;
  if (!s.recovery.fastRecovery) {
    enterLoss(s);
    return;
  }
  s.setState('recovery');
  sb.rescueRxt = -1;
  // ns-3 EnterRecovery: DupThresh duplicate ACKs without IsLost(head): the head is marked lost by hand.
  if (s.recovery.usesSack && !sb.isLost(sb.una)) sb.markHeadLost();
  s.recovery.enter(s, ev);
}

/** Slow start from one segment with everything unSACKed presumed lost (timeout, Tahoe). */
export function enterLoss(s: TcpSender): void {
  const tcb = s.tcb;
  s.setState('loss');
  tcb.cwndBytes = s.mssBytes;
  s.dupAcks = 0;
  s.recoverEnd = s.sb.highTx;
  s.sb.markAllLost();
  s.ecn?.windowReduced(s.sb.highTx);
}

/** Retransmission timeout (RFC 6298 5.4-5.6, RFC 5681 eq. (4), RFC 6675 5.1). */
export function onRetransmissionTimeout(s: TcpSender): void {
  const sb = s.sb;
  if (sb.una >= sb.highTx) return;
  s.timeouts++;
  const tcb = s.tcb;
  tcb.bytesInFlight = sb.pipeBytes;
  s.rto.backoff();
  s.rtt.onTimeout(sb.highTx);
  // RFC 5681 (4): ssthresh is held if the head has already been resent by the timer.
  if (tcb.caState !== 'loss' || !s.rtt.isRetransmitted(sb.una)) {
    tcb.ssthreshBytes = s.cc.ssthresh(tcb, 'timeout', s.nowS);
  }
  if (s.rate !== null) s.rate.resetRenoSacks();
  enterLoss(s);
  s.sendPending();
}
