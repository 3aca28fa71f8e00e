import { describe, expect, it } from 'vitest';
import type { EngineSet } from '../../src/engines.js';
import { runComparison } from '../../src/compare/run.js';
import { buildReport } from '../../src/report/build.js';
import { validateRecipe } from '../../src/report/recipe.js';
import { resolveScenarios } from '../../src/report/recipe.js';
import { fakeEngines } from './fakeEngines.js';

/** Issue 13: what cannot be computed is said on the page and in the report's warnings (stderr), by case and reason. */
describe('report failures are shown, never dropped', () => {
  const recipe = validateRecipe({ name: 'failures', scenarios: ['ns3-lossy'], variants: ['reno', 'cubic'], duration: 10, charts: ['equations'] });

  it('a closed form that throws is a mark in its column and a warning naming the case and the error', async () => {
    const broken: EngineSet = { ...fakeEngines, closedForms: (s) => { if (s.variant === 'reno') throw new RangeError('pftk: T0 is NaN'); return fakeEngines.closedForms(s); } };
    const cases = await runComparison(resolveScenarios(recipe), recipe.variants, { engines: broken });
    const built = await buildReport(recipe, cases, { models: () => [] });
    expect(built.warnings).toContain('ns3-lossy/reno: closed forms failed: pftk: T0 is NaN');
    expect(built.warnings.filter((w) => w.startsWith('ns3-lossy/cubic'))).toEqual([]);
    expect(built.html).toContain('the closed forms could not be computed');
  });

  it('a model file that does not parse costs its own equations, named on the page and in the warnings; the others stay', async () => {
    const cases = await runComparison(resolveScenarios(recipe), recipe.variants, { engines: fakeEngines });
    const { InputError } = await import('../../src/errors.js');
    const models = (v: string) => {
      if (v === 'cubic') throw new InputError('models', 'cubic.model.yaml: line 3: unexpected ":"');
      return [{ id: v, title: `${v} model`, equations: [{ latex: '\\frac{dW}{dt} = \\frac{1}{R}' }] }];
    };
    const built = await buildReport(recipe, cases, { models });
    expect(built.warnings).toContain('fluid model of cubic: models cubic.model.yaml: line 3: unexpected ":"');
    expect(built.html).toMatch(/Not shown: cubic: models cubic\.model\.yaml/);
    expect(built.html).toContain('reno model');
  });
});
