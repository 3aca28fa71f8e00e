import { describe, expect, it } from 'vitest';
import {
  congAvoidAI,
  congAvoidPerAck,
  cwndSegments,
  flightSsthresh,
  inSlowStart,
  renoSsthresh,
  slowStart,
} from '../../src/cc/common.js';
import { makeTcb, MSS } from './helpers.js';

describe('slowStart', () => {
  it('slowStart(tcb, 1) adds 1 MSS per ACKed segment and leaves nothing over', () => {
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    expect(slowStart(tcb, 1)).toBe(0);
    expect(tcb.cwndBytes).toBe(11 * MSS);
  });

  it('slowStart(tcb, 2) adds 2 MSS for a delayed ACK (RFC 3465, L = 2)', () => {
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    expect(slowStart(tcb, 2)).toBe(0);
    expect(tcb.cwndBytes).toBe(12 * MSS);
  });

  it('slowStart(tcb, n) caps cwnd at ssthresh and returns the segments left over', () => {
    const tcb = makeTcb({ cwndBytes: 9 * MSS, ssthreshBytes: 10 * MSS });
    expect(slowStart(tcb, 3)).toBe(2);
    expect(tcb.cwndBytes).toBe(10 * MSS);
  });

  it('slowStart(tcb, n) counts a cap reached mid-segment as no segment used (ns-3 integer division)', () => {
    const tcb = makeTcb({ cwndBytes: 10 * MSS, ssthreshBytes: 10 * MSS + 500 });
    expect(slowStart(tcb, 2)).toBe(2);
    expect(tcb.cwndBytes).toBe(10 * MSS + 500);
  });

  it('slowStart(tcb, 0) changes nothing', () => {
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    expect(slowStart(tcb, 0)).toBe(0);
    expect(tcb.cwndBytes).toBe(10 * MSS);
  });
});

describe('congAvoidAI', () => {
  it('congAvoidAI(tcb, credit, w, 1) adds 1 MSS after exactly w ACKed segments', () => {
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    const credit = { cnt: 0 };
    for (let i = 0; i < 9; i++) congAvoidAI(tcb, credit, 10, 1);
    expect(tcb.cwndBytes).toBe(10 * MSS);
    expect(credit.cnt).toBe(9);
    congAvoidAI(tcb, credit, 10, 1);
    expect(tcb.cwndBytes).toBe(11 * MSS);
    expect(credit.cnt).toBe(0);
  });

  it('congAvoidAI(tcb, credit, w, 2) grows as fast with delayed ACKs: w/2 ACKs per MSS', () => {
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    const credit = { cnt: 0 };
    for (let i = 0; i < 5; i++) congAvoidAI(tcb, credit, 10, 2);
    expect(tcb.cwndBytes).toBe(11 * MSS);
  });

  it('congAvoidAI(tcb, credit, w, n) adds floor(credit / w) MSS at once and keeps the remainder', () => {
    const tcb = makeTcb({ cwndBytes: 4 * MSS });
    const credit = { cnt: 3 };
    congAvoidAI(tcb, credit, 4, 6); // 9 segments of credit at w = 4: +2 MSS, 1 left
    expect(tcb.cwndBytes).toBe(6 * MSS);
    expect(credit.cnt).toBe(1);
  });

  it('congAvoidAI applies credit accumulated at a larger w as one segment, then resets it', () => {
    const tcb = makeTcb({ cwndBytes: 5 * MSS });
    const credit = { cnt: 12 };
    congAvoidAI(tcb, credit, 5, 1);
    expect(tcb.cwndBytes).toBe(6 * MSS);
    expect(credit.cnt).toBe(1);
  });
});

describe('congAvoidPerAck', () => {
  it('congAvoidPerAck(tcb) adds MSS*MSS/cwnd bytes (RFC 5681 eq. 3)', () => {
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    congAvoidPerAck(tcb);
    expect(tcb.cwndBytes).toBe(10 * MSS + 100);
  });

  it('congAvoidPerAck(tcb) truncates to whole bytes as ns-3 does (340-byte MSS)', () => {
    const tcb = makeTcb({ mssBytes: 340, cwndBytes: 7000 }); // 115600 / 7000 = 16.51
    congAvoidPerAck(tcb);
    expect(tcb.cwndBytes).toBe(7016);
  });

  it('congAvoidPerAck(tcb) adds at least 1 byte', () => {
    const tcb = makeTcb({ cwndBytes: 5_000_000 });
    congAvoidPerAck(tcb);
    expect(tcb.cwndBytes).toBe(5_000_001);
  });
});

describe('ssthresh rules', () => {
  it('renoSsthresh(tcb) halves cwnd (whole bytes), ignoring flight size', () => {
    expect(renoSsthresh(makeTcb({ cwndBytes: 20 * MSS, bytesInFlight: 4 * MSS }))).toBe(10 * MSS);
    expect(renoSsthresh(makeTcb({ cwndBytes: 20 * MSS + 1 }))).toBe(10 * MSS);
  });

  it('renoSsthresh(tcb) has a floor of 2 MSS', () => {
    expect(renoSsthresh(makeTcb({ cwndBytes: 3 * MSS }))).toBe(2 * MSS);
    expect(renoSsthresh(makeTcb({ cwndBytes: MSS }))).toBe(2 * MSS);
  });

  it('flightSsthresh(tcb) halves the flight size, not cwnd, with a floor of 2 MSS', () => {
    expect(flightSsthresh(makeTcb({ cwndBytes: 20 * MSS, bytesInFlight: 8 * MSS }))).toBe(4 * MSS);
    expect(flightSsthresh(makeTcb({ cwndBytes: 20 * MSS, bytesInFlight: 3 * MSS }))).toBe(2 * MSS);
  });

  it('cwndSegments(tcb) and inSlowStart(tcb) read cwnd in whole segments and cwnd < ssthresh', () => {
    expect(cwndSegments(makeTcb({ cwndBytes: 10.9 * MSS }))).toBe(10);
    expect(cwndSegments(makeTcb({ cwndBytes: 10 }))).toBe(1);
    expect(inSlowStart(makeTcb({ cwndBytes: 10 * MSS, ssthreshBytes: 10 * MSS }))).toBe(false);
    expect(inSlowStart(makeTcb({ cwndBytes: 10 * MSS }))).toBe(true);
  });
});
