import type { TcpSender } from './sender.js';

/**
 * The sender's ACK processing and loss-recovery state machine (open / disorder / recovery / loss),
 * after ns-3's TcpSocketBase::ReceivedAck, ProcessAck and DupAck with TcpClassicRecovery and SACK
 * off, which is what `tcp-variants-comparison --sack=false` runs. The algorithm's `recovery` picks:
 * - 'newreno' (RFC 6582): a partial ACK retransmits the next hole and stays in recovery; the timer
 *   is restarted only on the first partial ACK (ns-3 m_isFirstPartialAck); a full ACK exits with
 *   cwnd = ssthresh;
 * - 'reno' (RFC 5681 3.2): any new ACK ends recovery (deflating cwnd to ssthresh); remaining holes
 *   need new duplicate ACKs or the timer;
 * - 'none' (Tahoe): on the 3rd duplicate ACK, retransmit the hole, cwnd = 1 MSS, slow start once
 *   the ACKs pass the old SND.NXT ('loss' state until `recover`); further holes wait for the timer.
 * Duplicate ACKs are ignored in 'loss' (ns-3: they may come from spurious go-back-N copies).
 */
export function onAckArrival(s: TcpSender, ackNo: number, tsEcrNs: number, rwndBytes: number): void {
  const una0 = s.sndUna;
  // RFC 793: an ACK below SND.UNA is stale; one above what was sent is ignored.
  if (ackNo < una0 || ackNo > s.highTx) return;
  s.rwndBytes = rwndBytes;
  const tcb = s.tcb;
  const sample = s.sample;
  sample.nowS = s.nowS;
  sample.rttS = undefined;
  if (s.rtt.eligible(una0, ackNo, s.highTx, s.mss)) {
    let r = (s.sim.nowNs - tsEcrNs) / 1e9;
    if (r <= 0) r = 1e-6;
    s.rto.sample(r);
    sample.rttS = r;
    tcb.srttS = s.rto.srttS;
    if (r < tcb.minRttS) tcb.minRttS = r;
  }
  const isDup = ackNo === una0 && ackNo < s.highTx;
  if (ackNo === una0) {
    if (isDup) {
      sample.bytesAcked = 0;
      sample.segmentsAcked = 1; // ns-3 PktsAcked(1): one segment left the network
      sample.duplicate = true;
      tcb.bytesInFlight = s.pipeBytes();
      s.cc.onAck?.(tcb, sample);
      onDupAck(s);
    }
    s.sendPending();
    return;
  }
  newAck(s, ackNo, una0);
  s.sendPending();
}

function onDupAck(s: TcpSender): void {
  const state = s.tcb.caState;
  if (state === 'loss') return;
  if (state !== 'recovery') s.dupAcks++;
  if (state === 'open') s.setState('disorder');
  if (s.tcb.caState === 'recovery') {
    addRenoSack(s);
    s.cwndInflBytes += s.mss;
    return;
  }
  const thresh = s.config.dupAckThreshold;
  const allowed = s.sndUna >= s.recover || !s.recoverActive;
  // RFC 6675 IsLost(HighACK+1) without SACK: more than dupThresh-1 segments seen above the hole.
  // ns-3 IsLost(head) is the head's lost mark (the artefact may have set it), if marks lie above it.
  if ((s.dupAcks === thresh && allowed) || s.sackedSegs > thresh - 1 || (s.headLostMark && s.sackedSegs > 0)) {
    enterRecovery(s);
  } else {
    addRenoSack(s); // limited transmit (RFC 3042)
  }
}

/** One more segment above the hole reached the receiver (ns-3 TcpTxBuffer::AddRenoSack). */
function addRenoSack(s: TcpSender): void {
  const outstandingSegs = Math.ceil((s.highTx - s.sndUna) / s.mss);
  if (s.sackedSegs < outstandingSegs - 1) s.sackedSegs++;
}

function enterRecovery(s: TcpSender): void {
  const tcb = s.tcb;
  addRenoSack(s);
  s.recover = s.highTx;
  s.recoverActive = true;
  s.fastRecoveries++;
  if (s.cc.recovery === 'none') {
    // Tahoe (4.3BSD-Tahoe tcp_input): retransmit the missing segment only, cwnd = 1 MSS, and slow
    // start once the ACKs catch up. SND.NXT stays where it was: a go-back-N here would resend
    // segments the receiver holds, whose duplicate ACKs set off the next (spurious) fast
    // retransmit, and with cwnd = 1 MSS that cycle never ends. Further holes are left to the timer.
    tcb.bytesInFlight = s.pipeBytes();
    tcb.ssthreshBytes = s.cc.ssthresh(tcb, 'dupacks', s.nowS);
    s.setState('loss');
    tcb.cwndBytes = s.mss;
    s.cwndInflBytes = s.mss;
    s.dupAcks = 0;
    s.sackedSegs = 0;
    s.retransmitHead();
    return;
  }
  s.setState('recovery');
  // ns-3 without SACK passes BytesInFlight() + 1 MSS: the head is counted lost, then added back.
  tcb.bytesInFlight = s.pipeBytes();
  tcb.ssthreshBytes = s.cc.ssthresh(tcb, 'dupacks', s.nowS);
  tcb.cwndBytes = tcb.ssthreshBytes;
  s.cwndInflBytes = tcb.ssthreshBytes + s.dupAcks * s.mss;
  s.retransmitHead();
}

function newAck(s: TcpSender, ackNo: number, una0: number): void {
  const tcb = s.tcb;
  const mss = s.mss;
  const bytesAcked = ackNo - una0;
  let segs = Math.floor(bytesAcked / mss);
  s.ackCarryBytes += bytesAcked % mss;
  if (s.ackCarryBytes >= mss) {
    segs++;
    s.ackCarryBytes -= mss;
  }
  const oldDup = s.dupAcks;
  s.dupAcks = 0;
  // Segments leaving the scoreboard take their Reno-SACK marks with them (the head never had one).
  const k = Math.ceil(bytesAcked / mss);
  // ns-3 marks dupACK "sacks" on the segments right after the head, in order; if the marks reach
  // past the acknowledged segments, the new head carries one: ns-3 moves it on and marks the head
  // lost (retransmitted spuriously). Only with the ns-3 artefact switch.
  s.headLostMark = false;
  if (s.config.ns3HeadSackArtefact === true && s.sackedSegs >= k && ackNo < s.highTx) {
    s.headLost = true;
    s.headLostMark = true;
  }
  s.sackedSegs = Math.max(0, s.sackedSegs - Math.max(0, k - 1));
  s.sndUna = ackNo;
  if (s.sndNxt < ackNo) s.sndNxt = ackNo;
  const outstandingSegs = Math.ceil((s.highTx - ackNo) / mss);
  if (s.sackedSegs > outstandingSegs - 1) s.sackedSegs = Math.max(0, outstandingSegs - 1);
  s.rtt.acked(ackNo);

  const sample = s.sample;
  sample.bytesAcked = bytesAcked;
  sample.duplicate = false;
  const state = tcb.caState;

  if (state === 'recovery' && ackNo < s.recover && s.cc.recovery === 'newreno') {
    // RFC 6582 partial ACK: retransmit the next hole, stay in recovery.
    sample.segmentsAcked = 1;
    callOnAck(s);
    if (segs >= 1) s.cwndInflBytes += mss;
    if (!s.rtt.isRetransmitted(ackNo)) {
      s.retransmitHead();
      s.cwndInflBytes = Math.max(0, s.cwndInflBytes - bytesAcked);
    }
    restartTimer(s, s.firstPartialAck);
    s.firstPartialAck = false;
    return;
  }
  if (state === 'loss' && ackNo < s.recover) {
    // Still repairing after a timeout (or Tahoe fast retransmit): slow start continues.
    sample.segmentsAcked = segs;
    callOnAck(s);
    s.cc.increaseWindow(tcb, sample);
    s.cwndInflBytes = tcb.cwndBytes;
    restartTimer(s, true);
    return;
  }
  let exitedRecovery = false;
  if (state === 'open') {
    sample.segmentsAcked = segs;
    callOnAck(s);
  } else if (state === 'disorder') {
    sample.segmentsAcked = Math.max(0, segs - oldDup);
    callOnAck(s);
    s.setState('open');
  } else if (state === 'recovery') {
    s.firstPartialAck = true;
    segs = Math.floor(bytesAcked / mss);
    sample.segmentsAcked = segs;
    callOnAck(s);
    s.setState('open');
    exitedRecovery = true;
  } else {
    s.firstPartialAck = true;
    segs = Math.max(0, Math.floor((ackNo - s.recover) / mss));
    sample.segmentsAcked = segs;
    callOnAck(s);
    s.setState('open');
  }
  if (ackNo >= s.recover) s.recoverActive = false;
  if (exitedRecovery) {
    tcb.cwndBytes = tcb.ssthreshBytes;
    s.cwndInflBytes = tcb.ssthreshBytes;
  }
  sample.segmentsAcked = segs;
  s.cc.increaseWindow(tcb, sample);
  s.cwndInflBytes = tcb.cwndBytes;
  restartTimer(s, true);
}

function callOnAck(s: TcpSender): void {
  s.tcb.bytesInFlight = s.pipeBytes();
  s.cc.onAck?.(s.tcb, s.sample);
}

/** ns-3 NewAck: new data acknowledged, RTO from the estimator (back-off dropped), timer restarted. */
function restartTimer(s: TcpSender, reset: boolean): void {
  if (s.sndUna >= s.highTx) {
    s.rto.restart();
    s.stopRto();
    return;
  }
  if (reset) {
    s.rto.restart();
    s.armRto();
  }
}
