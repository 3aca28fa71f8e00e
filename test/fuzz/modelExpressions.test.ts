import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { DEFAULT_MODELS_DIR, loadModels } from '../../src/fluid/models.js';
import { runFluid } from '../../src/fluid/run.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { FUZZ_SEED, PROTOTYPE_KEYS } from './arbitraries.js';
import { sandbox } from './harness.js';

/**
 * Random model expressions (trees of numbers, declared and unknown symbols, operators, allowed,
 * unknown and prototype-named functions, delayed values with random lags, plus raw text and
 * pathological sizes) as a flow model's equation, and random top-level keys: loading the models
 * either succeeds or throws an InputError located at file:line; a model that loads runs to a result
 * (ok, or failed with the reason), in bounded time. Never a RangeError or a TypeError.
 */
const FLOW = (eq: string, extra = '') => `kind: flow
id: test
title: fuzz
citation: none
${extra}params:
  Tp: { unit: s, scenario: true, min: 0.000001 }
  k: { unit: "1", default: 1, min: 0, max: 2 }
  m: { unit: "1", default: 1, min: -1, max: 2 }
states:
  W: { unit: segments, initial: 1, min: 1, max: 1000 }
outputs:
  - rate = W / R
  - cwnd = W
equations:
  - ${JSON.stringify(`dW/dt = ${eq}`)}
`;

const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('W', 'R', 'k', 'm', 'p', 'q', 'C', 't', 'rate', 'A', 'nosuch', 'x1', ...PROTOTYPE_KEYS.filter((k) => /^[a-z]/i.test(k))),
    fc.oneof(fc.integer({ min: -5, max: 100 }).map(String), fc.constantFrom('0', '1e308', '1e-308', '0.5', 'Infinity', 'NaN', '1e400')),
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '^', '<', '>=', '==', ' and ', ' or ', ' mod ', '!', '='), tie('e')).map(([a, o, b]) => `${a} ${o} ${b}`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
    tie('e').map((a) => `(${a})`),
    tie('e').map((a) => `-${a}`),
    fc.tuple(fc.constantFrom('abs', 'sqrt', 'exp', 'log', 'min', 'max', 'pow', 'floor', 'tanh', 'sin', 'eval', 'expdraw', ...PROTOTYPE_KEYS.filter((k) => /^[a-z]/i.test(k))), fc.array(tie('e'), { maxLength: 3 })).map(
      ([f, args]) => `${f}(${args.join(', ')})`,
    ),
    // Delayed values: a lag that is provably >= 0, one that may be negative, a future time, nesting.
    fc.tuple(fc.constantFrom('W', 'rate', 'p', 'q', 'k', 'R'), fc.oneof(fc.constantFrom('t - R', 't', 't + 1', 't - m', 't - k', '2 * t', 't - (R - 1)', 't - W(t - R)'), tie('e').map((a) => `t - ${a}`))).map(
      ([x, arg]) => `${x}(${arg})`,
    ),
  ),
})).e;

const equation = fc.oneof(
  { arbitrary: expr, weight: 10 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 2 },
  { arbitrary: fc.constantFrom('k / R', 'k / R - W * p(t - R) * rate(t - R) / 2', 'W(t + 1)'), weight: 2 },
  // Sizes past the limits: long sums, deep brackets, long unary chains.
  { arbitrary: fc.tuple(fc.constantFrom('k+', '(', '-', 'k ? 1 : '), fc.integer({ min: 50, max: 3000 })).map(([u, n]) => (u === '(' ? `${'('.repeat(n)}k${')'.repeat(n)}` : `${u.repeat(n)}k`)), weight: 1 },
);
const extraKeys = fc.oneof(
  { arbitrary: fc.constant(''), weight: 8 },
  { arbitrary: fc.constantFrom('colour: red\n', 'constructor: 1\n', 'form: hybrid\n', 'form: toString\n', 'delay: q / C\n', 'equation: x\n'), weight: 2 },
);

describe('fuzz: model expressions', () => {
  it('100 random flow models: load or InputError at file:line; loaded ones run to a result; no RangeError', async () => {
    const root = sandbox('cclab-fuzz-models-');
    copyFileSync(join(DEFAULT_MODELS_DIR, 'bottleneck.model.yaml'), join(root, 'bottleneck.model.yaml'));
    let n = 0;
    let loaded = 0;
    await fc.assert(
      fc.asyncProperty(equation, extraKeys, async (eq, extra) => {
        const d = join(root, `m${n++}`);
        mkdirSync(d);
        copyFileSync(join(root, 'bottleneck.model.yaml'), join(d, 'bottleneck.model.yaml'));
        writeFileSync(join(d, 'test.model.yaml'), FLOW(eq, extra));
        const t0 = performance.now();
        let models;
        try {
          models = loadModels(d);
        } catch (e) {
          if (!(e instanceof InputError)) throw new Error(`${(e as Error).name}: ${(e as Error).message}\n  for dW/dt = ${eq}`);
          expect(e.message).toMatch(/^test\.model\.yaml(:\d+)?: \S/);
          expect(performance.now() - t0).toBeLessThan(2000);
          return;
        }
        loaded++;
        // The future and unprovable lags never load.
        expect(eq).not.toMatch(/\((t \+ 1|2 \* t|t - m|t - \(R - 1\))\)/);
        const r = runFluid({ ...presetScenario('lfn', 'reno', { durationS: 1 }), variant: 'test' as never }, { models });
        if (r.status === 'failed') expect(r.failure).toMatch(/^fluid model 'test' failed: .+/);
        else expect(Number.isFinite(r.summary.meanCwndSegments)).toBe(true);
        expect(performance.now() - t0).toBeLessThan(5000);
      }),
      { seed: FUZZ_SEED, numRuns: 100 },
    );
    expect(loaded).toBeGreaterThan(5);
  });
});
