import { describe, expect, it } from 'vitest';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { Scenario } from '../../src/scenario/types.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { loopMargins, type Cx } from '../../src/theory/frequencyResponse.js';
import { loopValues, scenarioStability, type LoopAnalysis } from '../../src/theory/stability.js';
import { HMTG, hmtgDesignBound, hmtgLoop, hmtgScenario, MGT_RENO } from '../../src/theory/stabilityExample.js';

const C = HMTG.C;
const L_RED = HMTG.Lred;
const MGT = MGT_RENO;
const hmtg = (N: number, TpS: number, durationS = 1500): Scenario => hmtgScenario(N, TpS, durationS);
const cx = (z: Cx) => ({ re: z[0], im: z[1] });

const mag = (z: { re: number; im: number }) => Math.hypot(z.re, z.im);

/**
 * The analysis of one point of their example (N flows, propagation RTT Tp, MGT's loss response), made
 * once and shared by the tests that read it: the same scenario and parameters give the same analysis.
 */
const analyses = new Map<string, LoopAnalysis>();
function example(N: number, TpS: number): LoopAnalysis {
  const key = `${N}/${TpS}`;
  if (!analyses.has(key)) analyses.set(key, scenarioStability(hmtg(N, TpS), { params: MGT }));
  return analyses.get(key)!;
}

describe('linear stability from the models\' own equations (Hollot et al., INFOCOM 2001)', () => {
  const base = example(60, 0.2);
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
      expect(mag(base.at(w)) / mag(cx(hmtgLoop(60, R0, w)))).toBeGreaterThan(0.95);
      expect(mag(base.at(w)) / mag(cx(hmtgLoop(60, R0, w)))).toBeLessThan(1.05);
    }
  });
  it('their design is stable at N = 60, R0 = 0.246 s with wide margins, and loses stability as N falls or the RTT grows', () => {
    expect(base.stable).toBe(true);
    expect(base.phaseMarginDeg).toBeGreaterThan(60);
    expect(base.gainMargin).toBeGreaterThan(10);
    const byN = [60, 20, 10, 5].map((N) => example(N, 0.2));
    const byTp = [0.2, 0.5, 0.8].map((Tp) => example(60, Tp));
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
  it('their constants meet their own design rule, and the crossover sits at (just under) the design frequency wg = 0.1 min(2N/(R^2 C), 1/R)', () => {
    // L_red (R+ C)^3 / (2 N-)^2 <= sqrt(wg^2 / K^2 + 1): the bound is 1.95e-4 at N- = 60, R+ = 0.246 s, K = 0.005.
    expect(hmtgDesignBound()).toBeCloseTo(1.9485e-4, 7);
    expect(L_RED).toBeLessThan(hmtgDesignBound());
    const R0 = base.equilibrium.R0;
    const wg = 0.1 * Math.min((2 * 60) / (R0 * R0 * C), 1 / R0);
    expect(base.crossoverRadS!).toBeLessThan(wg);
    expect(base.crossoverRadS!).toBeGreaterThan(0.9 * wg);
    expect(base.crossoverRadS!).toBeCloseTo(0.0506, 4);
  });
  it('gives the margins of their closed-form loop at every point of the example (crossover within 0.5%, phase margin within 1 degree, gain margin within 5%)', () => {
    for (const [N, Tp] of [[60, 0.2], [20, 0.2], [5, 0.2], [60, 0.5], [60, 0.8]] as const) {
      const ours = example(N, Tp);
      const R0 = ours.equilibrium.R0;
      const theirs = loopMargins((w) => hmtgLoop(N, R0, w), R0);
      expect(ours.feedback).toBe(true);
      expect(ours.crossoverRadS! / theirs.crossoverRadS!).toBeCloseTo(1, 2);
      expect(Math.abs(ours.phaseMarginDeg - theirs.phaseMarginDeg)).toBeLessThan(1);
      expect(ours.gainMargin / theirs.gainMargin).toBeGreaterThan(0.95);
      expect(ours.gainMargin / theirs.gainMargin).toBeLessThan(1.05);
      // Nyquist on their loop: no encirclement of -1 exactly where ours is stable.
      expect(theirs.encirclements === 0).toBe(ours.stable);
    }
  });
  it('reads whole-byte growth (floor) through the middle of its steps: NewReno on `normal` (mss 340) has an equilibrium where the staircase has only a jump', () => {
    const s = presetScenario('ns3-normal', 'newreno', { durationS: 100, seed: 1 });
    const a = scenarioStability(s);
    const W = a.equilibrium.W0;
    const p = a.equilibrium.p0;
    const R = a.equilibrium.R0;
    expect(a.equilibrium.regime).toBe('empty');
    expect(p).toBeCloseTo(s.bottleneck.loss.rate, 12);
    // newreno.model.yaml in congestion avoidance with SACK (b = 2 segments per ACK, D = 3, mss 340,
    // secondMoment 1.167, timeouts at rate p^2): growth through the middle of floor's steps equals the loss term.
    const mss = 340;
    const b = 2;
    expect(loopValues(s).values).toMatchObject({ mss, b, D: 3, sack: 1, flightSsthresh: 1, secondMoment: 1.167, timeouts: 1, lossEvents: 1 });
    const loss = (w: number) => (1.167 * (1 - (1 - p) ** w)) / R * (((w + 2) / 2) * (1 - p * p) + (w - 1) * p * p);
    expect(((mss / W - 0.5) * W) / (mss * b) / R - loss(W)).toBeCloseTo(0, 6);
    // The staircase itself: growth 4 W / 680 below W = 85 and 3 W / 680 above, loss 0.43 / R between: no root.
    const stair = (w: number) => (Math.max(1, Math.floor(mss / w)) * w) / (mss * b) / R - loss(w);
    expect(stair(84.99)).toBeGreaterThan(0);
    expect(stair(85.01)).toBeLessThan(0);
    expect(W).toBeGreaterThan(80);
    expect(W).toBeLessThan(90);
    // Random loss only, the queue empty: p does not depend on the state, so there is no loop through p.
    expect(a.feedback).toBe(false);
    expect(a.crossoverRadS).toBeNull();
    expect(a.note).toMatch(/no loop through p/);
  });
  it('finds a heavily lossy line\'s few-segment window from below: Reno on ns3-lossy (p = 0.1, W0 ~ 4.4 against a BDP of ~34) as on own lossy', () => {
    // Newton from the window that fills the link (34 segments) ran to W -> 0 here; the smaller starts
    // find it. With the queue empty, Reno's window balance depends on p, b and D, not on the link: the
    // same W0 on both setups of the line (their RTTs 114 and 22 ms).
    const ns3 = scenarioStability(presetScenario('ns3-lossy', 'reno', { durationS: 100, seed: 1 })).equilibrium;
    const own = scenarioStability(presetScenario('lossy', 'reno', { durationS: 100, seed: 1 })).equilibrium;
    expect(ns3.regime).toBe('empty');
    expect(own.regime).toBe('empty');
    expect(ns3.R0).toBeCloseTo(0.1139424, 6);
    expect(ns3.W0).toBeGreaterThan(3);
    expect(ns3.W0).toBeLessThan(6);
    expect(ns3.W0 / own.W0 - 1).toBeCloseTo(0, 9);
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

describe('the linearised model leaves counters out', () => {
  it("Reno's nto (expected timeouts so far) has no equilibrium and feeds nothing: the loop is built from W, x and the queue", async () => {
    const { linearModel } = await import('../../src/theory/linearModel.js');
    const { values, N, models } = loopValues(presetScenario('ns3-lfn', 'reno'));
    const lm = linearModel(models.flow, models.bottleneck, N, { ...values, ss: 0, pend: 0, tov: -1000 });
    expect(models.flow.states.map((s) => s.name)).toContain('nto');
    expect(lm.states).not.toContain('nto');
    expect(lm.states).toEqual(expect.arrayContaining(['W', 'x', 'q']));
  });
});
