import { isPresetName, presetLine, presetScenario, type PresetName } from '../scenario/presets.js';
import type { ProfileName } from '../scenario/profiles.js';
import { applyProfile } from '../scenario/resolveProfile.js';
import type { Scenario } from '../scenario/types.js';
import type { Variant } from '../variants.js';
import type { ReportRecipe } from './recipe.js';

/**
 * A validated recipe (recipe.ts) resolved into complete Scenarios: its own, its contrast's, and the
 * whole recipe in the form recipe.json writes and `--recipe` reads back.
 */

/**
 * The line of an entry (`ns3-lfn` -> `lfn`): a preset's, or a full scenario's that carries a preset's
 * name (a resolved preset, as recipe.json writes them; the page pairs lines by that name too,
 * seedStudy.lineFigures); undefined for any other scenario of a file or inline.
 */
export function entryLine(e: PresetName | Scenario): string | undefined {
  const name = typeof e === 'string' ? e : e.name;
  return isPresetName(name) ? presetLine(name) : undefined;
}

/** An entry's name: the preset's, or the scenario's `name`. */
export function entryName(e: PresetName | Scenario): string {
  return typeof e === 'string' ? e : e.name;
}

/** The recipe's scenarios as complete Scenarios (the variant is replaced per run). */
export function resolveScenarios(recipe: ReportRecipe): Scenario[] {
  return resolveEntries(recipe.scenarios, recipe.variants[0]!, recipe.durationS, recipe.seed, recipe.profile);
}

/** The contrast's scenarios as complete Scenarios, with the contrast's duration (or the preset's own); none without one. */
export function resolveContrast(recipe: ReportRecipe): Scenario[] {
  const c = recipe.contrast;
  if (!c) return [];
  return c.scenarios.flatMap((e) => resolveEntries([e], recipe.variants[0]!, c.durationsS?.[entryName(e)] ?? c.durationS, recipe.seed, recipe.profile));
}

/**
 * The recipe as recipe.json writes it: in the form `--recipe` reads back (`contrast.duration`, not the
 * parsed `durationS`), with every scenario, the contrast's too, resolved in full, so that rerunning a
 * page from its recipe.json runs the same scenarios under the same seeds.
 */
export function resolvedRecipeData(recipe: ReportRecipe, scenarios: readonly Scenario[]): Record<string, unknown> {
  const { source: _source, contrast, ...rest } = recipe;
  const data: Record<string, unknown> = { ...rest, scenarios };
  if (contrast) {
    data.contrast = {
      scenarios: resolveContrast(recipe),
      duration: contrast.durationS,
      ...(contrast.durationsS ? { durations: contrast.durationsS } : {}),
      reps: contrast.reps,
    };
  }
  return data;
}

function resolveEntries(entries: readonly (PresetName | Scenario)[], variant: Variant, durationS: number, seed: number, profile: ProfileName | undefined): Scenario[] {
  return entries.map((s) => {
    if (typeof s === 'string') {
      // ns-3's profile unless the recipe or --profile names another.
      return presetScenario(s, variant, { durationS, seed, ...(profile !== undefined && { profile }) });
    }
    const c = structuredClone(s);
    // A scenario already resolved under the recipe's profile (a file's tcp.profile, `--profile`) keeps its explicit fields.
    if (profile !== undefined && c.tcp.profile !== profile) applyProfile(c, profile);
    c.durationS = durationS;
    c.seed = seed;
    for (const f of c.flows) {
      if (f.stopS !== null && f.stopS > durationS) f.stopS = Math.max(f.startS, durationS - 2.9);
      if (f.startS >= durationS) f.startS = 0;
    }
    if (c.measureFromS >= c.durationS) c.measureFromS = 0;
    return c;
  });
}
