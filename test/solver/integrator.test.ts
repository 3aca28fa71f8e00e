import { describe, expect, it } from 'vitest';
import { init, solve } from '../../src/solver/index.js';
import type { DdeProblem, StateEvent } from '../../src/solver/index.js';

/** x'(t) = -x(t - 1), x = 1 before 0: x(1) = 0, x(2) = -1/2, x(3) = -1/6 (method of steps by hand). */
const delayed: DdeProblem = {
  n: 1,
  y0: [1],
  tspan: [0, 3],
  minLagS: 1,
  tstops: [1, 2],
  rhs: (t, _y, dy, past) => void (dy[0] = -past(t - 1, 0)),
};

describe('Integrator: init / step / restartAt / finish', () => {
  it('stepping by hand gives the Solution solve gives, bit for bit', () => {
    const opts = { rtol: 1e-9, atol: 1e-9 };
    const whole = solve(delayed, opts);
    const integ = init(delayed, opts);
    const times: number[] = [integ.t];
    while (integ.step()) times.push(integ.t);
    times.push(integ.t);
    const stepped = integ.finish();
    expect(stepped.tEnd).toBe(3);
    expect(stepped.mesh()).toEqual(whole.mesh());
    expect(stepped.stats).toEqual(whole.stats);
    for (const s of [0.25, 1, 1.5, 2, 2.75, 3]) expect(stepped.at(s, 0)).toBe(whole.at(s, 0));
    // Each step moves time forward and lands on the declared stops 1 and 2.
    for (let k = 1; k < times.length - 1; k++) expect(times[k]!).toBeGreaterThan(times[k - 1]!);
    expect(times).toContain(1);
    expect(times).toContain(2);
    expect(Math.abs(stepped.at(3, 0) + 1 / 6)).toBeLessThan(1e-9);
  });

  it('a run can be inspected mid-way and resumed: the state at t is the exact solution there', () => {
    const integ = init(delayed, { rtol: 1e-10, atol: 1e-10 });
    while (integ.t < 1.5 && integ.step());
    const t = integ.t;
    // On [1, 2]: x = 1 - t + (t - 1)^2 / 2.
    expect(Math.abs(integ.y[0]! - (1 - t + (t - 1) ** 2 / 2))).toBeLessThan(1e-9);
    // finish() mid-way is the solution so far; stepping on afterwards still reaches the end.
    const partial = integ.finish();
    expect(partial.tEnd).toBe(t);
    integ.run();
    expect(Math.abs(integ.finish().at(3, 0) + 1 / 6)).toBeLessThan(1e-9);
  });

  it('editing y and calling restartAt(t) is a jump, as a timed event at t is, echo included', () => {
    const base: DdeProblem = { ...delayed, tspan: [0, 3], tstops: [], lags: () => [1] };
    const opts = { rtol: 1e-10, atol: 1e-12, maxStepS: 0.5 };
    // Reference: a timed jump x += 1 at t = 0.5; exact x(1) = 1 (slope -1, one unit up) and x(1.5) = 0.5,
    // and the jump's echo at 1.5 is a mesh point.
    const ref = solve({ ...base, timedEvents: [{ name: 'jump', atS: 0.5, action: (_t, y) => void (y[0] = y[0]! + 1) }] }, opts);
    const integ = init({ ...base, tstops: [0.5] }, opts);
    while (integ.t < 0.5 && integ.step());
    expect(integ.t).toBe(0.5);
    integ.y[0] = integ.y[0]! + 1;
    integ.restartAt(integ.t, true);
    const sol = integ.run().finish();
    expect(Math.abs(sol.at(1, 0) - 1)).toBeLessThan(1e-9);
    expect(Math.abs(sol.at(1.5, 0) - ref.at(1.5, 0))).toBeLessThan(1e-9);
    expect(Math.abs(sol.at(3, 0) - ref.at(3, 0))).toBeLessThan(1e-9);
    expect(Math.min(...sol.mesh().map((s) => Math.abs(s - 1.5)))).toBeLessThan(1e-12);
  });
});

describe('Solution.integrate', () => {
  it('integrates the dense solution exactly: x = 1 - t on [0, 1] has mean 1/2, x^2 integrates to 1/3', () => {
    const sol = solve(delayed, { rtol: 1e-10, atol: 1e-10 });
    const [i1, i2] = sol.integrate(0, 1, 2, (_s, y, out) => {
      out[0] = y[0]!;
      out[1] = y[0]! ** 2;
    });
    expect(Math.abs(i1! - 0.5)).toBeLessThan(1e-12);
    expect(Math.abs(i2! - 1 / 3)).toBeLessThan(1e-12);
    // Over [1, 2]: x = 1 - t + (t - 1)^2 / 2, integral = -1/2 + 1/6 = -1/3; a sub-interval cuts steps.
    expect(Math.abs(sol.integral(0, 1, 2) + 1 / 3)).toBeLessThan(1e-10);
    expect(Math.abs(sol.integrate(0.25, 0.75, 1, (_s, y, out) => void (out[0] = y[0]!))[0]! - 0.25)).toBeLessThan(1e-12);
  });
});

describe('solve(problem): every event that crosses inside a step fires', () => {
  /** n identical components x_i' = 1 from 0, each with an event x_i >= 1 that resets it to 0. */
  const identical = (n: number, extra: StateEvent[] = []): DdeProblem => ({
    n,
    y0: new Array(n).fill(0),
    tspan: [0, 2.5],
    rhs: (_t, _y, dy) => dy.fill(1),
    events: [
      ...Array.from({ length: n }, (_, i): StateEvent => ({ name: `e${i}`, g: (_t, y) => y[i]! - 1, direction: 'rising', action: (_t, y) => void (y[i] = 0) })),
      ...extra,
    ],
  });

  it('identical events crossing at the same instant all fire, in index order, at that instant', () => {
    const sol = solve(identical(50), { rtol: 1e-9, atol: 1e-9 });
    expect(sol.status).toBe('ok');
    // Each component resets at t = 1 and t = 2: 100 firings, the 50 of t = 1 first, in index order.
    expect(sol.events).toHaveLength(100);
    expect(sol.events.slice(0, 50).map((e) => e.name)).toEqual(Array.from({ length: 50 }, (_, i) => `e${i}`));
    for (const e of sol.events.slice(0, 50)) expect(Math.abs(e.t - 1)).toBeLessThan(1e-9);
    for (const e of sol.events.slice(50)) expect(Math.abs(e.t - 2)).toBeLessThan(1e-8);
    // Every component was reset: x_i(2.5) = 0.5.
    for (let i = 0; i < 50; i++) expect(Math.abs(sol.at(2.5, i) - 0.5)).toBeLessThan(1e-8);
  });

  it('events in one step fire in time order, and a later one sees the state the earlier actions left', () => {
    // x' = 1 from 0, one step of length 1 (exact: the rhs is constant). 'b' at x >= 0.6 and 'a' at
    // t >= 0.5 both cross inside it; a's action takes 0.3 off x, which undoes b's crossing at 0.6:
    // b fires where x = t - 0.3 reaches 0.6, at t = 0.9.
    const order: [string, number][] = [];
    const sol = solve(
      {
        n: 1,
        y0: [0],
        tspan: [0, 1.5],
        rhs: (_t, _y, dy) => void (dy[0] = 1),
        events: [
          { name: 'b', g: (_t, y) => y[0]! - 0.6, direction: 'rising', action: (t) => void order.push(['b', t]) },
          { name: 'a', g: (t) => t - 0.5, direction: 'rising', action: (t, y) => { order.push(['a', t]); y[0] = y[0]! - 0.3; } },
        ],
      },
      { rtol: 1e-9, atol: 1e-9, firstStepS: 1 },
    );
    expect(sol.status).toBe('ok');
    expect(order.map((o) => o[0])).toEqual(['a', 'b']);
    expect(Math.abs(order[0]![1] - 0.5)).toBeLessThan(1e-9);
    expect(Math.abs(order[1]![1] - 0.9)).toBeLessThan(1e-9);
    expect(Math.abs(sol.at(1.5, 0) - 1.2)).toBeLessThan(1e-9);
  });

  it('an action at a tie can cancel the other event of the tie (the state is re-evaluated between them)', () => {
    // Two events on the same crossing x >= 1: the first (index 0) resets x, so the second no longer sees x >= 1.
    let second = 0;
    const sol = solve(
      {
        n: 1,
        y0: [0],
        tspan: [0, 1.5],
        rhs: (_t, _y, dy) => void (dy[0] = 1),
        events: [
          { name: 'reset', g: (_t, y) => y[0]! - 1, direction: 'rising', action: (_t, y) => void (y[0] = 0) },
          { name: 'count', g: (_t, y) => y[0]! - 1, direction: 'rising', action: () => void second++ },
        ],
      },
      { rtol: 1e-9, atol: 1e-9 },
    );
    expect(sol.status).toBe('ok');
    expect(sol.events.map((e) => e.name)).toEqual(['reset']);
    expect(second).toBe(0);
  });
});

describe('PastFn.epoch', () => {
  it('a value beyond the accepted solution is the same for the same (s, epoch), so callers may cache it', () => {
    // x' = 1 - x - x(t - 0.1): steps far longer than the lag, so the rhs reads inside the step in progress
    // (extrapolated first, then iterated on the step's own dense output).
    const seen = new Map<string, number>();
    let inStep = 0;
    let mismatches = 0;
    const epochs = new Set<number>();
    const sol = solve(
      {
        n: 1,
        y0: [0],
        tspan: [0, 10],
        minLagS: 0.1,
        rhs: (t, y, dy, past) => {
          const s = t - 0.1;
          const v = past(s, 0);
          if (s > past.settledUntil) {
            inStep++;
            epochs.add(past.epoch);
            const key = `${s}|${past.epoch}`;
            const before = seen.get(key);
            if (before !== undefined && before !== v) mismatches++;
            seen.set(key, v);
          }
          dy[0] = 1 - y[0]! - v;
        },
      },
      { rtol: 1e-8, atol: 1e-10 },
    );
    expect(sol.status).toBe('ok');
    expect(Math.abs(sol.at(10, 0) - 0.5)).toBeLessThan(1e-6);
    expect(inStep).toBeGreaterThan(100);
    expect(epochs.size).toBeGreaterThan(10);
    expect(mismatches).toBe(0);
  });
});
