import type { TcpSender } from './sender.js';

/**
 * What the sender puts on the wire when its window opens: RFC 6675 NextSeg (rules 1-4) with SACK,
 * RFC 5681 (lost segments of a timeout's go-back-N first, then new data) without, each departure
 * held by pacing when the flow is paced. Sends until the window, the peer's window, the data or the
 * pacer stops it (ns-3 TcpSocketBase::SendPendingData with TcpTxBuffer::NextSeg; Linux
 * tcp_write_xmit and tcp_xmit_retransmit_queue).
 */
export function fillWindow(s: TcpSender): void {
  const before = s.segmentsSent;
  const windowUsedUp = fillUntilStopped(s);
  // Linux tcp_write_xmit: the window counts as used up when the loop stopped on it, or the flight
  // reached it anyway; tcp_cwnd_validate runs when something was sent or the window was used up.
  const sb = s.sb;
  const usedUp = windowUsedUp || sb.pipeBytes >= s.tcb.cwndBytes;
  if (usedUp || s.segmentsSent !== before) s.tcb.noteWindowUse(usedUp, sb.una, sb.highTx, sb.pipeBytes);
}

/** The send loop; true when it stopped because the window had no room for the next segment (Linux: no cwnd quota). */
function fillUntilStopped(s: TcpSender): boolean {
  const sb = s.sb;
  const mss = s.mssBytes;
  const inSackRecovery = s.recovery.usesSack && s.tcb.caState === 'recovery';
  for (;;) {
    const room = s.sendWindowBytes() - sb.pipeBytes;
    if (room <= 0) return true;
    // Rule 1 (and the timeout's retransmission queue): a lost segment not yet resent.
    const lost = sb.nextLost();
    if (lost >= 0) {
      const len = sb.segmentLength(lost);
      if (room < len) return true;
      if (s.paced()) return false;
      retransmit(s, lost, len);
      continue;
    }
    // Rule 2: new data.
    const limit = Math.min(s.appEnd, sb.una + s.config.sndBufBytes, sb.una + s.rwndBytes);
    const dataLeft = limit - sb.highTx;
    if (dataLeft > 0) {
      // Silly-window avoidance and Nagle (RFC 896), as ns-3 SendPendingData.
      if (room < mss && dataLeft > room) return true;
      if (dataLeft < mss && nagleHolds(s)) return false;
      if (s.paced()) return false;
      const len = Math.min(mss, dataLeft, room);
      const seq = sb.highTx;
      if (len < mss) s.shortSentEndSeq = seq + len; // Linux tcp_minshall_update: snd_sml
      sb.sentNew(seq, len, s.clock.nowNs);
      transmit(s, seq, len, false);
      continue;
    }
    if (!inSackRecovery) return false;
    // Rule 3: an unSACKed segment below the highest SACK, not yet resent.
    const next = sb.nextUnsackedBelowHighestSack();
    if (next >= 0) {
      const len = sb.segmentLength(next);
      if (room < len) return true;
      if (s.paced()) return false;
      retransmit(s, next, len);
      continue;
    }
    // Rule 4: one rescue retransmission per recovery, of the highest unSACKed segment (a SHOULD;
    // `rescueRetransmission: false` leaves it out, as ns-3's TcpTxBuffer::NextSeg does).
    if (s.config.rescueRetransmission !== false && (sb.rescueRxt < 0 || sb.una > sb.rescueRxt)) {
      const top = sb.highestUnsacked();
      if (top < 0) return false;
      const len = sb.segmentLength(top);
      if (room < len) return true;
      if (s.paced()) return false;
      sb.rescueRxt = s.recoverEnd;
      transmit(s, top, len, true, true);
      continue;
    }
    return false;
  }
}

/**
 * Whether Nagle's algorithm holds a segment shorter than the MSS now (TcpSpec.nagle): 'classic'
 * while anything is unacknowledged (RFC 896, ns-3), 'minshall' while an earlier short segment is
 * (Linux tcp_minshall_check: snd_sml after SND.UNA), 'off' never.
 */
function nagleHolds(s: TcpSender): boolean {
  const sb = s.sb;
  const rule = s.config.nagle;
  if (rule === undefined || rule === 'classic') return sb.highTx > sb.una;
  return rule === 'minshall' && s.shortSentEndSeq > sb.una;
}

/** Resends a segment the scoreboard holds (marked retransmitted now). */
export function retransmit(s: TcpSender, seq: number, len: number): void {
  s.sb.retransmitted(seq, s.clock.nowNs);
  transmit(s, seq, len, true);
}

/** One departure: counters, Karn's mark, the rate sampler's and the pacer's per-segment state, the network, the RTO timer. */
export function transmit(s: TcpSender, seq: number, len: number, isRetx: boolean, rescue = false): void {
  if (isRetx) {
    s.audit?.retransmits(s, seq, len, rescue);
    s.retransmits++;
    s.rtt.markRetransmitted(seq, len);
  }
  if (s.tcb.caState === 'recovery') s.recovery.onTransmit(len);
  const nowNs = s.clock.nowNs;
  const sb = s.sb;
  // New data with nothing outstanding: sentNew has just moved SND.MAX from seq (== SND.UNA).
  if (s.rate !== null) s.rate.onSend(seq, nowNs, isRetx, !isRetx && seq === sb.una, sb.una, sb.pipeBytes, sb.markedLostBytes);
  if (s.pacer !== null) {
    s.audit?.pacedDeparture?.(s, nowNs, len, s.tcb.pacingRateBps);
    s.pacer.sent(nowNs, len, s.tcb.pacingRateBps);
  }
  s.bytesSent += len;
  s.segmentsSent++;
  s.port.sendData(s.flow, seq, len, isRetx, s.ecn === null ? 0 : s.ecn.segmentBits(isRetx));
  // RFC 6298 (5.1): start the timer if it is not running.
  if (!s.rtoTimer.running) s.armRto();
}
