import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadModels } from '../../src/fluid/index.js';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { dirWith as dirWithFlow, loadError as loadErrorOf } from './helpers.js';

/** A models directory with the real bottleneck and a 'reno' flow model of the given text. */
const dirWith = (flowText: string): string => dirWithFlow(flowText, 'reno');
const loadError = (flowText: string) => loadErrorOf(flowText, 'reno');

const MODEL = `kind: flow
id: reno
title: test
citation: none
params:
  Tp: { unit: s, scenario: true, min: 0.000001 }
  b: { unit: segments/ACK, scenario: true, min: 1 }
states:
  W: { unit: segments, initial: 2, min: 1, max: 10000 }
outputs:
  - rate = W / R
  - cwnd = W
TERMS
equations:
  - dW/dt = EQ
`;
const model = (terms: string, eq: string): string => MODEL.replace('TERMS', terms).replace('EQ', eq);
// Reno's mean-field law, once written out (with the brackets a term stands for) and once through two
// terms, one using the other, one reading delayed values.
const INLINE = model('', '1 / (b * R) - (W / 2 * (W(t - R) * p(t - R) / R(t - R)))');
const WITH_TERMS = model(
  'terms:\n  - "lam [1/s] = W(t - R) * p(t - R) / R(t - R)"\n  - "cut [segments/s] = W / 2 * lam"',
  '1 / (b * R) - cut',
);

/** sha256 of the RunResult of 20 s of one Reno flow at 0.1% loss with the models of `dir` (wall clock zeroed). */
function run(dir: string): string {
  const s = dumbbellScenario('reno');
  s.durationS = 20;
  s.bottleneck.loss = { rate: 1e-3, direction: 'data' };
  const r = runFluid(s, { modelsDir: dir });
  r.stats.wallS = 0;
  return createHash('sha256').update(JSON.stringify(r)).digest('hex');
}

describe('model terms (named sub-expressions)', () => {
  it('a model written with terms gives the RunResult of the model written out, byte for byte', () => {
    const inline = run(dirWith(INLINE));
    expect(run(dirWith(WITH_TERMS))).toBe(inline);
  });

  it("a clock's and an event's assignments may name terms: the RunResult of the same model written out, byte for byte", () => {
    // A per-round memory of a loss signal (set by a clock, as BBR's round filters) and a reset event.
    const clocked = (terms: string, hot: string, cold: string): string =>
      MODEL.replace('W: {', 'm: { unit: "1", initial: 0, discrete: true }\n  W: {')
        .replace('TERMS', `${terms}\nclocks:\n  round:\n    period: R\n    set: ["m = ${hot} ? 1 : m"]\nevents:\n  - name: calm\n    when: W >= 40\n    guard: m > 0\n    set: ["m = ${cold} ? 0 : m"]`)
        .replace('EQ', '1 / (b * R) - m * W / (4 * R)');
    const inline = run(dirWith(clocked('', '(W(t - R) * p(t - R) > 0.01)', '(m > 0)')));
    const named = run(dirWith(clocked('terms:\n  - "hot [1] = W(t - R) * p(t - R) > 0.01"\n  - "calm [1] = m > 0"', 'hot', 'calm')));
    expect(named).toBe(inline);
    // The signal does switch m (else the comparison above would hold for any term text).
    expect(run(dirWith(clocked('', '(W(t - R) * p(t - R) > 1000)', 'm > 0')))).not.toBe(inline);
  });

  it('the equation keeps its written text for display and carries the substituted one for the engine', () => {
    const m = loadModels(dirWith(WITH_TERMS)).flows.get('reno')!;
    expect(m.equations[0]!.written).toBe('1 / (b * R) - cut');
    expect(m.equations[0]!.expression).toBe('1 / (b * R) - (W / 2 * (W(t - R) * p(t - R) / R(t - R)))');
    expect(m.terms.map((t) => [t.name, t.unit])).toEqual([['lam', '1/s'], ['cut', 'segments/s']]);
  });

  it.each([
    ['uses a later term', 'terms:\n  - "a = 2 * c"\n  - "c = W"', 'a', /^reno\.model\.yaml:14: terms\[0\] \(a\) uses term 'c', which is defined later/],
    ['uses itself', 'terms:\n  - "a = a + 1"', 'a', /terms\[0\] \(a\) uses itself/],
    ['is read at a delayed time', 'terms:\n  - "a = W / R"', 'a(t - R)', /dW\/dt reads term 'a' at a delayed time; write the delay inside the term/],
    ['is named like a state', 'terms:\n  - "W = 2"', '1', /terms\[0\] 'W' is declared twice \(also on line 9\)/],
    ['is named R', 'terms:\n  - "R = 2"', '1', /terms\[0\] 'R' is a reserved symbol/],
    ['has no name', 'terms:\n  - "2 * W"', '1', /terms\[0\] must read 'name \[unit\] = expression', got '2 \* W'/],
    ['has an unknown symbol', 'terms:\n  - "a = W * Q"', 'a', /dW\/dt uses unknown symbol 'Q'/],
  ])('a term that %s is a one-line InputError', (_what, terms, eq, re) => {
    const e = loadError(model(terms, eq));
    expect(e.message).toMatch(re);
    expect(e.message).not.toContain('\n');
  });

  it('the written text is held to 2000 characters, the substituted one only to the expanded limit', () => {
    const long = Array(150).fill('W(t - R)').join(' + '); // 1647 characters
    const m = loadModels(dirWith(model(`terms:\n  - "a = ${long}"\n  - "c = a + a"`, 'c / 1e9 - W / 1e6'))).flows.get('reno')!;
    expect(m.equations[0]!.expression.length).toBeGreaterThan(3000);
    expect(loadError(model('', `${long} + ${long}`)).message).toMatch(/equations\[0\] is \d+ characters long, more than the 2000 accepted/);
  });
});
