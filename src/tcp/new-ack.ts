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
  // The segments this ACK delivered (newly SACKed + newly acknowledged, not bytes SACKed before:
  // ns-3's currentDelivered, Linux's acked_sacked). Without SACK nothing is ever SACKed, so this is
  // the cumulative count.
  const delivered = ev.deliveredBytes;
  let segs = Math.floor(delivered / mss);
  s.ackCarryBytes += delivered % mss;
  if (s.ackCarryBytes >= mss) {
    segs++;
    s.ackCarryBytes -= mss;
  }
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
  // With SACK, an ACK that moves SND.UNA can still leave the new head lost (Linux tcp_time_to_recover).
  if (s.recovery.usesSack && s.sb.una < s.sb.highTx && lossDetected(s)) {
    s.setState('disorder');
    startRecovery(s, ev);
  }
}
