import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { DEFAULT_MODELS_DIR, loadModels } from '../../src/fluid/models.js';
import { runFluid } from '../../src/fluid/run.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { cli, sandbox, violation } from './harness.js';

/**
 * Every failure issue 12 lists, as a named case: each once crashed, hung, ran out of memory, gave
 * the wrong exit code or was silently accepted. The contract: exit 2 and one line naming the field.
 */

async function refused(args: string[], field: RegExp, maxMs = 5000): Promise<string> {
  const r = await cli(args);
  expect(violation(r, { maxMs, mustFail: true })).toBeNull();
  expect(r.stderr).toMatch(field);
  return r.stderr;
}

function file(dir: string, name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** A models directory: the repository's bottleneck plus one flow model `test` with `flow` as its text. */
function modelsWith(flow: string): string {
  const d = sandbox('cclab-models-');
  copyFileSync(join(DEFAULT_MODELS_DIR, 'bottleneck.model.yaml'), join(d, 'bottleneck.model.yaml'));
  writeFileSync(join(d, 'test.model.yaml'), flow);
  return d;
}

export const FLOW_MODEL = `kind: flow
id: test
title: test
citation: none
params:
  Tp: { unit: s, scenario: true, min: 0.000001 }
  k: { unit: "1", default: 1, min: 0, max: 2 }
states:
  W: { unit: segments, initial: 1, min: 1, max: 1000 }
outputs:
  - rate = W / R
  - cwnd = W
equations:
  - dW/dt = EXPR
`;

function modelError(flow: string): InputError {
  try {
    loadModels(modelsWith(flow));
  } catch (e) {
    if (e instanceof InputError) return e;
    throw new Error(`expected an InputError, got ${String(e)}`);
  }
  throw new Error('expected an InputError, the model loaded');
}

describe('issue 12: the schema looks keys up as own properties only', () => {
  const dir = sandbox();
  it('queue kind toString with limitPackets -5 is refused (was internal error: Invalid typed array length: -3)', async () => {
    const p = file(dir, 'kind.yaml', 'durationS: 1\nbottleneck: {queue: {kind: toString, limitPackets: -5}}\n');
    await refused(['simulate', '--scenario', p], /^cclab: error: .*kind\.yaml: bottleneck\.queue\.kind must be one of droptail, red, got 'toString'\n$/);
  });
  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'])('top-level key %s is an unknown key, in JSON and YAML', async (key) => {
    const json = file(dir, `${key}.json`, `{"durationS": 1, "${key}": {"evil": 1}}`);
    await refused(['simulate', '--scenario', json, '--print-scenario'], new RegExp(`^cclab: error: .*: ${key} is not a known key \\(known: `));
    const yaml = file(dir, `${key}.yaml`, `durationS: 1\n${key}: {evil: 1}\n`);
    await refused(['simulate', '--scenario', yaml, '--print-scenario'], new RegExp(`^cclab: error: .*: ${key} is not a known key`));
  });
  it('__proto__ inside a nested object and inside a flow is refused, not dropped', async () => {
    await refused(['simulate', '--scenario', file(dir, 'np.json', '{"bottleneck": {"__proto__": {"x": 1}}}'), '--print-scenario'], /bottleneck\.__proto__ is not a known key/);
    await refused(['simulate', '--scenario', file(dir, 'fp.yaml', 'flows:\n  - __proto__: {startS: 1}\n'), '--print-scenario'], /flows\[0\]\.__proto__ is not a known key/);
  });
  it('ccParams named constructor or __proto__ are not parameters of the variant', async () => {
    await refused(['simulate', '--scenario', file(dir, 'cc.json', '{"ccParams": {"constructor": 1}}'), '--print-scenario'], /ccParams\.constructor is not a parameter of reno/);
    await refused(['simulate', '--scenario', file(dir, 'cp.json', '{"ccParams": {"__proto__": 1}}'), '--print-scenario'], /ccParams\.__proto__ is not a parameter of reno/);
    await refused(['simulate', '--cc-param', 'constructor=1', '--print-scenario'], /ccParams\.constructor is not a parameter of reno/);
  });
  it('sweep --set reaches own fields only (constructor, flows.length, ccParams.__proto__)', async () => {
    const out = join(dir, 'sweep-out');
    await refused(['sweep', '--set', 'constructor=1', '--dry-run', '--out', out], /--set path "constructor" does not exist/);
    await refused(['sweep', '--set', 'flows.length=5', '--dry-run', '--out', out], /--set path "flows.length" does not exist/);
    await refused(['sweep', '--set', 'bottleneck.toString=1', '--dry-run', '--out', out], /--set path "bottleneck.toString" does not exist/);
    await refused(['sweep', '--variants', 'cubic', '--set', 'ccParams.__proto__=1', '--dry-run', '--out', out], /--set ccParams.__proto__ sweeps ccParams.__proto__, a parameter of none of cubic/);
  });
  it('a recipe scenario with __proto__ is refused', async () => {
    const recipe = file(dir, 'r.yaml', 'scenarios:\n  - {name: x, __proto__: {durationS: 1}}\nvariants: [reno]\n');
    await refused(['report', '--recipe', recipe, '--out', join(dir, 'rep')], /scenarios\[0\]: __proto__ is not a known key/);
  });
  it("a model parameter named constructor binds its own default (was '...got function Object()')", () => {
    const d = modelsWith(FLOW_MODEL.replace('  k: {', '  constructor: { unit: "1", default: 1, min: 0, max: 2 }\n  k: {').replace('EXPR', 'constructor / R'));
    const models = loadModels(d);
    const r = runFluid({ ...presetScenario('lfn', 'reno', { durationS: 2 }), variant: 'test' as never }, { models });
    expect(r.status).toBe('ok');
  });
  it("a call of toString(t - R) is an unknown function, not a crash", () => {
    expect(modelError(FLOW_MODEL.replace('EXPR', 'toString(t - R)')).message).toMatch(/calls unknown function 'toString'/);
  });
});

describe('issue 12: model files', () => {
  it('a future value W(t + 1) is refused; W(t - R), W(t - k) with k >= 0 and W(t) are the past', () => {
    expect(modelError(FLOW_MODEL.replace('EXPR', 'W(t + 1) - W')).message).toMatch(/^test\.model\.yaml:14: dW\/dt reads W\(t \+ 1\), which may lie in the future/);
    expect(modelError(FLOW_MODEL.replace('EXPR', 'W(t - (R - 1)) - W')).message).toMatch(/reads W\(t - \(R - 1\)\), which may lie in the future/);
    expect(modelError(FLOW_MODEL.replace('EXPR', 'W(2 * t) - W')).message).toMatch(/reads W\(2 \* t\), which may lie in the future/);
    // k has min 0, R = Tp + q/C with q held at >= 0: both provably >= 0.
    for (const ok of ['W(t - R) - W', 'W(t - k) - W', 'W(t) - W', 'W(t - (R + 2 * k)) - W', 'W(t - max(R, -1)) - W']) {
      expect(() => loadModels(modelsWith(FLOW_MODEL.replace('EXPR', ok)))).not.toThrow();
    }
    // A lag of a parameter that may be negative cannot be shown to look back.
    const negative = FLOW_MODEL.replace('k: { unit: "1", default: 1, min: 0, max: 2 }', 'k: { unit: "1", default: 1, min: -1, max: 2 }');
    expect(modelError(negative.replace('EXPR', 'W(t - k) - W')).message).toMatch(/reads W\(t - k\), which may lie in the future/);
  });
  it('unknown top-level keys (colour: red) and unknown keys of params, states and events are refused', () => {
    expect(modelError(`colour: red\n${FLOW_MODEL.replace('EXPR', '1 / R')}`).message).toBe('test.model.yaml:1: colour is not a known key (known: kind, id, form, title, citation, description, params, states, delay, outputs, equations, events)');
    expect(modelError(FLOW_MODEL.replace('EXPR', '1 / R').replace('default: 1, min: 0', 'default: 1, mni: 0')).message).toMatch(/params\.k\.mni is not a known key \(known: unit, doc, default, min, max, scenario\)/);
    expect(modelError(FLOW_MODEL.replace('EXPR', '1 / R').replace('initial: 1,', 'initial: 1, intial: 2,')).message).toMatch(/states\.W\.intial is not a known key/);
    const withEvent = `${FLOW_MODEL.replace('EXPR', '1 / R')}events:\n  - { name: cut, when: W >= 10, set: [W = W / 2], colour: red }\n`;
    expect(modelError(withEvent).message).toMatch(/events\[0\]\.colour is not a known key \(known: name, when, guard, set, reduction\)/);
  });
  it('a 200,000-term sum and a 2000-deep ternary are InputErrors, not "Maximum call stack size exceeded"', () => {
    // 200k terms of 'k+' are 400 kB: over the model file limit; 100k terms fit the file but not the expression limit.
    expect(modelError(FLOW_MODEL.replace('EXPR', Array(200_000).fill('k').join('+'))).message).toMatch(/test\.model\.yaml: \(file\) '.*' is 400\d+ bytes, more than the 262144 bytes accepted/);
    expect(modelError(FLOW_MODEL.replace('EXPR', Array(100_000).fill('1').join('+'))).message).toMatch(/equations\[0\] is 2000\d+ characters long, more than the 2000 accepted/);
    expect(modelError(FLOW_MODEL.replace('dW/dt = EXPR', `"dW/dt = ${Array(2000).fill('k > 1 ? 1 :').join(' ')} 0"`)).message).toMatch(/equations\[0\] is 2\d+ characters long, more than the 2000 accepted/);
    expect(modelError(FLOW_MODEL.replace('EXPR', `${'('.repeat(300)}k${')'.repeat(300)}`)).message).toMatch(/equations\[0\] nests brackets 300 deep, more than the 32 accepted/);
    // Within 2000 characters, a chain of 1990 unary minus signs (the deepest tree that fits) is still refused cleanly.
    expect(modelError(FLOW_MODEL.replace('EXPR', `${'-'.repeat(1990)}k`)).message).toMatch(/dW\/dt nests 1991 operations deep, more than the 200 accepted/);
  });
});
