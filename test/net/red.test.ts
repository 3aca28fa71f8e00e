import { describe, expect, it } from 'vitest';
import { redBaseProbability, RedState, type RedParams } from '../../src/net/qdisc/red.js';
import { rngStream } from '../../src/engine/rng.js';

const params: RedParams = { minThPackets: 5, maxThPackets: 15, maxP: 0.1, weight: 0.002, gentle: false };

describe('redBaseProbability(avg, params)', () => {
  it('is 0 below minTh, linear to maxP at maxTh, 1 beyond (non-gentle)', () => {
    expect(redBaseProbability(0, params)).toBe(0);
    expect(redBaseProbability(4.999, params)).toBe(0);
    expect(redBaseProbability(5, params)).toBe(0);
    expect(redBaseProbability(10, params)).toBeCloseTo(0.05, 12);
    expect(redBaseProbability(14, params)).toBeCloseTo(0.09, 12);
    expect(redBaseProbability(15, params)).toBe(1);
    expect(redBaseProbability(29, params)).toBe(1);
  });

  it('gentle: rises from maxP to 1 between maxTh and 2 maxTh', () => {
    const g = { ...params, gentle: true };
    expect(redBaseProbability(10, g)).toBeCloseTo(0.05, 12);
    expect(redBaseProbability(15, g)).toBeCloseTo(0.1, 12);
    expect(redBaseProbability(22.5, g)).toBeCloseTo(0.1 + 0.9 * 0.5, 12);
    expect(redBaseProbability(29.999, g)).toBeCloseTo(0.1 + (0.9 * 14.999) / 15, 9);
    expect(redBaseProbability(30, g)).toBe(1);
  });
});

describe('RedState', () => {
  it('updateAverage() is the EWMA avg = (1 - w) avg + w q', () => {
    const r = new RedState(params);
    r.updateAverage(10, 0, 1000);
    expect(r.avg).toBeCloseTo(0.02, 12);
    r.updateAverage(10, 0, 1000);
    expect(r.avg).toBeCloseTo(0.02 * 0.998 + 0.02, 12);
    // Constant q: avg -> q geometrically, (1 - w)^n of the gap left after n arrivals.
    const s = new RedState(params);
    for (let i = 0; i < 1000; i++) s.updateAverage(8, 0, 1000);
    expect(s.avg).toBeCloseTo(8 * (1 - Math.pow(0.998, 1000)), 9);
  });

  it('updateAverage() decays the average over an idle period as (1 - w)^(m+1)', () => {
    const r = new RedState(params);
    r.avg = 10;
    r.updateAverage(0, 50_000, 1000); // m = 50 small packets' worth of idle time
    expect(r.avg).toBeCloseTo(10 * Math.pow(0.998, 51), 12);
  });

  it('shouldDrop() drops a fraction 2 pb / (1 + pb) at fixed avg (uniform inter-drop gaps)', () => {
    const u = rngStream(42, 'red-test');
    for (const avg of [7, 10, 14]) {
      const r = new RedState(params);
      r.avg = avg;
      const pb = redBaseProbability(avg, params);
      let drops = 0;
      const n = 200_000;
      for (let i = 0; i < n; i++) if (r.shouldDrop(u())) drops++;
      const expected = (2 * pb) / (1 + pb);
      expect(drops / n).toBeGreaterThan(expected * 0.97);
      expect(drops / n).toBeLessThan(expected * 1.03);
    }
  });

  it('shouldDrop() always drops above maxTh (non-gentle) and never below minTh', () => {
    const r = new RedState(params);
    r.avg = 16;
    expect(r.shouldDrop(0.999)).toBe(true);
    r.avg = 4;
    expect(r.shouldDrop(0)).toBe(false);
  });
});
