import { parse, SymbolNode } from 'mathjs';
import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { toLatex } from '../../src/fluid/language/latex.js';
import { defaultModelDocs, sharedSubexpressions, splitSum } from '../../src/report/models.js';
import { fluidVariants } from '../../src/variants.js';
import { ruleModels } from '../../src/fluid/run/modelChoice.js';
import { runComparison } from '../../src/compare/run.js';
import { buildReport, prebuildCharts } from '../../src/report/build.js';
import { InputError } from '../../src/errors.js';
import type { ModelDocSource } from '../../src/report/models.js';
import { resolveScenarios, validateRecipe } from '../../src/report/recipe.js';
import { fakeEngines } from './fakeEngines.js';

const tex = (t: string) => toLatex(t);

describe('model equations for the report', () => {
  it('toLatex(pow(a, b)) typesets a power, bracketing a compound base', () => {
    expect(toLatex('pow(1 - p, W)')).toBe('{{\\left(1-{p}\\right)}^{{W}}}');
    expect(toLatex('pow(x, 2)')).toBe('{{{x}}^{2}}');
  });

  it('splitSum(lhs, text) sets a long branchy sum one branch and one term per line, and leaves short ones alone', () => {
    const long = 'ss == 1 ? W * log(2) / R : (segmentCounting == 1 ? 1 : 1 / b) / R - (lossEvents == 1 ? 1 / R : rate(t - R) * p(t - R)) * ((W / 2) * (1 - timeouts) + (W - 1) * timeouts)';
    const out = splitSum('\\frac{dW}{dt}', long, parse, tex)!;
    expect(out.startsWith('\\begin{aligned}')).toBe(true);
    const lines = out.replace(/^\\begin\{aligned\}|\\end\{aligned\}$/g, '').split(' \\\\ ');
    // slow start; congestion avoidance: the increase, then the decrease on a line of its own.
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('&& \\text{if }');
    expect(lines[1]).toContain('&& \\text{otherwise}');
    expect(lines[2]).toMatch(/^&\\quad - .*\\cdot/);
    // A longer bracketed sum in a product is broken inside fixed-size brackets.
    const longer = long.replace('((W / 2) * (1 - timeouts) + (W - 1) * timeouts)', '((W / 2) * (1 - timeouts * min(1, 3 / W)) + (W - 1) * timeouts * min(1, 3 / W))');
    const more = splitSum('\\frac{dW}{dt}', longer, parse, tex)!;
    expect(more).toContain('\\Big(');
    expect(more).toContain('\\Big)');
    expect(() => katex.renderToString(more, { displayMode: true, throwOnError: true })).not.toThrow();
    expect(() => katex.renderToString(out, { displayMode: true, throwOnError: true })).not.toThrow();
    expect(splitSum('\\frac{dW}{dt}', '1 / R - W / 2', parse, tex)).toBeUndefined();
  });

  it("every variant's model and every model a rule picks renders with KaTeX, without a literal pow", async () => {
    const docs = await defaultModelDocs();
    for (const v of [...fluidVariants(), ...fluidVariants().flatMap(ruleModels)]) {
      for (const d of await docs(v)) {
        for (const e of d.equations) {
          expect(e.latex, `${d.id}`).not.toMatch(/pow\\left|mathit\{pow\}/);
          expect(() => katex.renderToString(e.latex, { displayMode: true, throwOnError: true }), `${d.id}: ${e.latex.slice(0, 60)}`).not.toThrow();
        }
      }
    }
  });

  it('a sub-expression written out more than once is set once under "where" (longest first, nested ones too); the rewritten text means the same', () => {
    const inner = 'min(1, pow(q, chains) * (1 + chains * (1 - q)))';
    const outer = `(${inner} + (1 - ${inner}) * pow(q, 1 + wafter / 2))`;
    const eqs = [`a * ${outer} + b`, `c - x * ${outer}`, 'W / R'];
    const out = sharedSubexpressions(eqs, parse, (n) => new SymbolNode(n), new Set(['W', 'R']), 30);
    expect(out.defs.map((d) => d.name)).toEqual(['Q1', 'Q2']);
    expect(out.expressions).toEqual(['a * Q1 + b', 'c - x * Q1', 'W / R']);
    expect(out.defs[0]!.expression).toBe('Q2 + (1 - Q2) * pow(q, 1 + wafter / 2)');
    expect(out.defs[1]!.expression).toBe(parse(inner).toString());
    // Substituting back gives the same values.
    const scope = { a: 2, b: 3, c: 5, x: 0.5, q: 0.19, chains: 2.5, wafter: 3, W: 10, R: 0.1 };
    const q2 = parse(out.defs[1]!.expression).evaluate(scope);
    const q1 = parse(out.defs[0]!.expression).evaluate({ ...scope, Q2: q2 });
    for (let i = 0; i < eqs.length; i++) expect(parse(out.expressions[i]!).evaluate({ ...scope, Q1: q1 })).toBeCloseTo(parse(eqs[i]!).evaluate(scope), 12);
    // A name the model already uses is not taken.
    expect(sharedSubexpressions(eqs, parse, (n) => new SymbolNode(n), new Set(['Q1']), 30).defs[0]!.name).toBe('Z1');
    expect(sharedSubexpressions(['W / R', 'W * R'], parse, (n) => new SymbolNode(n), new Set(), 3).defs).toEqual([]);
  });

  it("the shipped models' repeated timeout probability is typeset once per model", async () => {
    const docs = await defaultModelDocs();
    const reno = (await docs('reno'))[1]!;
    const where = reno.equations.filter((e) => e.label === 'where');
    expect(where.length).toBeGreaterThan(0);
    // Set right under the differential equations, before the outputs.
    const firstWhere = reno.equations.findIndex((e) => e.label === 'where');
    expect(reno.equations.slice(0, firstWhere).every((e) => e.label === undefined)).toBe(true);
    expect(reno.equations[firstWhere + where.length]!.label).toBe('output');
    // The model text writes pTO (which reads `wafter`) three times; typeset, it appears once, beside the
    // output that defines wafter.
    const wafterUses = reno.equations.map((e) => e.latex.split('\\mathit{wafter}').length - 1);
    console.log('wafter uses per equation', wafterUses.join(' '));
    expect(wafterUses.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('shows the model a rule picked for a case after the variants\' own: Reno alone on CoDel runs reno-sawtooth, beside two flows it does not', async () => {
    const queue = { kind: 'codel', limitPackets: 1000 };
    const recipe = validateRecipe({
      name: 'lone',
      scenarios: [
        { name: 'alone', bottleneck: { bandwidthBps: 20e6, delayS: 0.01, queue }, flows: [{}] },
        { name: 'shared', bottleneck: { bandwidthBps: 20e6, delayS: 0.01, queue }, flows: [{}, {}] },
      ],
      variants: ['reno', 'cubic'],
      duration: 10,
      charts: ['equations'],
    });
    const cases = await runComparison(resolveScenarios(recipe), recipe.variants, { engines: fakeEngines });
    const asked: string[] = [];
    const built = await buildReport(recipe, cases, { models: (id) => (asked.push(id), [{ id, title: `model ${id}`, equations: [] }]) });
    expect(asked).toEqual(['reno', 'cubic', 'reno-sawtooth']);
    expect(built.html).toContain('model reno-sawtooth');
  });

  it('takes the cwnd and models sections made while the runs went on (prebuildCharts) for the same charted runs, charts counted and warnings said in their place; builds them again for other cases', async () => {
    const recipe = validateRecipe({ name: 'ahead', scenarios: [{ name: 'one', bottleneck: { bandwidthBps: 20e6, delayS: 0.01 }, flows: [{}] }], variants: ['reno', 'cubic'], duration: 10, charts: ['cwnd', 'equations'] });
    const cases = await runComparison(resolveScenarios(recipe), recipe.variants, { engines: fakeEngines });
    const asked: string[] = [];
    // CUBIC's file "broken": the page warns about it whichever way the section was made.
    const models: ModelDocSource = (id) => {
      asked.push(id);
      if (id === 'cubic') throw new InputError('models', 'cubic.model.yaml is broken');
      return [{ id, title: `model ${id}`, equations: [{ latex: `W_{${id}}` }] }];
    };
    const ahead = await prebuildCharts(recipe, cases, { models });
    expect(ahead.cwnd.charts.map((c) => c.page.id)).toEqual(['cwnd-one-reno', 'cwnd-one-cubic']);
    const askedAhead = [...asked];
    expect(askedAhead).toEqual(expect.arrayContaining(['reno', 'cubic']));
    const now = new Date(0);
    const progress: string[][] = [[], []];
    const onChart = (k: number) => (d: number, t: number, label: string) => progress[k]!.push(`${d}/${t} ${label}`);
    const built = await buildReport(recipe, cases, { models, prebuiltCwnd: ahead.cwnd, prebuiltModels: ahead.models, now, onChart: onChart(0) });
    expect(asked).toEqual(askedAhead);
    // The cwnd sections rebuilt from the prebuilt charts: vega numbers its SVG clip paths per process,
    // so a chart drawn again would not be the same bytes (the page equal to this one says none was).
    const fresh = await buildReport(recipe, cases, { models, prebuilt: ahead.charts, now, onChart: onChart(1) });
    expect(asked.length).toBe(2 * askedAhead.length);
    expect(built.html).toBe(fresh.html);
    expect(built.html).toContain('model reno');
    expect(built.charts).toBe(fresh.charts);
    expect(progress[0]).toEqual(progress[1]);
    expect(built.warnings).toEqual(fresh.warnings);
    expect(built.warnings.filter((w) => w.includes('cubic.model.yaml is broken'))).toHaveLength(1);
    // Other cases (Reno alone): both sections are made again from them.
    asked.length = 0;
    const reno = cases.filter((c) => c.comparison.variant === 'reno');
    const renoOnly = await buildReport({ ...recipe, variants: ['reno'] }, reno, { models, prebuiltCwnd: ahead.cwnd, prebuiltModels: ahead.models, now });
    expect(asked).toEqual(['reno']);
    expect(renoOnly.warnings.some((w) => w.includes('cubic'))).toBe(false);
    expect(renoOnly.charts).toBe(1);
    expect(renoOnly.html).not.toContain('cwnd-one-cubic');
  });
});
