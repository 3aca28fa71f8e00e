import { describe, expect, it } from 'vitest';
import { WestwoodPlus, westwood } from '../../src/cc/westwood.js';
import { dupAck, makeTcb, MSS, newAck, runRounds, type MutableTcb } from './helpers.js';

/** Feed one full-segment ACK every `gapS` seconds from `fromS` to `toS` (exclusive); returns the next time. */
function feed(cc: WestwoodPlus, tcb: MutableTcb, fromS: number, toS: number, gapS: number, rttS = 0.1): number {
  let t = fromS;
  for (; t < toS - 1e-12; t += gapS) cc.onAck(tcb, newAck(t, 1, MSS, rttS));
  return t;
}

describe('westwood', () => {
  it('westwood has recovery "newreno" (ns-3 TcpClassicRecovery with partial ACKs)', () => {
    expect(westwood.create({ segmentCounting: 0 }).recovery).toBe('newreno');
  });

  it('westwood BWE equals a constant delivery rate fed as ACKs (1 MSS per ms = 1e6 B/s)', () => {
    const cc = new WestwoodPlus({});
    const tcb = makeTcb();
    feed(cc, tcb, 0, 2, 0.001);
    expect(cc.bweBytesPerS).toBeCloseTo(1e6, 0);
  });

  it('westwood BWE stays 0 until a full RTT window has passed', () => {
    const cc = new WestwoodPlus({});
    const tcb = makeTcb();
    feed(cc, tcb, 0, 0.1, 0.001);
    expect(cc.bweBytesPerS).toBe(0);
  });

  it('westwood BWE converges through the two 7/8 filters after a rate change (1e6 -> 2e6 B/s)', () => {
    const cc = new WestwoodPlus({});
    const tcb = makeTcb();
    const t = feed(cc, tcb, 0, 2, 0.001);
    feed(cc, tcb, t, t + 0.35, 0.0005);
    const early = cc.bweBytesPerS; // ~3 samples at the new rate: the filter is still far behind
    expect(early).toBeGreaterThan(1e6);
    expect(early).toBeLessThan(1.2e6);
    feed(cc, tcb, t + 0.35, t + 12, 0.0005);
    expect(cc.bweBytesPerS / 2e6).toBeCloseTo(1, 3);
  });

  it('westwood samples once per max(RTT, 50 ms): with a 10 ms RTT the window is 50 ms', () => {
    const cc = new WestwoodPlus({});
    const tcb = makeTcb();
    feed(cc, tcb, 0, 0.05, 0.001, 0.01);
    expect(cc.bweBytesPerS).toBe(0); // 50 ms not yet exceeded
    feed(cc, tcb, 0.05, 0.052, 0.001, 0.01);
    expect(cc.bweBytesPerS).toBeCloseTo(1e6, 0);
  });

  it('westwood counts a dupACK as one MSS delivered (a segment left the network)', () => {
    const cc = new WestwoodPlus({});
    const tcb = makeTcb();
    for (let t = 0; t < 2; t += 0.001) cc.onAck(tcb, { ...dupAck(t), rttS: 0.1 });
    expect(cc.bweBytesPerS).toBeCloseTo(1e6, 0);
  });

  it('westwood does not count twice the segments a cumulative ACK after dupACKs covers', () => {
    const cc = new WestwoodPlus({});
    const tcb = makeTcb();
    // One segment delivered per ms; every 4th ms a hole: 3 dupACKs then an ACK of 4 segments.
    let t = 0;
    for (let i = 0; i < 2000; i++, t += 0.001) {
      const ack = i % 4 === 3 ? newAck(t, 4, MSS, 0.1) : { ...dupAck(t), rttS: 0.1 };
      cc.onAck(tcb, ack);
    }
    expect(cc.bweBytesPerS).toBeCloseTo(1e6, 0); // naive counting would give 1.75e6
  });

  it('westwood.ssthresh(tcb) = BWE x RTTmin (1e6 B/s x 80 ms = 80000 B)', () => {
    const cc = new WestwoodPlus({});
    const tcb = makeTcb({ minRttS: 0.08, cwndBytes: 500 * MSS, bytesInFlight: 500 * MSS });
    feed(cc, tcb, 0, 2, 0.001);
    expect(cc.ssthresh(tcb, 'dupacks', 2)).toBe(Math.floor(cc.bweBytesPerS * 0.08));
    expect(cc.ssthresh(tcb, 'dupacks', 2)).toBeGreaterThanOrEqual(79_999);
    expect(cc.ssthresh(tcb, 'dupacks', 2)).toBeLessThanOrEqual(80_000);
    expect(cc.ssthresh(tcb, 'timeout', 2)).toBe(cc.ssthresh(tcb, 'dupacks', 2));
  });

  it('westwood.ssthresh(tcb) has a floor of 2 MSS (no estimate yet, or a tiny one)', () => {
    const cc = new WestwoodPlus({});
    expect(cc.ssthresh(makeTcb({ cwndBytes: 100 * MSS }), 'dupacks', 0)).toBe(2 * MSS);
    const tcb = makeTcb({ minRttS: 0.001 });
    feed(cc, tcb, 0, 2, 0.001);
    expect(cc.ssthresh(tcb, 'dupacks', 2)).toBe(2 * MSS); // 1e6 x 1 ms = 1000 B < 2 MSS
  });

  it('westwood.ssthresh(tcb) is independent of cwnd and flight size', () => {
    const cc = new WestwoodPlus({});
    const a = makeTcb({ cwndBytes: 10 * MSS, bytesInFlight: 10 * MSS });
    feed(cc, a, 0, 2, 0.001);
    const b = makeTcb({ cwndBytes: 400 * MSS, bytesInFlight: 300 * MSS });
    expect(cc.ssthresh(a, 'dupacks', 2)).toBe(cc.ssthresh(b, 'dupacks', 2));
  });

  it('westwood sets cwnd = ssthresh when fast recovery completes, not after a timeout', () => {
    const cc = new WestwoodPlus({});
    const tcb = makeTcb({ cwndBytes: 60 * MSS, ssthreshBytes: 40 * MSS });
    cc.onStateChange(tcb, 'recovery', 1);
    cc.onStateChange(tcb, 'open', 1.2);
    expect(tcb.cwndBytes).toBe(40 * MSS);
    tcb.cwndBytes = 3 * MSS;
    cc.onStateChange(tcb, 'loss', 2);
    cc.onStateChange(tcb, 'open', 2.5);
    expect(tcb.cwndBytes).toBe(3 * MSS);
  });

  it('westwood (default, ns-3 counting) grows ~1/2 MSS per RTT under delayed ACKs', () => {
    const cc = westwood.create({ segmentCounting: 0 });
    const tcb = makeTcb({ cwndBytes: 20 * MSS, ssthreshBytes: 10 * MSS });
    runRounds(cc, tcb, 10, { rttS: 0.1, segsPerAck: 2 });
    expect((tcb.cwndBytes - 20 * MSS) / MSS).toBeGreaterThan(4.5);
    expect((tcb.cwndBytes - 20 * MSS) / MSS).toBeLessThanOrEqual(5);
  });

  it('westwood with segmentCounting = 1 (Linux) grows exactly 1 MSS per RTT under delayed ACKs', () => {
    const cc = westwood.create({ segmentCounting: 1 });
    const tcb = makeTcb({ cwndBytes: 20 * MSS, ssthreshBytes: 10 * MSS });
    runRounds(cc, tcb, 10, { rttS: 0.1, segsPerAck: 2 });
    expect(tcb.cwndBytes).toBe(30 * MSS);
  });

  it('westwood on a loss-free ACK clock estimates cwnd / RTT', () => {
    const cc = westwood.create({ segmentCounting: 1 });
    const tcb = makeTcb({ cwndBytes: 50 * MSS, ssthreshBytes: 50 * MSS });
    // Large cwnd, slow linear growth: the delivery rate is ~cwnd / RTT = 50-60 segments per 100 ms.
    runRounds(cc, tcb, 30, { rttS: 0.1 });
    const bwe = (cc as WestwoodPlus).bweBytesPerS;
    expect(bwe).toBeGreaterThan(500_000);
    expect(bwe).toBeLessThan((tcb.cwndBytes / 0.1) * 1.01);
  });
});
