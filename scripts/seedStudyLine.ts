/**
 * A line of the seed study (reports/recipes/seed-study.yaml: the ns-3 setup's lines and the contrast's
 * own bottlenecks) for the diagnostic scripts, with one variant on every flow and the line flags a
 * script takes to change one choice at a time (--access-delay S, --bottleneck-delay S, --loss P).
 */
import { loadRecipe, resolveContrast, resolveScenarios } from '../src/report/recipe.js';
import type { Scenario } from '../src/scenario/types.js';
import type { Variant } from '../src/variants.js';
import { stringArg } from './scriptArgs.js';

export const seedStudy = loadRecipe('reports/recipes/seed-study.yaml');

/** The line named `name` running `variant`, or a usage line and exit 2 for an unknown name. */
export function seedStudyLine(name: string, variant: Variant, script: string): Scenario {
  const base = [...resolveScenarios(seedStudy), ...resolveContrast(seedStudy)].find((s) => s.name === name);
  if (!base) {
    console.error(`usage: ${script} <lossy|ns3-lossy|lfn|ns3-lfn|normal|ns3-normal> (got ${name})`);
    process.exit(2);
  }
  base.variant = variant;
  for (const f of base.flows) delete f.variant;
  return base;
}

/** Applies --access-delay, --bottleneck-delay and --loss, where given, to `s`. */
export function applyLineFlags(s: Scenario): void {
  const accessDelayS = stringArg('access-delay');
  if (accessDelayS !== undefined) for (const f of s.flows) f.access!.delayS = Number(accessDelayS);
  const bottleneckDelayS = stringArg('bottleneck-delay');
  if (bottleneckDelayS !== undefined) s.bottleneck.delayS = Number(bottleneckDelayS);
  const loss = stringArg('loss');
  if (loss !== undefined) s.bottleneck.loss!.rate = Number(loss);
}
