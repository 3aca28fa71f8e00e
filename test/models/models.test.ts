import { describe, expect, it } from 'vitest';
import { getModel, loadModels, modelIds } from '../../src/fluid/index.js';
import { equationPartialsAt } from '../../src/theory/linearModel.js';
import { fluidVariants, hasEngine, VARIANTS } from '../../src/variants.js';
import { LONE_FLOW_MODELS, STEP_QUEUE_MODELS } from '../../src/fluid/run/modelChoice.js';
import { dirWith, loadError } from './helpers.js';

const GOOD = `kind: flow
id: bad
title: test
citation: none
params:
  Tp: { unit: s, scenario: true }
  k: { unit: "1", default: 1, min: 0, max: 2 }
states:
  W: { unit: segments, initial: 1, min: 1 }
outputs:
  - rate = W / R
  - cwnd = W
equations:
  - dW/dt = EXPR
`;
const withEq = (expr: string): string => GOOD.replace('EXPR', expr);

describe('models/', () => {
  it('holds exactly one flow model per variant id of src/variants.ts, plus the models the engine picks by rule', () => {
    // A variant has a model file exactly when the registry says it has the fluid engine.
    const lone = [...Object.values(LONE_FLOW_MODELS), ...Object.values(STEP_QUEUE_MODELS)];
    expect(modelIds().filter((id) => !lone.includes(id))).toEqual(VARIANTS.filter((v) => hasEngine(v, 'fluid')).sort());
    expect(VARIANTS.filter((v) => !hasEngine(v, 'fluid'))).toEqual([]);
    // Each lone-flow model has its file and stands for a variant that has one.
    for (const [variant, id] of [...Object.entries(LONE_FLOW_MODELS), ...Object.entries(STEP_QUEUE_MODELS)]) {
      expect(modelIds()).toContain(id);
      expect(hasEngine(variant as (typeof VARIANTS)[number], 'fluid')).toBe(true);
    }
  });

  it('every model has a title, a citation, units on every state and parameter, and LaTeX without mathjs units', () => {
    for (const v of [...fluidVariants(), ...Object.values(LONE_FLOW_MODELS), ...Object.values(STEP_QUEUE_MODELS)]) {
      const m = getModel(v);
      expect(m.title.length).toBeGreaterThan(5);
      expect(m.citation.length).toBeGreaterThan(20);
      for (const s of m.states) expect(s.unit).not.toBe('');
      for (const p of m.params) expect(p.unit).not.toBe('');
      for (const e of m.equations) {
        expect(e.latex).toMatch(/^\\frac\{d/);
        expect(e.latex).not.toMatch(/\\mathrm\{W\}/);
      }
    }
  });

  it('a model added as a file is picked up without touching src/', () => {
    const set = loadModels(dirWith(withEq('k / R - W * p(t - R) * rate(t - R)')));
    expect(set.flows.get('bad')?.equations[0]?.state).toBe('W');
    expect(typeof set.system('bad').flowRhs).toBe('function');
  });

  it("equationPartialsAt(tahoe, W) in congestion avoidance: d/dR and d/db of (W - 1/2) / (mss b R) are -(W - 1/2) / (mss b R^2) and -(W - 1/2) / (mss b^2 R)", () => {
    // wait = 0, seen = 0, ss = 0, per-ACK counting, no idle share (x = 0: the growth carries 1 - x); W > mss makes
    // max(1, floor(mss / W)) = 1. The ACKs come from the whole-segment flight, floor(W): W - 1/2 on average.
    const point = { wait: 0, seen: 0, ss: 0, segmentCounting: 0, W: 10, mss: 1, b: 2, R: 0.1, x: 0 };
    const d = equationPartialsAt(getModel('tahoe'), 'W', ['R', 'b'], point);
    expect(d.R).toBeCloseTo(-9.5 / (1 * 2 * 0.1 ** 2), 9);
    expect(d.b).toBeCloseTo(-9.5 / (1 * 2 ** 2 * 0.1), 9);
  });
});

describe('bad model files are one-line InputErrors naming file, line and symbol', () => {
  it.each([
    ['an unknown symbol', 'k / R - Q', /bad\.model\.yaml:14: dW\/dt uses unknown symbol 'Q'/],
    ['a function outside the whitelist', 'evaluate(W)', /bad\.model\.yaml:14: .*unknown function 'evaluate'/],
    ['an assignment', 'k = 3', /bad\.model\.yaml:14: .*assignment/],
    ['a string constant', '"x"', /bad\.model\.yaml:14: .*not a finite number/],
    ['a matrix', '[1, 2]', /bad\.model\.yaml:14: .*array/],
    ['a delayed parameter', 'k(t - R)', /bad\.model\.yaml:14: .*'k' is a parameter/],
    ['a nested delay', 'W(t - R(t - R))', /nests a delayed value/],
    ['a syntax error', '1 / (R', /bad\.model\.yaml:14: dW\/dt is not a valid expression/],
    ['an operator outside the whitelist', 'W mod 2', /operator 'mod'/],
    ['a unit', '5 cm', /unknown symbol 'cm'/],
  ])('rejects %s', (_what, expr, re) => {
    const e = loadError(withEq(expr));
    expect(e.message).toMatch(re);
    expect(e.message).not.toContain('\n');
  });

  it('rejects a state without an equation, a missing citation, bad YAML and an out-of-range default', () => {
    expect(loadError(GOOD.replace('equations:\n  - dW/dt = EXPR\n', 'equations: []\n')).message).toMatch(/bad\.model\.yaml:9: states\.W needs exactly one equation/);
    expect(loadError(withEq('1').replace('citation: none\n', '')).message).toMatch(/citation is required/);
    expect(loadError('kind: flow\n  id: [').message).toMatch(/bad\.model\.yaml:\d+: yaml/);
    expect(loadError(withEq('1').replace('default: 1,', 'default: 5,')).message).toMatch(/params\.k\.default 5 is outside \[0, 2\]/);
  });

  it('rejects an output that uses the loss probability (outputs are computed before p)', () => {
    const e = loadError(withEq('1').replace('  - rate = W / R\n', '  - rate = W / R * (1 - p)\n'));
    expect(e.message).toMatch(/output 'rate' uses 'p', which is computed later/);
  });
});

describe('LaTeX of the models', () => {
  it('every equation, output and event renders with KaTeX', async () => {
    const katex = (await import('katex')).default;
    const all = [...fluidVariants().map((v) => getModel(v)), loadModels().bottleneck];
    for (const m of all) {
      for (const tex of [...m.equations, ...m.terms, ...m.outputs, ...m.events].map((x) => x.latex)) {
        expect(() => katex.renderToString(tex, { throwOnError: true }), `${m.file}: ${tex}`).not.toThrow();
      }
    }
  });
});

describe('linearisation', () => {
  it('equationPartialsAt(reno, W) at W0 = sqrt(2/(b p0)) gives dF/dW = -1/(b R0 W0) (Hollot et al., INFOCOM 2001, with b = 1: -1/(R0 W0))', () => {
    const b = 2;
    const p0 = 1e-3;
    const R0 = 0.2;
    const W0 = Math.sqrt(2 / (b * p0));
    // The MGT form: per-packet loss rate, W/2 cut, no timeouts (parameters substituted before d/dW).
    const sub = { lossEvents: 0, advanceDup: 0, timeouts: 0, segmentCounting: 0, overflowCuts: 0, secondMoment: 1, b };
    const point = { ss: 0, sack: 0, W: W0, W_tau: W0, R: R0, R_tau: R0, p_tau: p0, prt_tau: p0, pmark_tau: 0, pra: 0, D: 3, b };
    const d = equationPartialsAt(getModel('reno'), 'W', ['W', 'W_tau'], point, sub);
    // d/dW of -(W/2) W_tau p_tau / R_tau is -(W0/R0) p0/2 = -1/(b R0 W0), as p0 W0^2 = 2/b.
    expect(d.W).toBeCloseTo(-(W0 / R0) * p0 / 2, 9);
    expect(d.W).toBeCloseTo(-1 / (b * R0 * W0), 9);
    expect(d.W_tau).toBeCloseTo(-(W0 / 2) * p0 / R0, 9);
  });
});
