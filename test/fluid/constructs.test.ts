import { describe, expect, it } from 'vitest';
import { fluidSystem } from '../../src/fluid/run/runFluid.js';
import { solve } from '../../src/solver/index.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { dirWith, loadError } from '../models/helpers.js';
import { flowPath } from '../../src/scenario/path.js';

/**
 * (The probe model is saved as reno.model.yaml in a folder of its own, so a reno Scenario runs it.)
 * The model language's clocks, timers and windowed extrema (models/README.md, "Clocks, timers and
 * windows"), each on its own against a known signal: a flow model whose rate is a constant 1 packet/s
 * (so the queue stays empty) carries the construct under test, and the solution is read at given times.
 */
const HEAD = `kind: flow
id: reno
title: probe
citation: test
params:
  Tp: { unit: s, scenario: true, min: 0.000001 }
`;
const OUT = `outputs:
  - rate [packets/s] = 1
  - cwnd [segments] = 1
`;

function solveProbe(text: string, durationS: number): { at: (t: number, name: string) => number } {
  const dir = dirWith(text, 'reno');
  const s = dumbbellScenario('reno');
    s.durationS = durationS;
  const sys = fluidSystem(s, { modelsDir: dir });
  const sol = solve(sys.problem, { rtol: 1e-8, atol: 1e-10 });
  expect(sol.status).toBe('ok');
  return { at: (t, name) => sol.at(t, sys.layout.yFlow(0, name)) };
}

describe('clocks', () => {
  it('a clock of period 0.5 s with 4 phases is in phase floor(t / 0.5) mod 4, and its tick runs its assignments', () => {
    const m = solveProbe(
      `${HEAD}states:\n  ticks: { unit: "1", initial: 0, discrete: true }\n  y: { unit: "1", initial: 0 }\n${OUT}equations:\n  - dy/dt = 0\nclocks:\n  ph: { period: 0.5, phases: 4, set: [ticks = ticks + 1] }\n`,
      5,
    );
    for (const t of [0.1, 0.6, 1.3, 1.9, 2.2, 3.4, 4.75]) {
      expect(m.at(t, 'ph')).toBe(Math.floor(t / 0.5) % 4);
      expect(m.at(t, 'ticks')).toBe(Math.floor(t / 0.5));
    }
  });
  it('a clock whose period changes with time ticks where the integral of 1/period crosses a whole number', () => {
    // period 1 / (1 + t): phases elapsed t + t^2/2, ticks at t = sqrt(1 + 2k) - 1: 0.732, 1.236, 1.646, 2
    const m = solveProbe(`${HEAD}states:\n  y: { unit: s, initial: 0, min: 0 }\n${OUT}equations:\n  - dy/dt = 1\nclocks:\n  c: { period: 1 / (1 + y), phases: 3 }\n`, 2.5);
    expect(m.at(0.73, 'c')).toBe(0);
    expect(m.at(0.735, 'c')).toBe(1);
    expect(m.at(1.64, 'c')).toBe(2);
    expect(m.at(1.65, 'c')).toBe(0);
    expect(m.at(1.99, 'c')).toBe(0);
    expect(m.at(2.01, 'c')).toBe(1);
  });
  it('a clock of period R whose ticks are read through the delay R (each tick lands on the echo of the one before) integrates exactly', () => {
    // ticks = floor(t / R); dy/dt = ticks(t - R) = floor(t / R) - 1 after the first tick, so y(kR) = R (k - 1)(k - 2) / 2.
    // Each tick's echo arrives with the next tick (test/solver/landing.test.ts holds the rounding case).
    const R = flowPath(dumbbellScenario('reno')).baseRttS;
    const m = solveProbe(`${HEAD}states:\n  ticks: { unit: "1", initial: 0, discrete: true }\n  y: { unit: "1", initial: 0 }\n${OUT}equations:\n  - dy/dt = ticks(t - R)\nclocks:\n  c: { period: R, phases: 1, set: [ticks = ticks + 1] }\n`, 30 * R);
    for (const k of [3, 10, 25]) expect(m.at(k * R + R / 2, 'y')).toBeCloseTo((R * (k - 1) * (k - 2)) / 2 + (R / 2) * (k - 1), 6);
  });
});

describe('timers', () => {
  it('a timer every 10 s for 0.2 s is on in [10, 10.2), [20.2, 20.4), ...', () => {
    const m = solveProbe(`${HEAD}states:\n  y: { unit: "1", initial: 0 }\n${OUT}equations:\n  - dy/dt = 0\ntimers:\n  probe: { every: 10, for: 0.2 }\n`, 31);
    const on = (t: number): number => m.at(t, 'probe');
    expect([on(5), on(9.99), on(10.01), on(10.19), on(10.21), on(20.19), on(20.21), on(20.39), on(20.41), on(30.41)]).toEqual([0, 0, 1, 1, 0, 0, 1, 1, 0, 1]);
  });
});

describe('windowed extrema (maxover, minover)', () => {
  it('maxover(sin, 2) and minover(sin, 2) sampled every 0.1 s equal the extrema of sin over [t - 2, t] (within the sampling step)', () => {
    // y = sin t (y' = cos t via z = cos t); the clock stores the windowed max and min every 0.1 s.
    const m = solveProbe(
      `${HEAD}states:\n  y: { unit: "1", initial: 0 }\n  z: { unit: "1", initial: 1 }\n  hi: { unit: "1", initial: 0, discrete: true }\n  lo: { unit: "1", initial: 0, discrete: true }\n${OUT}equations:\n  - dy/dt = z\n  - dz/dt = -y\nclocks:\n  c: { period: 0.1, set: ["hi = maxover(y, 2, 0.001)", "lo = minover(y, 2, 0.001)"] }\n`,
      12,
    );
    const exactMax = (t: number): number => {
      const a = Math.max(0, t - 2);
      let best = Math.max(Math.sin(a), Math.sin(t));
      for (let k = -2; k < 6; k++) {
        const peak = Math.PI / 2 + 2 * Math.PI * k;
        if (peak >= a && peak <= t) best = 1;
      }
      return best;
    };
    const exactMin = (t: number): number => {
      const a = Math.max(0, t - 2);
      let best = Math.min(Math.sin(a), Math.sin(t));
      for (let k = -2; k < 6; k++) {
        const trough = -Math.PI / 2 + 2 * Math.PI * k;
        if (trough >= a && trough <= t) best = -1;
      }
      return best;
    };
    for (let k = 3; k < 115; k += 7) {
      const tick = k * 0.1;
      const t = tick + 0.05; // between ticks: the value stored at the last tick
      // Samples every 1 ms: off by at most the signal's change in one step (|cos| <= 1) at the window's edge.
      expect(Math.abs(m.at(t, 'hi') - exactMax(tick))).toBeLessThanOrEqual(0.001);
      expect(Math.abs(m.at(t, 'lo') - exactMin(tick))).toBeLessThanOrEqual(0.001);
    }
  });
  it('maxover of a step forgets the step exactly one window after it ends', () => {
    // u = 1 on [1, 2) (a timer), 0 elsewhere; the max over 3 s stored every 0.25 s: 1 from the tick at 1.25 to the one at 4.75, 0 from 5.25.
    const m = solveProbe(
      `${HEAD}states:\n  y: { unit: "1", initial: 0 }\n  hi: { unit: "1", initial: 0, discrete: true }\n${OUT}equations:\n  - dy/dt = 0\ntimers:\n  u: { every: 100, for: 1, at: 1 }\nclocks:\n  c: { period: 0.25, set: ["hi = maxover(u, 3, 0.01)"] }\n`,
      7,
    );
    expect([0.9, 1.3, 2.6, 4.6, 4.9, 5.4, 6.5].map((t) => m.at(t, 'hi'))).toEqual([0, 1, 1, 1, 1, 0, 0]);
  });
  it('maxover in an equation: dy/dt = maxover(x, 100) with x = t integrates to t^2 / 2 (the value now is the max)', () => {
    const m = solveProbe(`${HEAD}states:\n  x: { unit: s, initial: 0, min: 0 }\n  y: { unit: "1", initial: 0 }\n${OUT}equations:\n  - dx/dt = 1\n  - dy/dt = maxover(x, 100, 0.001)\n`, 2);
    for (const t of [0.5, 1, 2]) expect(m.at(t, 'y')).toBeCloseTo((t * t) / 2, 6);
  });
  it('minover in an equation: dy/dt = minover(z, 0.5) with z = 1 + t reads the sample 0.5 s ago', () => {
    // min of 1 + s over [t - 0.5, t] is 1 + t - 0.5 once t >= 0.5 (samples every 1 ms).
    const m = solveProbe(`${HEAD}states:\n  z: { unit: "1", initial: 1 }\n  y: { unit: "1", initial: 0 }\n${OUT}equations:\n  - dz/dt = 1\n  - dy/dt = minover(z, 0.5, 0.001)\n`, 2);
    // y(t) = t for t <= 0.5 (min is z(0) = 1), then + int_0.5^t (0.5 + s) ds.
    const exact = (t: number): number => (t <= 0.5 ? t : 0.5 + 0.5 * (t - 0.5) + (t * t - 0.25) / 2);
    for (const t of [0.4, 1, 2]) expect(Math.abs(m.at(t, 'y') - exact(t))).toBeLessThan(2e-3);
  });
});

describe('bad use of clocks, timers and windows is one InputError naming the file, the line and the construct', () => {
  const BAD = HEAD.replace('id: reno', 'id: bad');
  const base = `${BAD}states:\n  W: { unit: segments, initial: 1, min: 1 }\n  m: { unit: "1", initial: 0, discrete: true }\n${OUT}equations:\n  - dW/dt = 0\n`;
  it.each([
    ['a clock of period 0', `${base}clocks:\n  c: { period: 0 }\n`, 'clocks.c.period', 'not provably > 0', 16],
    ['a clock of negative period', `${base}clocks:\n  c: { period: -1 }\n`, 'clocks.c.period', 'not provably > 0', 16],
    ['a clock whose period may be negative', `${base}clocks:\n  c: { period: W - 2 }\n`, 'clocks.c.period', 'not provably > 0', 16],
    ['a timer every 0 s', `${base}timers:\n  x: { every: 0, for: 1 }\n`, 'timers.x.every', 'not provably > 0', 16],
    ['a timer on for -1 s', `${base}timers:\n  x: { every: 1, for: -1 }\n`, 'timers.x.for', 'not provably > 0', 16],
    ['a window of 0', `${base}events:\n  - name: e\n    when: W >= 2\n    set: ["m = maxover(W, 0)"]\n`, 'events[0].set[0]', "window '0', which is not provably > 0", 18],
    ['a max over a future time', `${base}events:\n  - name: e\n    when: W >= 2\n    set: ["m = maxover(W(t + 1), 5)"]\n`, 'events[0].set[0]', 'in maxover(...) reads W(t + 1), which may lie in the future', 18],
    ['a windowed max in an output', `${BAD}states:\n  W: { unit: segments, initial: 1, min: 1 }\noutputs:\n  - rate [packets/s] = maxover(W, 1)\n  - cwnd [segments] = 1\nequations:\n  - dW/dt = 0\n`, "output 'rate'", 'allowed only in equations, terms and events', 10],
    ['a clock with 0 phases', `${base}clocks:\n  c: { period: 1, phases: 0 }\n`, 'clocks.c.phases', 'whole number in [1, 1000]', 16],
  ])('%s', (_what, text, field, problem, line) => {
    const e = loadError(text);
    expect(e.field).toBe(field);
    expect(e.problem).toContain(problem);
    expect(e.source).toBe(`bad.model.yaml:${line}`);
    expect(e.message.split('\n')).toHaveLength(1);
  });
});
