import { describe, expect, it } from 'vitest';
import { agreementSuite, runCell, WestwoodSegmentSlowStart } from './ns3-agreement.js';

agreementSuite('lfn', describe, it, expect);

describe("lfn/westwood without SACK: why Westwood+ slow start adds one MSS per ACK, as ns-3", () => {
  it('counting segments instead resends several times as many segments after timeouts', () => {
    const perAck = runCell('lfn', 'westwood', 'nosack');
    const segments = runCell('lfn', 'westwood', 'nosack', {}, 10, { makeCc: () => new WestwoodSegmentSlowStart({}) });
    console.log(`lfn/westwood: one MSS per ACK ${perAck.medianRetransmits} retransmissions, segment counting ${segments.medianRetransmits} (ns-3 ${perAck.ns3MedianRetransmits})`);
    // After a timeout the cumulative ACKs jump over what the receiver holds: segment counting puts
    // cwnd back at ssthresh within a few ACKs and the resent window overflows the access queue again.
    expect(segments.medianRetransmits / perAck.medianRetransmits).toBeGreaterThan(4);
  }, 600_000);
});
