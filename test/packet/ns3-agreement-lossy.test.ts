import { describe, expect, it } from 'vitest';
import { agreementSuite, runCell } from './ns3-agreement.js';

agreementSuite('lossy', describe, it, expect);

describe('lossy/cubic with SACK: the growth arithmetic is the mechanism', () => {
  it("RFC 9438's real-valued curve (cntArithmetic = 0) resends and delivers far more than ns-3; ns-3's whole-segment cnt arithmetic (the ns3 profile's) agrees", () => {
    // At p = 0.1 windows are 2-4 segments: ns-3 truncates W_max, cwnd and the target to whole segments,
    // so a window at W_max waits for the friendly count (cnt up to 100 cwnd) where the real-valued curve
    // keeps adding fractions of a segment on every ACK.
    const rfc = runCell('lossy', 'cubic', 'sack', { cntArithmetic: 0 });
    const ns3 = runCell('lossy', 'cubic', 'sack');
    console.log(`lossy/cubic SACK: real-valued ${(rfc.diff * 100).toFixed(1)}%, ns-3 arithmetic ${(ns3.diff * 100).toFixed(1)}% (retransmits ${rfc.medianRetransmits} / ${ns3.medianRetransmits}, ns-3 ${ns3.ns3MedianRetransmits})`);
    expect(rfc.diff).toBeGreaterThan(0.4);
    expect(Math.abs(ns3.diff)).toBeLessThanOrEqual(0.2);
    expect(rfc.medianRetransmits).toBeGreaterThan(ns3.medianRetransmits);
  }, 600_000);
});
