import { describe, expect, it } from 'vitest';
import { solve } from '../../src/solver/index.js';
import type { DdeProblem } from '../../src/solver/index.js';

/** x'(t) = -x(t - 1) with jumps at 0.5, 1.7 and 2.9: every jump echoes one lag later. */
const echoes: DdeProblem = {
  n: 1,
  y0: [1],
  tspan: [0, 6],
  minLagS: 1,
  lags: () => [1],
  rhs: (t, _y, dy, past) => void (dy[0] = -past(t - 1, 0)),
  timedEvents: [0.5, 1.7, 2.9].map((atS) => ({ name: `jump ${atS}`, atS, action: (_t: number, y: number[]) => void (y[0] = y[0]! + 1) })),
};

describe('solver work per step (performance invariants)', () => {
  it('a step that lands on a predicted echo is not followed by a step cut a few ulps later at the same echo', () => {
    const sol = solve(echoes, { rtol: 1e-8, atol: 1e-10 });
    expect(sol.status).toBe('ok');
    const mesh = sol.mesh();
    for (const te of [1.5, 2.7, 3.9]) expect(Math.min(...mesh.map((t) => Math.abs(t - te)))).toBeLessThan(1e-12);
    // No degenerate step: consecutive mesh points are never within a few ulps of each other.
    let minGap = Infinity;
    for (let k = 0; k + 1 < mesh.length; k++) minGap = Math.min(minGap, mesh[k + 1]! - mesh[k]!);
    expect(minGap).toBeGreaterThan(1e-12);
  });

  it('steps longer than the smallest lag whose stages only read final values are not iterated', () => {
    // The declared minimum lag (0.05) is far below the delay the rhs actually uses (5): steps of ~1 are
    // "long", but every delayed value they read is already accepted.
    const problem: DdeProblem = {
      n: 1,
      y0: [0],
      tspan: [0, 20],
      minLagS: 0.05,
      rhs: (t, y, dy, past) => void (dy[0] = Math.cos(t) - 0.1 * y[0]! + 0.01 * past(t - 5, 0)),
    };
    const sol = solve(problem, { rtol: 1e-7, atol: 1e-9 });
    expect(sol.status).toBe('ok');
    // Each attempt is accepted or rejected; no fixed-point re-steps on top.
    expect(sol.stats.steps).toBe(sol.stats.rejected + sol.mesh().length - 1);
    const ref = solve(problem, { rtol: 1e-7, atol: 1e-9, constrained: true });
    for (const t of [1, 7, 13, 20]) expect(Math.abs(sol.at(t, 0) - ref.at(t, 0))).toBeLessThan(1e-6);
  });

  it('a step landing on a timed event that switches the rhs is not rejected: it ends just before the switch', () => {
    // A flow starting at t = 1: the rhs is 0 before and 100 (1 + sin t) from the start on, as the fluid engine's frozen flows.
    const problem: DdeProblem = {
      n: 1,
      y0: [0],
      tspan: [0, 3],
      rhs: (t, _y, dy) => void (dy[0] = t >= 1 ? 100 * (1 + Math.sin(t)) : 0),
      timedEvents: [{ name: 'start', atS: 1, action: () => {} }],
    };
    const sol = solve(problem, { rtol: 1e-8, atol: 1e-10 });
    expect(sol.status).toBe('ok');
    expect(sol.events.map((e) => e.t)).toEqual([1]);
    expect(sol.stats.rejected).toBeLessThanOrEqual(5); // 40 when the landing step ended on the switch itself
    const exact = (t: number): number => (t <= 1 ? 0 : 100 * (t - 1 - Math.cos(t) + Math.cos(1)));
    for (const t of [0.5, 1, 1.5, 3]) expect(Math.abs(sol.at(t, 0) - exact(t))).toBeLessThan(1e-7 * Math.max(1, exact(t)));
  });

  it('Solution.stateInto gives what at() gives for every component, bounds included', () => {
    const problem: DdeProblem = {
      n: 2,
      y0: [0, 1],
      tspan: [0, 10],
      bounds: [{ index: 0, lo: 0, hi: 1 }],
      rhs: (t, y, dy) => {
        dy[0] = Math.sin(t);
        dy[1] = -y[1]!;
      },
    };
    const sol = solve(problem, { rtol: 1e-8, atol: 1e-10 });
    const out = [0, 0];
    for (let k = 0; k <= 200; k++) {
      const t = (10 * k) / 200;
      sol.stateInto(t, out);
      expect(out).toEqual([sol.at(t, 0), sol.at(t, 1)]);
    }
    expect(() => sol.stateInto(11, out)).toThrow(RangeError);
  });
});
