import { describe, expect, it } from 'vitest';
import { runFluid } from '../../src/fluid/run.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { baseRttS } from '../../src/scenario/path.js';
import type { Scenario } from '../../src/scenario/types.js';
import { scenarioStability, type LoopAnalysis } from '../../src/theory/stability.js';

/**
 * Hollot, Misra, Towsley, Gong, "A control theoretic analysis of RED", INFOCOM 2001: N flows on a
 * C = 3750 packets/s link (15 Mbit/s, 500-byte packets), Tp = 0.2 s; RED with L_red = 1.86e-4 and
 * filter pole K = 0.005 rad/s (their design for N >= 60, R0 <= 0.246 s; alpha = 1 - exp(-K/C)).
 * min_th is placed so that the operating point is theirs: q0 = 175 packets, R0 = 0.2467 s.
 * The flows run MGT's Reno equation (reno.model.yaml with per-packet losses, no timeouts, +1/R).
 */
const C = 3750;
const L_RED = 1.86e-4;
const K = 0.005;
const MGT = { lossEvents: 0, timeouts: 0, segmentCounting: 1, overflowCuts: 0, secondMoment: 1 };

function hmtg(N: number, TpS: number, durationS = 1500): Scenario {
  const s = dumbbellScenario('reno', N);
  s.mssBytes = 460;
  s.headerBytes = 40;
  s.bottleneck.bandwidthBps = C * 500 * 8;
  for (const f of s.flows) {
    f.access = { bandwidthBps: 1e12, delayS: 0, queuePackets: 10000 };
    f.receiverAccess = null;
  }
  s.bottleneck.delayS = 0;
  s.bottleneck.delayS = (TpS - baseRttS(s)) / 2; // the base RTT (with serialisation) is Tp exactly
  s.bottleneck.queue = { kind: 'red', limitPackets: 1000, minThPackets: 129.8, maxThPackets: 129.8 + 0.1 / L_RED, maxP: 0.1, weight: 1 - Math.exp(-K / C), gentle: false };
  s.durationS = durationS;
  return s;
}

/** Their loop: L(s) = L_red (R0 C)^3/(2N)^2 e^{-s R0} / ((s/K + 1)(s R0^2 C/(2N) + 1)(s R0 + 1)). */
function hmtgLoop(N: number, R0: number, w: number): { re: number; im: number } {
  const g = (L_RED * (R0 * C) ** 3) / (2 * N) ** 2;
  const den = [[1, w / K], [1, (w * R0 * R0 * C) / (2 * N)], [1, w * R0]];
  let re = g * Math.cos(w * R0);
  let im = -g * Math.sin(w * R0);
  for (const [a, b] of den) {
    const d = a! * a! + b! * b!;
    [re, im] = [(re * a! + im * b!) / d, (im * a! - re * b!) / d];
  }
  return { re, im };
}

const mag = (z: { re: number; im: number }) => Math.hypot(z.re, z.im);

describe('linear stability from the models\' own equations (Hollot et al., INFOCOM 2001)', () => {
  const base = scenarioStability(hmtg(60, 0.2), { params: MGT });
  it('finds their operating point: W0 = R0 C / N = 15.4, p0 = 2 / W0^2 = 0.0084, q0 = 175, R0 = 0.2467 s', () => {
    const e = base.equilibrium;
    expect(e.regime).toBe('standing');
    expect(e.q0).toBeCloseTo(175, 0);
    expect(e.R0).toBeCloseTo(0.2 + 175 / C, 3);
    expect(e.W0).toBeCloseTo((e.R0 * C) / 60, 9);
    expect(e.p0).toBeCloseTo(2 / e.W0 ** 2, 9);
    // RED's line through the operating point: p0 = L_red (q0 - min_th).
    expect(e.p0).toBeCloseTo(L_RED * (e.q0 - 129.8), 9);
  });
  it('linearises to their loop: the same static gain L_red (R0 C)^3/(4N^2), within 5% of their L(jw) up to the crossover', () => {
    const R0 = base.equilibrium.R0;
    expect(base.dcGain).toBeCloseTo((L_RED * (R0 * C) ** 3) / (4 * 60 * 60), 3);
    for (const w of [0.01, 0.05, base.crossoverRadS!]) {
      expect(mag(base.at(w)) / mag(hmtgLoop(60, R0, w))).toBeGreaterThan(0.95);
      expect(mag(base.at(w)) / mag(hmtgLoop(60, R0, w))).toBeLessThan(1.05);
    }
  });
  it('their design is stable at N = 60, R0 = 0.246 s with wide margins, and loses stability as N falls or the RTT grows', () => {
    expect(base.stable).toBe(true);
    expect(base.phaseMarginDeg).toBeGreaterThan(60);
    expect(base.gainMargin).toBeGreaterThan(10);
    const byN = [60, 20, 10, 5].map((N) => scenarioStability(hmtg(N, 0.2), { params: MGT }));
    const byTp = [0.2, 0.5, 0.8].map((Tp) => scenarioStability(hmtg(60, Tp), { params: MGT }));
    const gms = (xs: LoopAnalysis[]) => xs.map((x) => x.gainMargin);
    // Fewer flows (a larger window per flow: the loop gain grows as 1/N^2) and a longer RTT ((R0 C)^3) both erode the margins.
    for (const series of [gms(byN), gms(byTp)]) for (let i = 1; i < series.length; i++) expect(series[i]!).toBeLessThan(series[i - 1]!);
    expect(byN.map((x) => x.stable)).toEqual([true, true, true, false]);
    expect(byTp.map((x) => x.stable)).toEqual([true, true, false]);
    for (const x of [...byN, ...byTp]) expect(x.stable).toBe(x.gainMargin > 1 && x.phaseMarginDeg > 0);
  });
  it('the fluid model itself settles at the equilibrium where the loop is stable and oscillates where it is not', () => {
    const swing = (s: Scenario): number => {
      const q = runFluid(s, { params: MGT }).queue.packets.v;
      const tail = q.slice(Math.floor(q.length * 0.8));
      return Math.max(...tail) - Math.min(...tail);
    };
    expect(swing(hmtg(60, 0.2))).toBeLessThan(1);
    expect(swing(hmtg(5, 0.2))).toBeGreaterThan(100);
    expect(swing(hmtg(60, 0.8))).toBeGreaterThan(100);
  });
  it('a drop-tail queue held full is unstable (as a loss rate, the overflow is a cliff: gain margin far below 1)', () => {
    const s = dumbbellScenario('reno');
    const r = scenarioStability(s, { params: MGT });
    expect(r.equilibrium.regime).toBe('full');
    expect(r.equilibrium.q0).toBe(s.bottleneck.queue.limitPackets);
    expect(r.stable).toBe(false);
    expect(r.gainMargin).toBeLessThan(0.1);
    // With its default overflow response (one window cut per burst, an event) the model is not a
    // linear loop there: a sawtooth, reported as such.
    const cuts = scenarioStability(s);
    expect(cuts.stable).toBe(false);
    expect(cuts.note).toMatch(/sawtooth limit cycle/);
  });
});
