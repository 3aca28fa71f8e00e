import { describe, expect, it } from 'vitest';
import { solve } from '../../src/solver/index.js';
import type { DdeProblem } from '../../src/solver/index.js';

const decay: DdeProblem = {
  n: 1,
  y0: [1],
  tspan: [0, 5],
  rhs: (_t, y, dy) => {
    dy[0] = -y[0]!;
  },
};

/** x'(t) = -x(t - 1), x = 1 for t <= 0: x = 1 - t on [0,1], 1 - t + (t-1)^2/2 on [1,2], ... */
function delayed(tol: number, tEnd = 3) {
  return solve(
    {
      n: 1,
      y0: [1],
      tspan: [0, tEnd],
      minLagS: 1,
      tstops: [1, 2, 3],
      rhs: (t, _y, dy, past) => {
        dy[0] = -past(t - 1, 0);
      },
    },
    { rtol: tol, atol: tol },
  );
}

describe('solve(problem) on problems with known answers', () => {
  it("solve(x' = -x) matches exp(-t) within the tolerance", () => {
    const sol = solve(decay, { rtol: 1e-8, atol: 1e-10 });
    expect(sol.status).toBe('ok');
    for (const t of [0.5, 1, 2.5, 5]) expect(Math.abs(sol.at(t, 0) - Math.exp(-t))).toBeLessThan(1e-8);
    expect(sol.stats.rhsEvaluations).toBeLessThan(1000);
  });

  it("solve(x'(t) = -x(t-1), x = 1 before 0) gives x(1) = 0, x(2) = -1/2, x(3) = -1/6", () => {
    const sol = delayed(1e-8);
    expect(sol.status).toBe('ok');
    expect(Math.abs(sol.at(1, 0) - 0)).toBeLessThan(1e-8);
    expect(Math.abs(sol.at(2, 0) + 1 / 2)).toBeLessThan(1e-8);
    expect(Math.abs(sol.at(3, 0) + 1 / 6)).toBeLessThan(1e-8);
    // Between nodes too (dense output): x(1.5) = 1 - 1.5 + 0.125 = -0.375.
    expect(Math.abs(sol.at(1.5, 0) + 0.375)).toBeLessThan(1e-7);
  });

  it('a DDE whose delay is unused equals the ODE', () => {
    const ode = solve(decay, { rtol: 1e-7, atol: 1e-9 });
    const dde = solve({ ...decay, minLagS: 0.3, rhs: (t, y, dy, past) => void (dy[0] = -y[0]! + 0 * past(t - 0.3, 0)) }, { rtol: 1e-7, atol: 1e-9 });
    // Same method, steps capped at the lag: both are within tolerance of each other and of the exact solution.
    expect(Math.abs(ode.at(5, 0) - dde.at(5, 0))).toBeLessThan(1e-8);
    expect(dde.status).toBe('ok');
  });

  it('error shrinks at the expected order as the tolerance tightens', () => {
    // Global error of an adaptive order-5 method is roughly proportional to the tolerance:
    // tightening the tolerance 100x must cut the error by well over 10x.
    const errs = [1e-4, 1e-6, 1e-8].map((tol) => Math.abs(delayed(tol).at(3, 0) + 1 / 6));
    expect(errs[1]!).toBeLessThan(errs[0]! / 10 + 1e-14);
    expect(errs[2]!).toBeLessThan(errs[1]! / 10 + 1e-14);
    // And the work grows slowly, like tol^(-1/5) (5th order): 10000x tighter costs < 15x more evaluations.
    const n4 = delayed(1e-4).stats.rhsEvaluations;
    const n8 = delayed(1e-8).stats.rhsEvaluations;
    expect(n8 / n4).toBeLessThan(15);
  });

  it('event location lands on a known crossing: x = exp(-t) reaches 0.5 at ln 2', () => {
    let hit = NaN;
    const sol = solve(
      { ...decay, events: [{ name: 'half', g: (_t, y) => y[0]! - 0.5, direction: 'falling', action: (t) => void (hit = t) }] },
      { rtol: 1e-8, atol: 1e-10 },
    );
    expect(Math.abs(hit - Math.LN2)).toBeLessThan(1e-8);
    expect(sol.events.map((e) => e.name)).toEqual(['half']);
  });

  it('an event action that resets the state restarts the integration (bouncing ball)', () => {
    // y'' = -9.81 from height 10, velocity reversed with restitution 0.5: first impact at sqrt(20/9.81).
    const times: number[] = [];
    const sol = solve(
      {
        n: 2,
        y0: [10, 0],
        tspan: [0, 3],
        rhs: (_t, y, dy) => {
          dy[0] = y[1]!;
          dy[1] = -9.81;
        },
        events: [{ name: 'impact', g: (_t, y) => y[0]!, direction: 'falling', action: (t, y) => {
          times.push(t);
          y[1] = -0.5 * y[1]!;
        } }],
      },
      // Crossings are detected by a sign change over a step: a step longer than a whole flight would miss it.
      { rtol: 1e-9, atol: 1e-9, maxStepS: 0.1 },
    );
    const t1 = Math.sqrt(20 / 9.81);
    expect(Math.abs(times[0]! - t1)).toBeLessThan(1e-7);
    // After the bounce the ball rises with half the impact speed and lands again 2 * 0.5 * v / g later.
    expect(Math.abs(times[1]! - (t1 + (2 * 0.5 * 9.81 * t1) / 9.81))).toBeLessThan(1e-6);
    expect(sol.status).toBe('ok');
  });

  it('a bound holds the component and releases it when the derivative turns inwards', () => {
    // q' = sin(t): starts at 0 held at the lower bound 0 ... q' = -1 on [0, 2] pushes q into the bound;
    // q' = cos(t) with q(0) = 0.5, lo = 0, hi = 1: q = 0.5 + sin t hits hi = 1 at pi/6, stays until pi/2
    // (where cos turns negative), then falls as 1 + (sin t - 1), hits 0 at t with sin t = 0, i.e. pi.
    const sol = solve(
      { n: 1, y0: [0.5], tspan: [0, 4], bounds: [{ index: 0, lo: 0, hi: 1 }], rhs: (t, _y, dy) => void (dy[0] = Math.cos(t)) },
      { rtol: 1e-9, atol: 1e-9 },
    );
    const ev = sol.events.map((e) => [e.name, e.t] as const);
    expect(ev.length).toBe(3);
    expect(Math.abs(ev[0]![1] - Math.PI / 6)).toBeLessThan(1e-7);
    expect(Math.abs(ev[1]![1] - Math.PI / 2)).toBeLessThan(1e-7);
    expect(Math.abs(ev[2]![1] - Math.PI)).toBeLessThan(1e-6);
    expect(sol.at(1, 0)).toBe(1);
    expect(sol.at(3.5, 0)).toBe(0);
    expect(Math.abs(sol.at(2.5, 0) - Math.sin(2.5))).toBeLessThan(1e-7);
  });

  it('reports a blow-up as a failed solution instead of numbers', () => {
    const sol = solve({ n: 1, y0: [1], tspan: [0, 2], rhs: (_t, y, dy) => void (dy[0] = y[0]! * y[0]!) });
    expect(sol.status).toBe('failed');
    expect(sol.tEnd).toBeLessThan(1.0001);
    expect(sol.message).toMatch(/collapse|non-finite|blew up/);
  });

  it('uses the history function before t0', () => {
    // x'(t) = x(t - 1), history x(s) = s + 1 on [-1, 0] (x(0) = 1): on [0, 1], x' = t, so x(1) = 1.5.
    const sol = solve(
      { n: 1, y0: [1], tspan: [0, 1], minLagS: 1, history: (s) => s + 1, rhs: (t, _y, dy, past) => void (dy[0] = past(t - 1, 0)) },
      { rtol: 1e-10, atol: 1e-10 },
    );
    expect(Math.abs(sol.at(1, 0) - 1.5)).toBeLessThan(1e-9);
  });

  it('timed events fire exactly at their time', () => {
    const sol = solve({ ...decay, timedEvents: [{ name: 'kick', atS: 1, action: (_t, y) => void (y[0] = 1) }] }, { rtol: 1e-9, atol: 1e-12 });
    expect(sol.events[0]).toEqual({ name: 'kick', t: 1 });
    expect(Math.abs(sol.at(2, 0) - Math.exp(-1))).toBeLessThan(1e-8);
  });
});

describe('solve(problem) with bounds and jumps', () => {
  it('an event that moves a held component off its bound releases it', () => {
    // x' = 1 up to the bound 1 (reached at t = 0.5), a timed jump at t = 1 halves x; it must grow again.
    const sol = solve(
      { n: 1, y0: [0.5], tspan: [0, 2], bounds: [{ index: 0, hi: 1 }], rhs: (_t, _y, dy) => void (dy[0] = 1), timedEvents: [{ name: 'halve', atS: 1, action: (_t, y) => void (y[0] = y[0]! / 2) }] },
      { rtol: 1e-9, atol: 1e-9 },
    );
    expect(sol.at(0.9, 0)).toBe(1);
    expect(Math.abs(sol.at(1.25, 0) - 0.75)).toBeLessThan(1e-9);
  });
});

describe('solve(problem) event re-arming', () => {
  it('a state-resetting event fires once per crossing, even in consecutive short steps', () => {
    // L' = 50 with L -> 0 at L >= 1: fires every 0.02 s, 50 times in [0, 1).
    let count = 0;
    const sol = solve(
      { n: 1, y0: [0], tspan: [0, 1 - 1e-9], rhs: (_t, _y, dy) => void (dy[0] = 50), events: [{ name: 'reset', g: (_t, y) => y[0]! - 1, direction: 'rising', action: (_t, y) => {
        count++;
        y[0] = 0;
      } }] },
      { rtol: 1e-9, atol: 1e-9, maxStepS: 0.01 },
    );
    expect(sol.status).toBe('ok');
    expect(count).toBe(49);
  });

  it('a pure locator (no state change) at a tangency does not chatter', () => {
    // g = (t - 1)^2 touches 0 at t = 1 from above... and g = sin-like noise: use g = -(t - 1)^2 + 1e-15.
    const sol = solve(
      { n: 1, y0: [0], tspan: [0, 2], rhs: (_t, _y, dy) => void (dy[0] = 1), events: [{ name: 'touch', g: (t) => -((t - 1) ** 2) + 1e-15, direction: 'rising', action: () => {} }] },
      { rtol: 1e-9, atol: 1e-9 },
    );
    expect(sol.status).toBe('ok');
    expect(sol.events.length).toBeLessThanOrEqual(1);
  });
});

describe('solve(problem) with steps longer than the delay', () => {
  it('unconstrained steps (iterated on the step\'s own dense output) agree with the method of steps', () => {
    // x'(t) = -x(t - 0.1) + 1 - x(t): settles at 0.5; lag much shorter than the smooth solution's scale.
    const problem: DdeProblem = {
      n: 1,
      y0: [0],
      tspan: [0, 20],
      minLagS: 0.1,
      rhs: (t, y, dy, past) => void (dy[0] = 1 - y[0]! - past(t - 0.1, 0)),
    };
    const a = solve(problem, { rtol: 1e-8, atol: 1e-10, constrained: true });
    const b = solve(problem, { rtol: 1e-8, atol: 1e-10 });
    for (const t of [0.05, 0.3, 1, 5, 20]) expect(Math.abs(a.at(t, 0) - b.at(t, 0))).toBeLessThan(1e-7);
    // The unconstrained solver takes steps far longer than the lag once the solution is smooth.
    expect(b.stats.steps).toBeLessThan(a.stats.steps);
    expect(Math.abs(b.at(20, 0) - 0.5)).toBeLessThan(1e-6);
  });
});

describe('solve(problem) with declared lags', () => {
  it('steps exactly onto the echo of a jump through the delay (te + lag)', () => {
    // x'(t) = -x(t - 1); x jumps at t = 0.5 (timed event): the rhs jumps at 1.5, where the echo lands.
    const problem: DdeProblem = {
      n: 1,
      y0: [1],
      tspan: [0, 3],
      minLagS: 1,
      lags: () => [1],
      rhs: (t, _y, dy, past) => void (dy[0] = -past(t - 1, 0)),
      timedEvents: [{ name: 'jump', atS: 0.5, action: (_t, y) => void (y[0] = y[0]! + 1) }],
    };
    const sol = solve(problem, { rtol: 1e-10, atol: 1e-12 });
    expect(sol.status).toBe('ok');
    expect(Math.min(...sol.mesh().map((t) => Math.abs(t - 1.5)))).toBeLessThan(1e-12);
    // Exact: x = 1 - t on [0, 0.5), then 1.5 - t + ... ; at t = 1: x(1) = 1 - 0.5 + 1 - 0.5 = 1.0 (jump +1, slope -1).
    expect(Math.abs(sol.at(1, 0) - 1)).toBeLessThan(1e-8);
  });
});

describe('solve(problem) convergence order', () => {
  it('with fixed steps (tolerance loose enough to accept every step) the error falls like h^5', () => {
    const errAt = (h: number): number => {
      const sol = solve({ ...decay, tspan: [0, 1] }, { rtol: 1e3, atol: 1e3, maxStepS: h, firstStepS: h });
      return Math.abs(sol.at(1, 0) - Math.exp(-1));
    };
    const e1 = errAt(0.1);
    const e2 = errAt(0.05);
    const order = Math.log2(e1 / e2);
    expect(order).toBeGreaterThan(4.5);
    expect(order).toBeLessThan(5.8);
  });

  it("a DDE with a smooth history (x'(t) = -x(t-1), x(s) = cos s before 0) converges at order ~5 with fixed steps", () => {
    const problem: DdeProblem = { n: 1, y0: [1], tspan: [0, 3], minLagS: 1, tstops: [1, 2], history: (s) => Math.cos(s), rhs: (t, _y, dy, past) => void (dy[0] = -past(t - 1, 0)) };
    const ref = solve(problem, { rtol: 1e-13, atol: 1e-13, constrained: true }).at(3, 0);
    const errAt = (h: number): number => Math.abs(solve(problem, { rtol: 1e3, atol: 1e3, maxStepS: h, firstStepS: h, constrained: true }).at(3, 0) - ref);
    const order = Math.log2(errAt(0.1) / errAt(0.05));
    expect(order).toBeGreaterThan(4);
    expect(order).toBeLessThan(6);
  });
});
