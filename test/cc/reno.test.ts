import { describe, expect, it } from 'vitest';
import { reno } from '../../src/cc/reno.js';
import { makeTcb, MSS, newAck, runRounds } from './helpers.js';

describe('reno', () => {
  it('reno without SACK has NewReno partial-ACK recovery by default, as Linux and ns-3 run it', () => {
    expect(reno.create({}).recovery).toBe('newreno');
  });

  it('reno with partialAcks = 1 has recovery "newreno" (ns-3 TcpLinuxReno under TcpClassicRecovery)', () => {
    expect(reno.create({ partialAcks: 1 }).recovery).toBe('newreno');
    expect(reno.create({ partialAcks: 0 }).recovery).toBe('reno');
  });

  it('reno.ssthresh(tcb) halves cwnd with a floor of 2 MSS', () => {
    const cc = reno.create({});
    expect(cc.ssthresh(makeTcb({ cwndBytes: 20 * MSS }), 'dupacks', 0)).toBe(10 * MSS);
    expect(cc.ssthresh(makeTcb({ cwndBytes: 3 * MSS }), 'dupacks', 0)).toBe(2 * MSS);
    expect(cc.ssthresh(makeTcb({ cwndBytes: 20 * MSS }), 'timeout', 0)).toBe(10 * MSS);
  });

  it('reno.ssthresh(tcb) is cut from cwnd, not the flight size (Linux tcp_reno_ssthresh)', () => {
    const cc = reno.create({});
    expect(cc.ssthresh(makeTcb({ cwndBytes: 20 * MSS, bytesInFlight: 6 * MSS }), 'dupacks', 0)).toBe(10 * MSS);
  });

  it('reno slow start adds 1 MSS per ACKed segment and 2 MSS per delayed ACK', () => {
    const cc = reno.create({});
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    cc.increaseWindow(tcb, newAck(0, 1));
    expect(tcb.cwndBytes).toBe(11 * MSS);
    cc.increaseWindow(tcb, newAck(0, 2));
    expect(tcb.cwndBytes).toBe(13 * MSS);
  });

  it('reno slow start doubles cwnd per RTT: 10 -> 20 -> 40 segments', () => {
    const cc = reno.create({});
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    const trace: Array<{ t: number; cwnd: number }> = [];
    runRounds(cc, tcb, 2, { rttS: 0.1 }, trace);
    expect(trace.map((p) => p.cwnd)).toEqual([10, 20, 40]);
  });

  it('reno congestion avoidance adds exactly 1 MSS per window of ACKed segments', () => {
    const cc = reno.create({});
    const tcb = makeTcb({ cwndBytes: 20 * MSS, ssthreshBytes: 10 * MSS });
    for (let i = 0; i < 19; i++) cc.increaseWindow(tcb, newAck(i));
    expect(tcb.cwndBytes).toBe(20 * MSS);
    cc.increaseWindow(tcb, newAck(19));
    expect(tcb.cwndBytes).toBe(21 * MSS);
  });

  it('reno congestion avoidance grows 1 MSS per RTT with and without delayed ACKs (10 RTTs: +10 MSS)', () => {
    for (const segsPerAck of [1, 2]) {
      const cc = reno.create({});
      const tcb = makeTcb({ cwndBytes: 20 * MSS, ssthreshBytes: 10 * MSS });
      runRounds(cc, tcb, 10, { rttS: 0.1, segsPerAck });
      expect(tcb.cwndBytes).toBe(30 * MSS);
    }
  });

  it('reno passes the segments left over at ssthresh to congestion avoidance', () => {
    const cc = reno.create({});
    const tcb = makeTcb({ cwndBytes: 9 * MSS, ssthreshBytes: 10 * MSS });
    cc.increaseWindow(tcb, newAck(0, 2)); // 1 segment to reach 10 MSS, 1 into the credit
    expect(tcb.cwndBytes).toBe(10 * MSS);
    for (let i = 0; i < 8; i++) cc.increaseWindow(tcb, newAck(i + 1));
    expect(tcb.cwndBytes).toBe(10 * MSS);
    cc.increaseWindow(tcb, newAck(9)); // 10th segment of credit
    expect(tcb.cwndBytes).toBe(11 * MSS);
  });

  it('reno clears its segment credit when a congestion episode starts', () => {
    const cc = reno.create({});
    const tcb = makeTcb({ cwndBytes: 10 * MSS, ssthreshBytes: 10 * MSS });
    for (let i = 0; i < 9; i++) cc.increaseWindow(tcb, newAck(i));
    cc.onStateChange?.(tcb, 'recovery', 1);
    cc.onStateChange?.(tcb, 'open', 1.1);
    cc.increaseWindow(tcb, newAck(2));
    expect(tcb.cwndBytes).toBe(10 * MSS); // credit 1, not 10
  });

  it('reno instances keep separate credits (per-flow state)', () => {
    const a = reno.create({});
    const b = reno.create({});
    const ta = makeTcb({ cwndBytes: 2 * MSS, ssthreshBytes: MSS });
    const tb = makeTcb({ cwndBytes: 2 * MSS, ssthreshBytes: MSS });
    a.increaseWindow(ta, newAck(0));
    b.increaseWindow(tb, newAck(0));
    expect(ta.cwndBytes).toBe(2 * MSS);
    expect(tb.cwndBytes).toBe(2 * MSS);
  });
});
