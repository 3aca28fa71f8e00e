import { describe, expect, it } from 'vitest';
import { cubicAvgWindow, cubicResponseWindow, hstcpWindow, mathisWindow, pftkApprox, pftkFull, pftkTimeoutProbability, renoRfcWindow, closedForms, steadyRtoS, tahoeWindow } from '../../src/theory/closedForms.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { fairSharePayloadBps, flowPath } from '../../src/scenario/path.js';
import { presetScenario } from '../../src/scenario/presets.js';
import type { Scenario } from '../../src/scenario/types.js';

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

/** The production functions `predict` uses: Reno's RFC column, HSTCP, and CUBIC's response function for C = 0.04, 0.4, 4. */
function row(p: number, rtt: number): number[] {
  return [renoRfcWindow(p), hstcpWindow(p), ...[0.04, 0.4, 4].map((c) => cubicResponseWindow(p, rtt, c, 0.7))].map(Math.round);
}

/**
 * A one-flow path with RTT `rttS` whose links and receive window never cap a prediction: links of
 * 1 Pbit/s (serialisation ~1e-11 s), a receive buffer of 1 TB.
 */
function uncappedScenario(variant: Scenario['variant'], p: number, rttS: number, ccParams: Record<string, number> = {}): Scenario {
  const s = dumbbellScenario(variant);
  s.bottleneck.bandwidthBps = 1e15;
  s.flows[0]!.access = { bandwidthBps: 1e15, delayS: 0, queuePackets: 1e6 };
  s.flows[0]!.receiverAccess = null;
  s.bottleneck.delayS = rttS / 2;
  s.bottleneck.loss.rate = p;
  s.tcp.rcvBufBytes = 1e12;
  s.ccParams = ccParams;
  return s;
}

describe('closed forms reproduce published tables', () => {
  it('RFC 9438 Table 1 (RTT = 0.1 s), every cell', () => {
    LOSS.forEach((p, i) => expect(row(p, 0.1)).toEqual(TABLE1[i]));
  });
  it('RFC 9438 Table 2 (RTT = 0.01 s), every cell', () => {
    LOSS.forEach((p, i) => expect(row(p, 0.01)).toEqual(TABLE2[i]));
  });
  it('closedForms(scenario) predicts exactly RFC 9438 Table 1/2\'s CUBIC column on an uncapped path (what predict prints)', () => {
    for (const [rtt, table] of [[0.1, TABLE1], [0.01, TABLE2]] as const) {
      LOSS.forEach((p, i) => {
        [0.04, 0.4, 4].forEach((c, k) => {
          const cf = closedForms(uncappedScenario('cubic', p, rtt, { c }))[0]!;
          expect(cf.validity.regime).toBe('loss-limited');
          expect(Math.round(cf.cwndSegments!)).toBe(table[i]![2 + k]);
        });
      });
    }
  });
  it('cubicAvgWindow(p, RTT) with C = 0.4, beta = 0.7 is 1.054 (RTT/p)^0.75', () => {
    expect(cubicAvgWindow(1e-4, 0.1, 0.4, 0.7) / Math.pow(0.1 / 1e-4, 0.75)).toBeCloseTo(1.054, 3);
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
    const s = presetScenario('ns3-lfn', 'reno');
    const cf = closedForms(s);
    expect(cf.map((c) => c.formula)).toEqual(['mathis', 'pftk-full', 'pftk-approx']);
    const m = cf[0]!;
    expect(m.cwndSegments).toBeCloseTo(Math.sqrt(1.5 / 1e-3), 6); // reno counts segments: b = 1
    expect(m.goodputBps! / ((m.cwndSegments! / 0.2904) * 0.999 * 340 * 8)).toBeCloseTo(1, 2);
  });
  it('gives CUBIC its response function and Westwood+ a capacity-filling equilibrium', () => {
    const c = closedForms(presetScenario('ns3-lfn', 'cubic'));
    expect(c.map((x) => x.formula)).toEqual(['cubic']);
    expect(c[0]!.appliesTo).toEqual(['cubic']);
    const w = closedForms(presetScenario('ns3-lfn', 'westwood'));
    expect(w[0]!.formula).toBe('westwood');
    expect(w[0]!.note).toMatch(/standing queue/);
  });
  it('returns null values with a note when there is no random loss', () => {
    const s = presetScenario('ns3-lfn', 'newreno');
    s.bottleneck.loss.rate = 0;
    for (const c of closedForms(s)) {
      expect(c.goodputBps).toBeNull();
      expect(c.note).toMatch(/p = 0/);
    }
  });
});

describe('closedForms(scenario): caps and validity', () => {
  it('caps the rate at the flow\'s fair share of the tightest link and marks the point link-limited (reno, p = 1e-6 on the dumbbell)', () => {
    const s = dumbbellScenario('reno');
    s.bottleneck.loss.rate = 1e-6;
    const m = closedForms(s).find((c) => c.formula === 'mathis')!;
    expect(m.validity.rawCwndSegments).toBeCloseTo(Math.sqrt(1.5e6), 6);
    expect(m.validity.regime).toBe('link-limited');
    expect(m.validity.valid).toBe(false);
    expect(m.validity.reasons[0]).toMatch(/^link-limited/);
    // Goodput: the fair share of the 100 Mbit/s bottleneck, payload only, less the random losses.
    expect(m.goodputBps).toBeCloseTo(fairSharePayloadBps(s) * (1 - 1e-6), 0);
    expect(m.goodputBps).toBeCloseTo(100e6 * (1448 / 1488) * (1 - 1e-6), 0);
    // The window is capped at what the path holds: the BDP over the base RTT plus the buffer.
    const path = flowPath(s);
    expect(m.cwndSegments!).toBeCloseTo(((100e6 / (8 * 1488)) * path.baseRttS + s.bottleneck.queue.limitPackets) * (1 + 1e-9), 6);
  });
  it('caps at the receive window: Mathis is then rwnd-limited and invalid, PFTK uses its Wmax branch and stays valid', () => {
    const s = presetScenario('ns3-lfn', 'reno');
    s.tcp.rcvBufBytes = 20 * s.mssBytes;
    const [m, full] = closedForms(s);
    expect(m!.cwndSegments).toBe(20);
    expect(m!.validity.regime).toBe('rwnd-limited');
    expect(m!.validity.valid).toBe(false);
    expect(m!.validity.reasons[0]).toMatch(/receive-window limited: the formula's 39 segments exceed the receive window of 20/);
    expect(full!.formula).toBe('pftk-full');
    const R = flowPath(s).baseRttS;
    expect(steadyRtoS(s, R)).toBe(1); // minRto 1 s is above R + G
    expect(full!.cwndSegments).toBeCloseTo(pftkFull(1e-3, R, 1, 1, 20) * R, 9);
    expect(full!.cwndSegments!).toBeLessThan(20);
    expect(full!.validity.valid).toBe(true);
  });
  it('flags few packets per RTT, losses every round and (without SACK) a timeout share the formula leaves out (lossy, p = 0.1), but not PFTK which models both', () => {
    for (const v of ['reno', 'tahoe', 'cubic', 'westwood'] as const) {
      const cf = closedForms(presetScenario('ns3-lossy', v));
      const withoutTimeouts = cf.filter((c) => !c.formula.startsWith('pftk'));
      for (const c of withoutTimeouts) {
        expect(c.validity.valid).toBe(false);
        expect(c.validity.reasons.join(' ')).toMatch(/packets per RTT \(< 4\)|losses per window on average/);
        const noSack = presetScenario('ns3-lossy', v);
        noSack.tcp.sack = false;
        expect(closedForms(noSack).find((x) => x.formula === c.formula)!.validity.reasons.join(' ')).toMatch(/timeouts take \d+% of the time \(PFTK's time budget, Reno's timeout probability/);
        // Never above what the 1 Mbit/s line carries (it used to predict 777 kbit/s for Westwood+ with no flag).
        expect(c.goodputBps!).toBeLessThanOrEqual(fairSharePayloadBps(presetScenario('ns3-lossy', v)) * 0.9 * (1 + 1e-9));
      }
      for (const c of cf.filter((x) => x.formula.startsWith('pftk'))) expect(c.validity.valid).toBe(true);
    }
    const m = closedForms(presetScenario('ns3-lossy', 'reno'))[0]!;
    expect(m.validity.reasons[0]).toMatch(/only 3.9 packets per RTT \(< 4\)/);
    // With SACK a loss ends in a timeout when its retransmission is lost: p.
    expect(m.validity.timeoutProbability).toBe(0.1);
  });
  it('pftkTimeoutProbability(p, w) is 1 for w <= 3 and about 3/w for small p', () => {
    expect(pftkTimeoutProbability(0.01, 3)).toBe(1);
    expect(pftkTimeoutProbability(1e-6, 30)).toBeCloseTo(0.1, 4);
  });
});

