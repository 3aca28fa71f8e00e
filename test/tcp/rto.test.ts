import { describe, expect, it } from 'vitest';
import { RtoEstimator } from '../../src/tcp/rto.js';

describe('RtoEstimator (RFC 6298)', () => {
  it('starts at 1 s before any sample (2.1)', () => {
    expect(new RtoEstimator(0.2, 60, 0.001).rtoS).toBe(1);
  });

  it('first sample R: SRTT = R, RTTVAR = R/2, RTO = SRTT + max(G, 4 RTTVAR) (2.2)', () => {
    const e = new RtoEstimator(0, 60, 0.001);
    e.sample(0.1);
    expect(e.srttS).toBe(0.1);
    expect(e.rttvarS).toBe(0.05);
    expect(e.rtoS).toBeCloseTo(0.1 + 4 * 0.05, 15);
  });

  it('later samples update RTTVAR with the OLD SRTT, then SRTT (2.3)', () => {
    const e = new RtoEstimator(0, 60, 0.001);
    e.sample(0.1);
    e.sample(0.3);
    // RTTVAR = 3/4 * 0.05 + 1/4 * |0.1 - 0.3| = 0.0875 (with the new SRTT it would be 0.08125).
    expect(e.rttvarS).toBeCloseTo(0.0875, 15);
    expect(e.srttS).toBeCloseTo(0.125, 15);
    expect(e.rtoS).toBeCloseTo(0.125 + 4 * 0.0875, 15);
  });

  it('clock granularity G bounds the variance term from below (2.2/2.3)', () => {
    const e = new RtoEstimator(0, 60, 0.5);
    for (let i = 0; i < 200; i++) e.sample(0.1);
    expect(e.rttvarS).toBeLessThan(1e-6);
    expect(e.rtoS).toBeCloseTo(0.1 + 0.5, 9);
  });

  it('RTO is raised to minRto (2.4) and capped at maxRto (2.5)', () => {
    const e = new RtoEstimator(1, 3, 0.001);
    e.sample(0.05);
    expect(e.rtoS).toBe(1);
    e.sample(10);
    expect(e.rtoS).toBe(3);
  });

  it('back-off doubles RTO up to maxRto (5.5); restart() and new samples drop the back-off', () => {
    const e = new RtoEstimator(1, 60, 0.001);
    e.sample(0.1);
    expect(e.rtoS).toBe(1);
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      e.backoff();
      seen.push(e.rtoS);
    }
    expect(seen).toEqual([2, 4, 8, 16, 32, 60, 60, 60]);
    expect(e.backoffs).toBe(8);
    e.restart();
    expect(e.rtoS).toBe(1);
    e.backoff();
    e.sample(0.1);
    expect(e.rtoS).toBe(1);
  });
});
