import { describe, expect, it } from 'vitest';
import { newreno } from '../../src/cc/newreno.js';
import { makeTcb, MSS, newAck, runRounds } from './helpers.js';

/** cwnd after n per-ACK RFC 5681 steps from w bytes, each floor(MSS^2 / cwnd) as ns-3. */
function perAckSteps(w: number, n: number): number {
  for (let i = 0; i < n; i++) w += Math.max(1, Math.floor((MSS * MSS) / w));
  return w;
}

describe('newreno', () => {
  it('newreno has recovery "newreno" (RFC 6582 partial ACKs)', () => {
    expect(newreno.create({}).recovery).toBe('newreno');
  });

  it('newreno.ssthresh(tcb) halves bytesInFlight, not cwnd (ns-3 TcpNewReno)', () => {
    const cc = newreno.create({});
    expect(cc.ssthresh(makeTcb({ cwndBytes: 20 * MSS, bytesInFlight: 12 * MSS }), 'dupacks', 0)).toBe(6 * MSS);
    expect(cc.ssthresh(makeTcb({ cwndBytes: 20 * MSS, bytesInFlight: 20 * MSS }), 'timeout', 0)).toBe(10 * MSS);
  });

  it('newreno.ssthresh(tcb) has a floor of 2 MSS', () => {
    const cc = newreno.create({});
    expect(cc.ssthresh(makeTcb({ bytesInFlight: MSS }), 'dupacks', 0)).toBe(2 * MSS);
  });

  it('newreno slow start adds one MSS per ACK, also for a delayed ACK of 2 segments (ns-3 TcpNewReno::SlowStart)', () => {
    const cc = newreno.create({});
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    cc.increaseWindow(tcb, newAck(0, 1));
    expect(tcb.cwndBytes).toBe(11 * MSS);
    cc.increaseWindow(tcb, newAck(0, 2));
    expect(tcb.cwndBytes).toBe(12 * MSS);
  });

  it('newreno slow start doubles cwnd per RTT with an ACK per segment: 10 -> 20 -> 40', () => {
    const cc = newreno.create({});
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    const trace: Array<{ t: number; cwnd: number }> = [];
    runRounds(cc, tcb, 2, { rttS: 0.1 }, trace);
    expect(trace.map((p) => p.cwnd)).toEqual([10, 20, 40]);
  });

  it('newreno slow start grows 1.5x per RTT under delayed ACKs: 10 -> 15 -> 23 (ceil(15/2) ACKs)', () => {
    const cc = newreno.create({});
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    const trace: Array<{ t: number; cwnd: number }> = [];
    runRounds(cc, tcb, 2, { rttS: 0.1, segsPerAck: 2 }, trace);
    expect(trace.map((p) => p.cwnd)).toEqual([10, 15, 23]);
  });

  it('newreno congestion avoidance adds MSS*MSS/cwnd per ACK whatever the ACK covers', () => {
    const cc = newreno.create({});
    const tcb = makeTcb({ cwndBytes: 10 * MSS, ssthreshBytes: 10 * MSS });
    cc.increaseWindow(tcb, newAck(0, 1));
    expect(tcb.cwndBytes).toBe(10 * MSS + 100);
    cc.increaseWindow(tcb, newAck(0, 2));
    expect(tcb.cwndBytes).toBe(10 * MSS + 100 + 99); // floor(1e6 / 10100) = 99
  });

  it('newreno congestion avoidance grows ~1 MSS per RTT with per-segment ACKs', () => {
    const cc = newreno.create({});
    const tcb = makeTcb({ cwndBytes: 20 * MSS, ssthreshBytes: 10 * MSS });
    runRounds(cc, tcb, 1, { rttS: 0.1 });
    expect(tcb.cwndBytes).toBe(perAckSteps(20 * MSS, 20)); // 20 ACKs
    expect(tcb.cwndBytes - 20 * MSS).toBeGreaterThan(0.95 * MSS);
    expect(tcb.cwndBytes - 20 * MSS).toBeLessThanOrEqual(MSS);
  });

  it('newreno congestion avoidance grows only ~1/2 MSS per RTT under delayed ACKs', () => {
    const cc = newreno.create({});
    const tcb = makeTcb({ cwndBytes: 20 * MSS, ssthreshBytes: 10 * MSS });
    runRounds(cc, tcb, 1, { rttS: 0.1, segsPerAck: 2 });
    expect(tcb.cwndBytes).toBe(perAckSteps(20 * MSS, 10)); // 10 ACKs
    expect(tcb.cwndBytes - 20 * MSS).toBeGreaterThan(0.47 * MSS);
    expect(tcb.cwndBytes - 20 * MSS).toBeLessThanOrEqual(0.5 * MSS);
  });

  it('newreno over 20 RTTs: +~20 MSS with per-segment ACKs, +~10 MSS with delayed ACKs', () => {
    const grow = (segsPerAck: number): number => {
      const cc = newreno.create({});
      const tcb = makeTcb({ cwndBytes: 20 * MSS, ssthreshBytes: 10 * MSS });
      runRounds(cc, tcb, 20, { rttS: 0.1, segsPerAck });
      return (tcb.cwndBytes - 20 * MSS) / MSS;
    };
    expect(grow(1)).toBeGreaterThan(18.5);
    expect(grow(1)).toBeLessThanOrEqual(20);
    expect(grow(2)).toBeGreaterThan(9);
    expect(grow(2)).toBeLessThanOrEqual(10);
  });

  it('newreno spends segments left over at ssthresh on one per-ACK step (ns-3 IncreaseWindow)', () => {
    const cc = newreno.create({});
    const tcb = makeTcb({ cwndBytes: 9 * MSS, ssthreshBytes: 10 * MSS });
    cc.increaseWindow(tcb, newAck(0, 2));
    expect(tcb.cwndBytes).toBe(10 * MSS + 100);
  });
});
