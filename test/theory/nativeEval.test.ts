import { describe, expect, it } from 'vitest';
import type { MathNode } from 'mathjs';
import { parse } from '../../src/io/mathjs.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { linearModel } from '../../src/theory/linearModel.js';
import { nativeEvaluator, nativeEvalStats } from '../../src/theory/nativeEval.js';
import { equilibrium, loopValues } from '../../src/theory/stability.js';

/** The generated evaluator and mathjs's own compiled one, on the same node. */
const both = (node: MathNode) => ({ native: nativeEvaluator(node, () => node.compile()), mathjs: node.compile() });

/** What one evaluation gives: its value, or its error's message. */
function outcome(f: { evaluate(s?: object): unknown }, scope: object): { value?: unknown; error?: string } {
  try {
    return { value: f.evaluate(scope) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** Counts of calls the generated function answered and those it handed to mathjs, during `f`. */
function counted(f: () => void): { native: number; mathjs: number } {
  const before = { ...nativeEvalStats };
  f();
  return { native: nativeEvalStats.native - before.native, mathjs: nativeEvalStats.mathjs - before.mathjs };
}

describe('generated evaluation of mathjs expressions (src/theory/nativeEval.ts)', () => {
  it("gives mathjs's value where mathjs and JavaScript differ: tolerant comparisons, min's ties, complex powers, lazy and/or", () => {
    const cases: [string, object][] = [
      // mathjs's smaller/larger hold two numbers within a relative 1e-12 equal: JavaScript's < does not.
      ['x < y ? 1 : 2', { x: 1, y: 1 + 1e-14 }],
      ['x > y ? 1 : 2', { x: 1 + 1e-14, y: 1 }],
      ['x <= y ? 1 : 2', { x: 1 + 1e-14, y: 1 }],
      ['x == y', { x: 0.1 + 0.2, y: 0.3 }],
      ['min(x, y)', { x: 1 + 1e-14, y: 1 }],
      ['max(x, y, 3)', { x: 1, y: 2 }],
      // A negative base to a fractional power is a complex number in mathjs, NaN in Math.pow.
      ['x ^ (1 / 3)', { x: -8 }],
      ['sqrt(x) + 1', { x: -4 }],
      ['x and y', { x: 2, y: 0 }],
      ['x or y', { x: 0, y: 3 }],
      ['not x', { x: 0 }],
      ['x ? y / x : -y', { x: 0, y: 5 }],
      ['x / y', { x: 1, y: 0 }],
      ['-x + +y - x * y', { x: 3, y: -0 }],
      ['abs(x) + sign(y) + exp(x) - log(y)', { x: -2, y: 7 }],
    ];
    for (const [text, scope] of cases) {
      const { native, mathjs } = both(parse(text));
      expect(outcome(native, scope), text).toEqual(outcome(mathjs, scope));
    }
    // The JavaScript operators alone would say otherwise here (the test would catch a translation to them).
    expect(both(parse('x < y ? 1 : 2')).native.evaluate({ x: 1, y: 1 + 1e-14 })).toBe(2);
    expect(both(parse('min(x, y)')).native.evaluate({ x: 1 + 1e-14, y: 1 })).toBe(1 + 1e-14);
  });

  it("hands mathjs what it resolves differently: a constant from mathjs's namespace, an unknown symbol (mathjs's error), a Map scope, the keyword end", () => {
    const pi = both(parse('2 * pi * x'));
    expect(pi.native.evaluate({ x: 0.5 })).toBe(Math.PI);
    const unknown = both(parse('x + nope'));
    expect(outcome(unknown.native, { x: 1 })).toEqual({ error: 'Undefined symbol nope' });
    const map = both(parse('x * 2'));
    expect(map.native.evaluate(new Map([['x', 4]]))).toBe(8);
    expect(outcome(map.native, { x: 1, end: 2 })).toEqual(outcome(map.mathjs, { x: 1, end: 2 }));
    expect(outcome(map.native, { x: 1, end: 2 }).error).toMatch(/end/);
    // A function of the same name in the scope is mathjs's to call.
    const shadow = both(parse('min(x, 2)'));
    expect(outcome(shadow.native, { x: 1, min: 5 })).toEqual(outcome(shadow.mathjs, { x: 1, min: 5 }));
  });

  it("evaluates a linearised model's right-hand sides (shared definitions, conditionals, min/max) to mathjs's bits, itself", () => {
    for (const variant of ['reno', 'newreno', 'westwood'] as const) {
      const { values, N, models } = loopValues(presetScenario('ns3-lfn', variant));
      // Every discrete state in mode 0 (congestion avoidance), as the analysis takes them.
      const all = { ...values, ...Object.fromEntries([...models.flow.states, ...models.bottleneck.states].filter((s) => s.discrete).map((s) => [s.name, 0])) };
      const lm = linearModel(models.flow, models.bottleneck, N, all);
      const eq = equilibrium(lm, all, N);
      // The equilibrium and points around it, on either side of the models' switches.
      const points = [1, 0.5, 2, 10].map((k) => {
        const sc: Record<string, number> = {};
        for (const s of lm.states) sc[s] = sc[`${s}_tau`] = (eq.states[s] ?? 0) * k;
        sc.p = sc.p_tau = eq.p0 * k;
        return sc;
      });
      const n = counted(() => {
        for (const node of [...lm.rhs, lm.p, lm.rate, lm.R]) {
          const { native, mathjs } = both(node);
          for (const sc of points) expect(Object.is(native.evaluate({ ...sc }), mathjs.evaluate({ ...sc })), `${variant}: ${node.toString().slice(0, 60)}`).toBe(true);
        }
      });
      expect(n.mathjs, variant).toBe(0);
      expect(n.native, variant).toBe((lm.rhs.length + 3) * points.length);
    }
  });
});
