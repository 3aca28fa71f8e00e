import { describe, expect, it } from 'vitest';
import { tahoe } from '../../src/cc/tahoe.js';
import { makeTcb, MSS, newAck, runRounds } from './helpers.js';

describe('tahoe', () => {
  it('tahoe has recovery "none" (no fast recovery, RFC 5681 without 3.2 steps 4-6)', () => {
    expect(tahoe.create({}).recovery).toBe('none');
  });

  it('tahoe.ssthresh(tcb) halves FlightSize, not cwnd (RFC 5681 eq. 4)', () => {
    const cc = tahoe.create({});
    const tcb = makeTcb({ cwndBytes: 20 * MSS, bytesInFlight: 12 * MSS });
    expect(cc.ssthresh(tcb, 'dupacks', 1)).toBe(6 * MSS);
    expect(cc.ssthresh(tcb, 'timeout', 1)).toBe(6 * MSS);
  });

  it('tahoe.ssthresh(tcb) has a floor of 2 MSS', () => {
    const cc = tahoe.create({});
    expect(cc.ssthresh(makeTcb({ bytesInFlight: 3 * MSS }), 'dupacks', 0)).toBe(2 * MSS);
  });

  it('tahoe after a loss: cwnd -> 1 MSS, slow start 1, 2, 4, 8, 16 MSS per RTT up to ssthresh', () => {
    const cc = tahoe.create({});
    const tcb = makeTcb({ cwndBytes: 32 * MSS, bytesInFlight: 32 * MSS });
    // What the sender does on a Tahoe loss: ssthresh from the algorithm, cwnd = 1 MSS.
    tcb.ssthreshBytes = cc.ssthresh(tcb, 'dupacks', 0);
    tcb.cwndBytes = MSS;
    expect(tcb.ssthreshBytes).toBe(16 * MSS);
    const trace: Array<{ t: number; cwnd: number }> = [];
    runRounds(cc, tcb, 4, { rttS: 0.1 }, trace);
    expect(trace.map((p) => p.cwnd)).toEqual([1, 2, 4, 8, 16]);
  });

  it('tahoe.increaseWindow in congestion avoidance adds MSS*MSS/cwnd per ACK', () => {
    const cc = tahoe.create({});
    const tcb = makeTcb({ cwndBytes: 16 * MSS, ssthreshBytes: 16 * MSS });
    cc.increaseWindow(tcb, newAck(0));
    expect(tcb.cwndBytes).toBe(16 * MSS + 62); // floor(1e6 / 16000) = 62
  });
});
