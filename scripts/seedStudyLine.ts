/**
 * A line of the seed study (reports/recipes/seed-study.yaml: the ns-3 setup's lines and the contrast's
 * own bottlenecks) for the diagnostic scripts, with one variant on every flow and the line flags a
 * script takes to change one choice at a time (--access-delay S, --bottleneck-delay S, --loss P).
 */
import { loadRecipe, resolveContrast, resolveScenarios } from '../src/report/recipe.js';
import { isPresetName, presetScenario } from '../src/scenario/presets.js';
import type { ProfileName } from '../src/scenario/profiles.js';
import type { Scenario } from '../src/scenario/types.js';
import type { Variant } from '../src/variants.js';
import { presetProfile, stringArg } from './scriptArgs.js';

export const seedStudy = loadRecipe('reports/recipes/seed-study.yaml');

/** --profile: a behaviour profile (default ns3, what every preset is resolved under) or `none`, cclab's own mix. */
export function profileFlag(): ProfileName | null {
  return presetProfile(stringArg('profile') ?? 'ns3');
}

/**
 * The line named `name` running `variant` under --profile, or a usage line and exit 2 for an unknown
 * name. A preset is resolved under its profile when built (presetScenario), so the line is rebuilt
 * with the recipe's duration and seed rather than having a profile laid over ns-3's.
 */
export function seedStudyLine(name: string, variant: Variant, script: string): Scenario {
  const found = [...resolveScenarios(seedStudy), ...resolveContrast(seedStudy)].find((s) => s.name === name);
  if (!found || !isPresetName(name)) {
    console.error(`usage: ${script} <lossy|ns3-lossy|lfn|ns3-lfn|normal|ns3-normal> (got ${name})`);
    process.exit(2);
  }
  const base = presetScenario(name, variant, { durationS: found.durationS, seed: found.seed, profile: profileFlag() });
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
