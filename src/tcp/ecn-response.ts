import type { TcpSender } from './sender.js';

/**
 * The sender's response to ECN on an arriving ACK (RFC 3168 6.1.2; Linux tcp_ack ->
 * tcp_in_ack_event(CA_ACK_ECE), then tcp_fastretrans_alert: end CWR once something above high_seq is
 * ACKed, tcp_try_to_open -> tcp_enter_cwr on ECE; ns-3 TcpSocketBase::ProcessAck's ECN_ECE_RCVD
 * branch). An ECN-Echo in 'open' or 'disorder' cuts the window once: the variant's ssthresh as for a
 * loss, cwnd = ssthresh at once (ns-3's classic recovery; Linux walks down to it with PRR over the
 * round), no retransmission, CWR owed; in 'cwr', 'recovery' or 'loss' the window has already been cut
 * for this window of data and ECE is ignored. Under rate-based control the cut is the algorithm's
 * (none for BBRv1, as in Linux). The ECN bookkeeping itself (which segments carry which
 * bits, where the reduced window ends) is {@link EcnSender}'s (src/tcp/ecn.ts).
 */
export function respondToEcn(s: TcpSender, ackNo: number, ece: boolean, deliveredBytes: number): void {
  const ecn = s.ecn!;
  const tcb = s.tcb;
  const e = ecn.ack;
  e.nowS = s.nowS;
  e.ece = ece;
  e.deliveredBytes = deliveredBytes;
  e.ackNo = ackNo;
  e.sndNxt = s.sb.highTx;
  tcb.bytesInFlight = s.sb.pipeBytes;
  s.cc.onEcnAck?.(tcb, e);
  if (tcb.caState === 'cwr' && ecn.endsCwr(ackNo)) s.setState('open');
  if (!ece) return;
  ecn.eceAcks++;
  // Only ACKs above SND.NXT at the last cut (of any cause) belong to a new window: the echo of a CE
  // from the cut window goes on until the receiver sees CWR, on the first segment above it.
  if ((tcb.caState !== 'open' && tcb.caState !== 'disorder') || !ecn.endsCwr(ackNo)) return;
  s.audit?.ecnReduces?.(s, ackNo);
  ecn.reductions++;
  tcb.ssthreshBytes = s.cc.ssthresh(tcb, 'ecn', s.nowS);
  // Rate-based control (congControl) sets cwnd itself: Linux tcp_cong_control skips
  // tcp_cwnd_reduction for ops with cong_control, so CWR is entered and CWR owed but cwnd is the
  // algorithm's (BBRv1 does not react to ECN; BBR's ssthresh is infinite, and cwnd = ssthresh made
  // it infinite).
  if (s.rate === null) tcb.cwndBytes = Math.max(tcb.ssthreshBytes, s.mssBytes);
  ecn.windowReduced(s.sb.highTx);
  s.setState('cwr');
}
