import { describe, expect, it } from 'vitest';
import { cubicAvgWindow, hstcpWindow, mathisWindow, pftkApprox, pftkFull, renoRfcWindow, closedForms, tahoeWindow } from '../../src/theory/closedForms.js';
import { presetScenario } from '../../src/scenario/presets.js';

const LOSS = [1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8];
/** RFC 9438 Table 1 (RTT = 0.1 s) and Table 2 (RTT = 0.01 s): Reno, HSTCP, CUBIC C = 0.04, 0.4, 4. */
const TABLE1 = [
  [12, 12, 12, 12, 12],
  [38, 38, 38, 38, 59],
  [120, 263, 120, 187, 333],
  [379, 1795, 593, 1054, 1874],
  [1200, 12280, 3332, 5926, 10538],
  [3795, 83981, 18740, 33325, 59261],
  [12000, 574356, 105383, 187400, 333250],
];
const TABLE2 = [
  [12, 12, 12, 12, 12],
  [38, 38, 38, 38, 38],
  [120, 263, 120, 120, 120],
  [379, 1795, 379, 379, 379],
  [1200, 12280, 1200, 1200, 1874],
  [3795, 83981, 3795, 5926, 10538],
  [12000, 574356, 18740, 33325, 59261],
];

function row(p: number, rtt: number): number[] {
  const reno = renoRfcWindow(p);
  return [reno, hstcpWindow(p), ...[0.04, 0.4, 4].map((c) => Math.max(reno, cubicAvgWindow(p, rtt, c, 0.7)))].map(Math.round);
}

describe('closed forms reproduce published tables', () => {
  it('RFC 9438 Table 1 (RTT = 0.1 s), every cell', () => {
    LOSS.forEach((p, i) => expect(row(p, 0.1)).toEqual(TABLE1[i]));
  });
  it('RFC 9438 Table 2 (RTT = 0.01 s), every cell', () => {
    LOSS.forEach((p, i) => expect(row(p, 0.01)).toEqual(TABLE2[i]));
  });
  it('cubicAvgWindow(p, RTT) with C = 0.4, beta = 0.7 is 1.054 (RTT/p)^0.75', () => {
    expect(cubicAvgWindow(1e-4, 0.1) / Math.pow(0.1 / 1e-4, 0.75)).toBeCloseTo(1.054, 3);
  });

  // Research notes §1.2, computed table (R = 0.1 s, T0 = 1 s, Wmax = infinity; packets/s, 0.1 resolution).
  const PFTK: [number, number, number, number, number, number][] = [
    [1e-4, 1224.7, 866.0, 864.1, 861.6, 1219.6],
    [1e-3, 387.3, 273.9, 267.8, 265.6, 376.6],
    [3e-3, 223.6, 158.1, 148.1, 146.2, 207.6],
    [1e-2, 122.5, 86.6, 70.7, 69.5, 98.8],
    [3e-2, 70.7, 50.0, 29.5, 29.8, 42.1],
    [1e-1, 38.7, 27.4, 6.9, 9.1, 12.5],
    [2e-1, 27.4, 19.4, 2.0, 4.0, 5.3],
  ];
  it.each(PFTK)('Mathis and PFTK at p = %s match the research notes', (p, m1, m2, a2, f2, f1) => {
    const R = 0.1;
    expect(Math.abs(mathisWindow(p, 1) / R - m1)).toBeLessThan(0.06);
    expect(Math.abs(mathisWindow(p, 2) / R - m2)).toBeLessThan(0.06);
    expect(Math.abs(pftkApprox(p, R, 2, 1) - a2)).toBeLessThan(0.06);
    expect(Math.abs(pftkFull(p, R, 2, 1) - f2)).toBeLessThan(0.06);
    expect(Math.abs(pftkFull(p, R, 1, 1) - f1)).toBeLessThan(0.06);
  });
  it('PFTK with Wmax = 20: approx window-limited at 200 pkt/s, full 197 (1e-4) and 174 (1e-3)', () => {
    expect(pftkApprox(1e-4, 0.1, 2, 1, 20)).toBeCloseTo(200, 6);
    expect(pftkApprox(1e-3, 0.1, 2, 1, 20)).toBeCloseTo(200, 6);
    expect(Math.round(pftkFull(1e-4, 0.1, 2, 1, 20))).toBe(197);
    expect(Math.round(pftkFull(1e-3, 0.1, 2, 1, 20))).toBe(174);
  });
  it('tahoeWindow(p) is below Mathis (slow-start rounds lengthen the cycle) and approaches it as p -> 0', () => {
    expect(tahoeWindow(1e-2, 1)).toBeLessThan(mathisWindow(1e-2, 1));
    expect(tahoeWindow(1e-8, 1) / mathisWindow(1e-8, 1)).toBeGreaterThan(0.99);
  });
});

describe('closedForms(scenario)', () => {
  it('lists Mathis and both PFTK forms for reno on lfn, with goodput = W/R x (1 - p) x MSS x 8', () => {
    const s = presetScenario('lfn', 'reno');
    const cf = closedForms(s);
    expect(cf.map((c) => c.formula)).toEqual(['mathis', 'pftk-full', 'pftk-approx']);
    const m = cf[0]!;
    expect(m.cwndSegments).toBeCloseTo(Math.sqrt(1.5 / 1e-3), 6); // reno counts segments: b = 1
    expect(m.goodputBps! / ((m.cwndSegments! / 0.2904) * 0.999 * 340 * 8)).toBeCloseTo(1, 2);
  });
  it('gives CUBIC its response function and Westwood+ a capacity-filling equilibrium', () => {
    const c = closedForms(presetScenario('lfn', 'cubic'));
    expect(c.map((x) => x.formula)).toEqual(['cubic']);
    expect(c[0]!.appliesTo).toEqual(['cubic']);
    const w = closedForms(presetScenario('lfn', 'westwood'));
    expect(w[0]!.formula).toBe('westwood');
    expect(w[0]!.note).toMatch(/standing queue/);
  });
  it('returns null values with a note when there is no random loss', () => {
    const s = presetScenario('lfn', 'newreno');
    s.bottleneck.loss.rate = 0;
    for (const c of closedForms(s)) {
      expect(c.goodputBps).toBeNull();
      expect(c.note).toMatch(/p = 0/);
    }
  });
});
