import { lossDetected, startRecovery } from './loss-detection.js';
import type { AckEvent } from './recovery/index.js';
import type { TcpSender } from './sender.js';

/**
 * An ACK that moved SND.UNA (ns-3 TcpSocketBase::NewAck and ProcessAck, Linux tcp_ack's cumulative
 * part): the segments it delivered (the remainder carried, as ns-3's m_bytesAckedNotProcessed), the
 * algorithm's onAck, and what the congestion state makes of it: a partial ACK in recovery goes to the
 * strategy, a full one ends recovery (RFC 6582); after a timeout slow start continues until
 * `recover`; disorder and ECN's cwr end; then window growth, the timer restarted (RFC 6298 5.3), and
 * with SACK a new loss at the head starts recovery at once.
 */
export function onNewAck(s: TcpSender, ackNo: number, una0: number, ev: AckEvent): void {
  const tcb = s.tcb;
  const mss = s.mssBytes;
  const bytesAcked = ackNo - una0;
  let segs = deliveredSegments(s, ev);
  const oldDup = s.dupAcks;
  s.dupAcks = 0;
  const sample = s.sample;
  sample.bytesAcked = bytesAcked;
  sample.duplicate = false;
  const state = tcb.caState;

  if (state === 'recovery') {
    if (ackNo < s.recoverEnd && !s.recovery.exitsOnPartialAck) {
      sample.segmentsAcked = 1; // ns-3 PktsAcked(1) on a partial ACK
      s.callOnAck();
      s.recovery.onAck(s, ev);
      return;
    }
    segs = Math.floor(bytesAcked / mss);
    sample.segmentsAcked = segs;
    s.callOnAck();
    s.recovery.exit(s);
    s.setState('open');
  } else if (state === 'loss') {
    if (ackNo < s.recoverEnd) {
      // Still repairing after a timeout (or Tahoe's fast retransmit): slow start continues.
      sample.segmentsAcked = segs;
      s.callOnAck();
      s.increaseWindow();
      s.restartRtoTimer();
      return;
    }
    segs = Math.max(0, Math.floor((ackNo - s.recoverEnd) / mss));
    sample.segmentsAcked = segs;
    s.callOnAck();
    s.setState('open');
  } else if (state === 'disorder') {
    sample.segmentsAcked = Math.max(0, segs - oldDup);
    s.callOnAck();
    s.setState('open');
  } else if (state === 'cwr') {
    // ECN window reduction under way (onEcnAck ends it): no growth until it ends (Linux
    // tcp_cong_control grows cwnd only outside tcp_in_cwnd_reduction; ns-3 CA_CWR likewise).
    sample.segmentsAcked = segs;
    s.callOnAck();
    s.restartRtoTimer();
    if (s.recovery.usesSack && s.sb.una < s.sb.highTx && lossDetected(s)) startRecovery(s, ev);
    return;
  } else {
    sample.segmentsAcked = segs;
    s.callOnAck();
  }
  sample.segmentsAcked = segs;
  s.increaseWindow();
  s.restartRtoTimer();
  // With SACK, an ACK that moves SND.UNA can still leave the new head lost (Linux tcp_time_to_recover);
  // ns-3 waits for the next duplicate ACK (sackRecoveryStart 'dupAck').
  if (s.recovery.usesSack && s.config.sackRecoveryStart !== 'dupAck' && s.sb.una < s.sb.highTx && lossDetected(s)) {
    s.setState('disorder');
    startRecovery(s, ev);
  }
}

/**
 * The segments this ACK delivered (newly SACKed + newly acknowledged, not bytes SACKed before:
 * ns-3's currentDelivered, Linux's acked_sacked), the remainder carried to the next ACK (ns-3
 * m_bytesAckedNotProcessed). Without SACK nothing is ever SACKed, so this is the cumulative count.
 */
function deliveredSegments(s: TcpSender, ev: AckEvent): number {
  const mss = s.mssBytes;
  const delivered = ev.deliveredBytes;
  let segs = Math.floor(delivered / mss);
  s.ackCarryBytes += delivered % mss;
  if (s.ackCarryBytes >= mss) {
    segs++;
    s.ackCarryBytes -= mss;
  }
  return segs;
}

/**
 * sackAdvanceAck 'dupAck' (ns-3 TcpSocketBase::ProcessAck, where with SACK isDupack = "the scoreboard
 * was updated", RFC 6675's definition taken literally): an ACK that moves SND.UNA and SACKs new data
 * while the sender is open or in disorder is first a duplicate ACK (DupAck: the count goes on, open ->
 * disorder, recovery if DupThresh or IsLost says so), then a cumulative one that changes nothing else
 * in disorder: the algorithm hears of the segments beyond the earlier duplicates (PktsAcked(segsAcked -
 * oldDupAckCount)), but the window does not grow and the timer is not restarted (IncreaseWindow and
 * NewAck only in CA_OPEN). If it started recovery, it is that recovery's first partial ACK
 * (PktsAcked(1), NewAck(ack, m_isFirstPartialAck)).
 */
export function onAdvancingDupAck(s: TcpSender, ev: AckEvent): void {
  const segs = deliveredSegments(s, ev);
  const oldDup = s.dupAcks;
  const sample = s.sample;
  sample.bytesAcked = ev.ackedBytes;
  sample.duplicate = false;
  s.dupAcks++;
  if (s.tcb.caState === 'open') {
    s.flightAtDisorderBytes = s.sb.outstandingBytes;
    s.setState('disorder');
  }
  if (lossDetected(s)) {
    startRecovery(s, ev);
    sample.segmentsAcked = 1;
    s.callOnAck();
    s.recovery.onAck(s, ev);
    return;
  }
  sample.segmentsAcked = segs >= oldDup ? segs - oldDup : 0;
  s.callOnAck();
}
