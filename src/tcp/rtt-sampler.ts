import { RangeSet } from './ranges.js';

/**
 * Decides which ACKs yield an RTT sample, as ns-3's RTT history does (TcpSocketBase::EstimateRtt): an
 * ACK gives a sample only if it covers the oldest outstanding segment sent since the last timeout,
 * and, under Karn's rule (TcpSpec.rttSamples 'karn', the default), that segment was never
 * retransmitted. ns-3 with the timestamp option drops the second condition (CalculateRttSample takes
 * the echo whether or not the segment was resent: 'timestamps'). The sample's value is now - TSecr
 * (RFC 7323), in exact nanoseconds (ns-3 uses 1 ms timestamp ticks). A timeout empties the history:
 * segments sent before it never give samples.
 */
export class RttSampler {
  /** Retransmitted byte ranges not yet acknowledged. */
  private readonly retransmitted = new RangeSet();
  /** Lowest sequence number eligible for sampling (ns-3 clears its history at a timeout). */
  private floor = 0;

  markRetransmitted(seq: number, len: number): void {
    this.retransmitted.add(seq, seq + len);
  }

  isRetransmitted(seq: number): boolean {
    return this.retransmitted.contains(seq);
  }

  /** A timeout: everything sent so far (below highTx) stops being eligible. */
  onTimeout(highTx: number): void {
    this.floor = highTx;
  }

  /**
   * Whether an ACK moving SND.UNA from `unaBefore` to `ack` yields a sample.
   * @param byTimestamp the timestamp echo dates the answered transmission, so a retransmitted
   *   segment gives a sample too (TcpSpec.rttSamples 'timestamps', ns-3 CalculateRttSample).
   */
  eligible(unaBefore: number, ack: number, highTx: number, mssBytes: number, byTimestamp = false): boolean {
    const front = unaBefore > this.floor ? unaBefore : this.floor;
    if (front >= highTx) return false;
    const frontEnd = Math.min(front + mssBytes, highTx);
    if (ack < frontEnd) return false;
    return byTimestamp || !this.retransmitted.contains(front);
  }

  /** Forgets retransmission marks below SND.UNA. */
  acked(una: number): void {
    if (this.retransmitted.count > 0) this.retransmitted.removeBelow(una);
  }
}
