import { describe, expect, it } from 'vitest';
import { planStep } from '../../src/solver/landing.js';
import { Propagation } from '../../src/solver/propagate.js';

/**
 * The step planner (src/solver/landing.ts): a predicted echo of a discontinuity is a kink the step
 * lands 32 ulps before. When the solution already stands within those ulps of the echo (a clock of
 * period R ticks on its previous tick's echo, to rounding), the echo is reached: the step must go on
 * to the next target, not "land" with a step of zero or negative length (a zero-length step's dense
 * output divides by h = 0: bbr3 with `period: R` failed on 'd/dt lost = NaN').
 */
describe('planStep', () => {
  const lagS = 0.5;
  const echoAt = (te: number): Propagation => {
    const prop = new Propagation(() => [lagS]);
    prop.add(te, [0]);
    return prop;
  };
  it('lands 32 ulps before an echo ahead of it', () => {
    const t = 1;
    const plan = planStep(t, 0.1, 10, Infinity, echoAt(0.55));
    expect(plan.landing).toBe(true);
    expect(plan.onEcho).toBe(true);
    expect(plan.tTarget).toBe(1.05 - 32 * Number.EPSILON * 1.05);
    expect(plan.hTry).toBeGreaterThan(0);
  });
  it('an echo 20 ulps ahead (inside the landing margin) is reached: the step goes on at full length', () => {
    const t = 1;
    const te = 0.5 + 20 * Number.EPSILON; // te + lag = 1 + 20 ulps, exactly
    expect(te + lagS).toBe(t + 20 * Number.EPSILON);
    const plan = planStep(t, 0.1, 10, Infinity, echoAt(te));
    expect(plan.hTry).toBe(0.1);
    expect(plan.landing).toBe(false);
  });
  it('of two echoes, the one inside the margin is skipped and the step lands before the next', () => {
    const prop = new Propagation(() => [lagS]);
    prop.add(0.5 + 20 * Number.EPSILON, [0]);
    prop.add(0.52, [0]);
    const plan = planStep(1, 0.1, 10, Infinity, prop);
    expect(plan.onEcho).toBe(true);
    expect(plan.tEchoRaw).toBe(1.02);
    expect(plan.hTry).toBeCloseTo(0.02, 12);
  });
});
