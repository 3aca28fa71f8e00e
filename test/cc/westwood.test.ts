import { describe, expect, it } from 'vitest';
import { WestwoodPlus, westwood } from '../../src/cc/westwood.js';
import type { AckSample } from '../../src/cc/types.js';
import { dupAck, makeTcb, MSS, newAck, runRounds, type MutableTcb } from './helpers.js';

// Counting is checked through Linux's 7/8 filter (the first sample fills it, so BWE = sample exactly);
// ns-3's Tustin filter, the default, has its own tests below.
const LINUX = { estimator: 0, filter: 0 };
const NS3 = { estimator: 1, filter: 0 };

/** One full-segment ACK every `gapS` for `n` ACKs from `fromS`, at (i + 1/2) x gap; returns the end time. */
function feed(cc: WestwoodPlus, tcb: MutableTcb, fromS: number, n: number, gapS: number, rttS = 0.1): number {
  for (let i = 0; i < n; i++) cc.onAck(tcb, newAck(fromS + (i + 0.5) * gapS, 1, MSS, rttS));
  return fromS + n * gapS;
}

/** Every 4th ms a hole: 3 dupACKs, then an ACK of 4 segments; one segment delivered per ms. */
function holes(cc: WestwoodPlus, tcb: MutableTcb, n: number): void {
  for (let i = 0; i < n; i++) {
    const t = (i + 0.5) / 1000;
    const ack: AckSample = i % 4 === 3 ? newAck(t, 4, MSS, 0.1) : { ...dupAck(t), segmentsAcked: 1, rttS: 0.1 };
    cc.onAck(tcb, ack);
  }
}

describe('westwood', () => {
  it('westwood has recovery "newreno" (ns-3 TcpClassicRecovery with partial ACKs)', () => {
    expect(westwood.create({}).recovery).toBe('newreno');
  });

  for (const [name, params] of [['Linux', LINUX], ['ns-3', NS3]] as const) {
    it(`westwood (${name} estimator) BWE equals a constant delivery rate fed as ACKs (1 MSS per ms = 1e6 B/s)`, () => {
      const cc = new WestwoodPlus(params);
      feed(cc, makeTcb(), 0, 2000, 0.001);
      expect(cc.bweBytesPerS / 1e6).toBeCloseTo(1, 6);
    });

    it(`westwood (${name} estimator) BWE stays 0 until a whole RTT has been sampled`, () => {
      const cc = new WestwoodPlus(params);
      feed(cc, makeTcb(), 0, 100, 0.001); // ACKs at 0 .. 99 ms
      expect(cc.bweBytesPerS).toBe(0);
    });

    it(`westwood (${name} estimator) BWE converges through the 7/8 filters after a rate change (1e6 -> 2e6 B/s)`, () => {
      const cc = new WestwoodPlus(params);
      const tcb = makeTcb();
      const t = feed(cc, tcb, 0, 2000, 0.001);
      feed(cc, tcb, t, 700, 0.0005);
      const early = cc.bweBytesPerS; // ~3 samples at the new rate: the two stages lag behind
      expect(early).toBeGreaterThan(1e6);
      expect(early).toBeLessThan(1.2e6);
      feed(cc, tcb, t + 0.35, 24_000, 0.0005);
      expect(cc.bweBytesPerS / 2e6).toBeCloseTo(1, 3);
    });

    it(`westwood (${name} estimator) counts a dupACK as one MSS delivered (a segment left the network)`, () => {
      const cc = new WestwoodPlus(params);
      const tcb = makeTcb();
      for (let i = 0; i < 2000; i++) cc.onAck(tcb, { ...dupAck((i + 0.5) / 1000), segmentsAcked: 1, rttS: 0.1 });
      expect(cc.bweBytesPerS / 1e6).toBeCloseTo(1, 6);
    });
  }

  it('westwood (Linux estimator) does not count twice the segments a cumulative ACK after dupACKs covers', () => {
    const cc = new WestwoodPlus(LINUX);
    holes(cc, makeTcb(), 2000);
    expect(cc.bweBytesPerS / 1e6).toBeCloseTo(1, 6); // naive counting would give 1.75e6
  });

  it('westwood (ns-3 estimator, the default) counts dupACKs and the covering ACK: 7 MSS per 4 ms', () => {
    const cc = new WestwoodPlus(NS3);
    holes(cc, makeTcb(), 2000);
    expect(cc.bweBytesPerS / 1.75e6).toBeCloseTo(1, 2);
  });

  it('westwood: with an empty queue, ns-3 counting puts ssthresh above the window that delivered the data (a loss raises cwnd); Linux counting puts it at that window', () => {
    // 1 segment per ms over an RTT of 0.1 s = RTTmin: the window in flight is 100 segments.
    const ns3 = new WestwoodPlus(NS3);
    holes(ns3, makeTcb(), 2000);
    expect(ns3.ssthresh(makeTcb({ cwndBytes: 100 * MSS }), 'dupacks', 2) / (100 * MSS)).toBeCloseTo(1.75, 2);
    const linux = new WestwoodPlus(LINUX);
    holes(linux, makeTcb(), 2000);
    expect(linux.ssthresh(makeTcb({ cwndBytes: 100 * MSS }), 'dupacks', 2) / (100 * MSS)).toBeCloseTo(1, 2);
  });

  it('westwood (Linux estimator) samples over max(RTT, 50 ms): with a 10 ms RTT the window is 50 ms', () => {
    const cc = new WestwoodPlus(LINUX);
    const tcb = makeTcb();
    feed(cc, tcb, 0, 51, 0.001, 0.01); // ACKs at 0 .. 50 ms: 50 ms not yet exceeded
    expect(cc.bweBytesPerS).toBe(0);
    feed(cc, tcb, 0.051, 1, 0.001, 0.01);
    expect(cc.bweBytesPerS / 1e6).toBeCloseTo(1, 6);
  });

  it('westwood (ns-3 estimator) windows last one SRTT (ns-3 m_lastRtt), even a 10 ms one', () => {
    const cc = new WestwoodPlus(NS3);
    feed(cc, makeTcb({ srttS: 0.01 }), 0, 11, 0.001, 0.01); // window [0, 10 ms) closed by the ACK at 10 ms
    expect(cc.bweBytesPerS / 1e6).toBeCloseTo(1, 6);
  });

  it('westwood (ns-3 estimator) times its windows with the SRTT, not the latest sample', () => {
    const cc = new WestwoodPlus(NS3);
    // Samples say 0.1 s, SRTT says 0.2 s: the window [0, 0.2 s) holds 200 segments, BWE = 200 MSS / 0.2 s.
    feed(cc, makeTcb({ srttS: 0.2 }), 0, 201, 0.001, 0.1);
    expect(cc.bweBytesPerS / 1e6).toBeCloseTo(1, 6);
    const early = new WestwoodPlus(NS3);
    feed(early, makeTcb({ srttS: 0.2 }), 0, 150, 0.001, 0.1); // at 150 ms the SRTT window is still open
    expect(early.bweBytesPerS).toBe(0);
  });

  it('westwood (ns-3 estimator) leaves idle time out of the estimate; Linux counts it', () => {
    const run = (params: Record<string, number>): number => {
      const cc = new WestwoodPlus(params);
      const tcb = makeTcb();
      // Ten cycles of 1 s at 1e6 B/s and 2 s without ACKs (a retransmission timeout).
      for (let c = 0; c < 10; c++) feed(cc, tcb, 3 * c, 1000, 0.001);
      return cc.bweBytesPerS;
    };
    expect(run(NS3) / 1e6).toBeCloseTo(1, 6);
    expect(run(LINUX)).toBeLessThan(0.95e6); // each idle gap yields a sample of ~100 segments / 2.1 s
  });

  it('westwood with filter = 1 uses ns-3 Tustin: 0.05 s, then 0.9 x 0.05 s + 0.1 s = 0.145 s, converging to s', () => {
    const cc = new WestwoodPlus({ filter: 1 });
    const tcb = makeTcb();
    feed(cc, tcb, 0, 101, 0.001); // one sample of 1e6
    expect(cc.bweBytesPerS).toBeCloseTo(0.05e6, 3);
    feed(cc, tcb, 0.101, 100, 0.001); // the next window [101, 201) ms closes at 201 ms
    feed(cc, tcb, 0.201, 1, 0.001);
    expect(cc.bweBytesPerS).toBeCloseTo(0.145e6, 3);
    feed(cc, tcb, 0.202, 20_000, 0.001);
    expect(cc.bweBytesPerS / 1e6).toBeCloseTo(1, 3);
  });

  it('westwood.ssthresh(tcb) = BWE x RTTmin (1e6 B/s x 80 ms = 80000 B), for dupacks and timeouts', () => {
    const cc = new WestwoodPlus(NS3);
    const tcb = makeTcb({ minRttS: 0.08, srttS: 0.08, cwndBytes: 500 * MSS, bytesInFlight: 500 * MSS });
    feed(cc, tcb, 0, 2000, 0.001);
    expect(cc.ssthresh(tcb, 'dupacks', 2)).toBe(Math.floor(cc.bweBytesPerS * 0.08));
    expect(Math.abs(cc.ssthresh(tcb, 'dupacks', 2) - 80_000)).toBeLessThanOrEqual(1);
    expect(cc.ssthresh(tcb, 'timeout', 2)).toBe(cc.ssthresh(tcb, 'dupacks', 2));
  });

  it('westwood.ssthresh(tcb) at a timeout first takes the sample of an RTT window that has ended', () => {
    const cc = new WestwoodPlus(NS3);
    const tcb = makeTcb({ minRttS: 0.1 });
    feed(cc, tcb, 0, 100, 0.001); // one window, no ACK after it
    expect(cc.bweBytesPerS).toBe(0);
    expect(cc.ssthresh(tcb, 'timeout', 1.2)).toBe(100_000);
  });

  it('westwood.ssthresh(tcb) uses the smallest SRTT with the ns-3 estimator (ns-3 m_minRtt), the smallest sample with Linux', () => {
    for (const [params, rtt] of [[NS3, 0.09], [LINUX, 0.05]] as const) {
      const cc = new WestwoodPlus(params);
      const tcb = makeTcb({ minRttS: 0.05, srttS: 0.12 });
      feed(cc, tcb, 0, 1000, 0.001);
      tcb.srttS = 0.09; // the smoothed RTT dips to 90 ms, raw samples went down to 50 ms
      feed(cc, tcb, 1, 1000, 0.001);
      tcb.srttS = 0.15;
      feed(cc, tcb, 2, 1000, 0.001);
      expect(cc.ssthresh(tcb, 'dupacks', 3)).toBe(Math.floor(cc.bweBytesPerS * rtt));
    }
  });

  it("westwood.ssthresh(tcb) with the ns-3 estimator keeps the handshake's SRTT as RTTmin (ns-3 m_minRtt = min(m_srtt) from the SYN-ACK on)", () => {
    const cc = new WestwoodPlus(NS3);
    const tcb = makeTcb({ minRttS: Infinity, srttS: 0.111 }); // the SYN / SYN-ACK sample, before any data
    cc.init(tcb);
    tcb.srttS = 0.12; // data samples carry payload serialisation: SRTT stays above the handshake's
    tcb.minRttS = 0.117;
    feed(cc, tcb, 0, 2000, 0.001);
    expect(cc.ssthresh(tcb, 'dupacks', 2)).toBe(Math.floor(cc.bweBytesPerS * 0.111));
    // Without a handshake sample the smallest data SRTT is used, 8% more.
    const plain = new WestwoodPlus(NS3);
    plain.init(makeTcb({ srttS: 0 }));
    feed(plain, tcb, 0, 2000, 0.001);
    expect(plain.ssthresh(tcb, 'dupacks', 2)).toBe(Math.floor(plain.bweBytesPerS * 0.12));
  });

  it('westwood.ssthresh(tcb) has a floor of 2 MSS (no estimate yet, or a tiny one)', () => {
    const cc = new WestwoodPlus({});
    expect(cc.ssthresh(makeTcb({ cwndBytes: 100 * MSS }), 'dupacks', 0)).toBe(2 * MSS);
    const tcb = makeTcb({ minRttS: 0.001, srttS: 0.001 });
    feed(cc, tcb, 0, 2000, 0.001);
    expect(cc.ssthresh(tcb, 'dupacks', 2)).toBe(2 * MSS); // 1e6 x 1 ms = 1000 B < 2 MSS
  });

  it('westwood.ssthresh(tcb) is independent of cwnd and flight size', () => {
    const cc = new WestwoodPlus({});
    const a = makeTcb({ cwndBytes: 10 * MSS, bytesInFlight: 10 * MSS });
    feed(cc, a, 0, 2000, 0.001);
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
    const cc = westwood.create({});
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

  it('westwood on a loss-free ACK clock estimates cwnd / RTT (both estimators)', () => {
    for (const params of [LINUX, NS3]) {
      const cc = new WestwoodPlus({ ...params, segmentCounting: 1 });
      const tcb = makeTcb({ cwndBytes: 50 * MSS, ssthreshBytes: 50 * MSS });
      runRounds(cc, tcb, 30, { rttS: 0.1 }); // cwnd 50 -> 80 segments
      expect(cc.bweBytesPerS).toBeGreaterThan((60 * MSS) / 0.1);
      expect(cc.bweBytesPerS).toBeLessThan((tcb.cwndBytes / 0.1) * 1.01);
    }
  });
});
