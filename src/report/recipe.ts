import { dirname, isAbsolute, resolve } from 'node:path';
import { parseDataFile } from '../io/yaml.js';
import { InputError } from '../errors.js';
import { readUserFile } from '../io/userFile.js';
import { loadScenarioFile, parseScenarioText } from '../scenario/check/load.js';
import { DEFAULT_DURATION_S, isPresetName, LINE_NAMES, PRESET_NAMES, presetLine, type PresetName } from '../scenario/presets.js';
import type { ProfileName } from '../scenario/profiles.js';
import { parseProfile, pickProfile } from '../scenario/resolveProfile.js';
import type { Scenario } from '../scenario/types.js';
import { validateScenario } from '../scenario/check/validate.js';
import { parseDurationS } from '../units.js';
import { ENGINES, isVariant, MODELLED_VARIANTS, VARIANTS, type Engine, type Variant } from '../variants.js';
import { expandGrid, validateGrid } from './recipeGrid.js';
import { entryLine, entryName } from './recipeResolve.js';

// Resolving a recipe into complete Scenarios lives beside it; its callers import it from here.
export { entryLine, resolveContrast, resolvedRecipeData, resolveScenarios } from './recipeResolve.js';

/** Charts (and chart-like sections) a report can hold. */
export const CHART_KINDS = ['cwnd', 'queue', 'goodput', 'errors', 'equations', 'stability', 'competition', 'buffers', 'shares', 'delay', 'transfers'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];
/** A recipe without `charts:` gets these: the bufferbloat study's sections (delay, transfers) are asked for by name. */
export const DEFAULT_CHART_KINDS: readonly ChartKind[] = CHART_KINDS.filter((k) => k !== 'delay' && k !== 'transfers');

/**
 * What a report shows: scenarios x variants, run with both engines. Loadable from a YAML/JSON
 * recipe file (`loadRecipe`) or built from CLI flags (`recipeFromFlags`); both go through
 * `validateRecipe`, so a file and a command line are checked alike.
 */
export interface ReportRecipe {
  /** Directory-safe id: the default output is `reports/<name>/index.html`. */
  name: string;
  title: string;
  /** Presets by name (resolved with durationS and seed), or complete scenarios. */
  scenarios: (PresetName | Scenario)[];
  variants: Variant[];
  /** Simulated seconds of every run (applied to every scenario). */
  durationS: number;
  seed: number;
  /**
   * Replications of every packet run: seeds derived from `seed` as in sweeps (deriveSeed of the seed,
   * the scenario's name and the replication), so the tables show medians with 95% intervals. The
   * fluid models are deterministic and run once.
   */
  reps: number;
  /** Engines to run (default both); a table column of an engine not run shows '–'. */
  engines: Engine[];
  charts: ChartKind[];
  /** Optional paragraph shown under the title. */
  description?: string;
  /** The recipe's lines on another setup, packet engine only, their ranking set beside the scenarios'. */
  contrast?: RecipeContrast;
  /**
   * `profile:` a behaviour profile (src/scenario/profiles.ts) laid over every scenario of the recipe
   * and of its contrast when they are resolved, as `--profile` does to one scenario; a scenario file
   * or inline scenario that names another `tcp.profile` is refused. Without it each scenario keeps its own.
   */
  profile?: ProfileName;
  /** The file it came from (shown in the rerun command). */
  source?: string;
}

/**
 * `contrast:` the same lines on another setup (the seed study: ns3-lfn beside lfn, the line with its
 * own bottleneck), run with the packet engine only (no charts), with their own duration and
 * replications; the page sets each line's ranking of the variants on both setups side by side. A
 * contrast preset is set beside the recipe's scenario of the same line (`lfn` beside `ns3-lfn`).
 */
export interface RecipeContrast {
  scenarios: (PresetName | Scenario)[];
  durationS: number;
  /**
   * `durations:` a preset's own duration, overriding `duration` (the seed study: 1 Gbit/s normal, in
   * steady state within a second, runs 10 s; its 100 s runs cost more than all the rest of the page).
   */
  durationsS?: Record<string, number>;
  reps: number;
}

const KEYS = ['name', 'title', 'description', 'scenarios', 'grid', 'variants', 'duration', 'durationS', 'seed', 'reps', 'engines', 'charts', 'contrast', 'profile'] as const;
const CONTRAST_KEYS = ['scenarios', 'duration', 'durations', 'reps'] as const;
/** Most replications a report runs per scenario x variant (a sweep is the tool for more). */
export const MAX_REPORT_REPS = 100;
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function fail(field: string, problem: string, source?: string): never {
  throw new InputError(field, problem, source);
}

function listOf(raw: unknown, field: string, source?: string): unknown[] {
  if (typeof raw === 'string') return raw.split(',').map((x) => x.trim()).filter((x) => x !== '');
  if (!Array.isArray(raw)) fail(field, `must be a list (or a comma-separated string), got ${JSON.stringify(raw)}`, source);
  return raw;
}

/** A scenario entry: preset name, scenario file (relative to the recipe), or an inline partial scenario with `name` (and optional `base`). */
function scenarioEntry(raw: unknown, i: number, source: string | undefined, baseDir: string, variant: Variant, profile: ProfileName | undefined): PresetName | Scenario {
  const field = `scenarios[${i}]`;
  if (typeof raw === 'string') {
    if (isPresetName(raw)) return raw;
    if (/\.(json|ya?ml)$/i.test(raw)) {
      const path = isAbsolute(raw) ? raw : resolve(baseDir, raw);
      try {
        return loadScenarioFile(path, variant, profile);
      } catch (e) {
        if (e instanceof InputError && e.field === '--scenario') fail(field, e.problem, source);
        throw e;
      }
    }
    fail(field, `must be a preset (${PRESET_NAMES.join(', ')}), a .json/.yaml scenario file or an inline scenario, got '${raw}'`, source);
  }
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    if (typeof o.name !== 'string' || !NAME_RE.test(o.name)) fail(`${field}.name`, `must be a name of letters, digits, '.', '_' or '-', got ${JSON.stringify(o.name)}`, source);
    // Same rules as a scenario file (`base:` preset or the dumbbell, every key checked); JSON text is valid YAML.
    return parseScenarioText(JSON.stringify(o), `${source ?? 'recipe'}: ${field}`, variant, profile);
  }
  return fail(field, `must be a preset name, a scenario file or a mapping, got ${JSON.stringify(raw)}`, source);
}

/** Check a parsed recipe object (from a file or flags) and fill defaults. */
export function validateRecipe(raw: unknown, source?: string, baseDir = process.cwd()): ReportRecipe {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('(root)', 'must be a mapping with name, scenarios, variants, ...', source);
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!(KEYS as readonly string[]).includes(k)) fail(k, `is not a recipe field (accepted: ${KEYS.filter((x) => x !== 'durationS').join(', ')})`, source);
  }
  const name = o.name ?? 'report';
  if (typeof name !== 'string' || !NAME_RE.test(name)) fail('name', `must be letters, digits, '.', '_' or '-' (it names the output folder), got ${JSON.stringify(name)}`, source);
  const title = o.title ?? `cclab report: ${name}`;
  if (typeof title !== 'string') fail('title', `must be a string, got ${JSON.stringify(title)}`, source);
  if (o.description !== undefined && typeof o.description !== 'string') fail('description', 'must be a string', source);

  // By default every variant both engines have (a report compares them); others are named explicitly.
  const variantsRaw = listOf(o.variants ?? [...MODELLED_VARIANTS], 'variants', source);
  if (variantsRaw.length === 0) fail('variants', `must list at least one of ${VARIANTS.join(', ')}`, source);
  const variants = variantsRaw.map((v, i) => (isVariant(v) ? v : fail(`variants[${i}]`, `must be one of ${VARIANTS.join(', ')}, got '${String(v)}'`, source)));
  if (new Set(variants).size !== variants.length) fail('variants', 'lists a variant twice', source);

  // The profile first: a file or inline scenario is resolved under it (a preset base under ns-3's
  // otherwise), and one that names another tcp.profile is refused there.
  const profile = o.profile === undefined ? undefined : parseProfile(o.profile, 'profile', source);
  // A grid (mixes x buffers, src/report/recipeGrid.ts) adds its scenarios after the listed ones.
  const grid = o.grid === undefined ? [] : expandGrid(validateGrid(o.grid, source), variants[0]!, source);
  const scenariosRaw = listOf(o.scenarios ?? (grid.length > 0 ? [] : [...LINE_NAMES]), 'scenarios', source);
  if (scenariosRaw.length === 0 && grid.length === 0) fail('scenarios', `must list at least one of ${PRESET_NAMES.join(', ')} (or scenario files)`, source);
  // Each scenario runs with every variant: it is checked with each (ccParams must suit them all).
  const scenarios = [...scenariosRaw.map((s, i) => scenarioEntry(s, i, source, baseDir, variants[0]!, profile)), ...grid].map((entry, i) => {
    if (typeof entry !== 'string') for (const v of variants.slice(1)) validateScenario({ ...entry, variant: v }, `${source ?? 'recipe'}: ${i < scenariosRaw.length ? `scenarios[${i}]` : `grid ${entry.name}`} with ${v}`);
    return entry;
  });
  const names = scenarios.map((s) => (typeof s === 'string' ? s : s.name));
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) fail('scenarios', `lists '${dup}' twice (scenario names must be unique)`, source);

  const durationS = durationOf(o.duration ?? o.durationS ?? DEFAULT_DURATION_S, 'duration', source);

  const seed = o.seed ?? 1;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) fail('seed', `must be a whole number in [0, 4294967295], got ${JSON.stringify(seed)}`, source);

  const reps = repsOf(o.reps ?? 1, 'reps', source);

  const enginesRaw = listOf(o.engines ?? [...ENGINES], 'engines', source);
  if (enginesRaw.length === 0) fail('engines', `must list at least one of ${ENGINES.join(', ')}`, source);
  const engines = enginesRaw.map((e, i) => ((ENGINES as readonly unknown[]).includes(e) ? (e as Engine) : fail(`engines[${i}]`, `must be one of ${ENGINES.join(', ')}, got '${String(e)}'`, source)));
  if (new Set(engines).size !== engines.length) fail('engines', 'lists an engine twice', source);

  const chartsRaw = listOf(o.charts ?? [...DEFAULT_CHART_KINDS], 'charts', source);
  const charts = chartsRaw.map((c, i) =>
    (CHART_KINDS as readonly unknown[]).includes(c) ? (c as ChartKind) : fail(`charts[${i}]`, `must be one of ${CHART_KINDS.join(', ')}, got '${String(c)}'`, source),
  );

  const recipe: ReportRecipe = { name, title, scenarios, variants, durationS, seed, reps, engines, charts };
  if (typeof o.description === 'string') recipe.description = o.description;
  if (o.contrast !== undefined) recipe.contrast = contrastOf(o.contrast, scenarios, variants, source, baseDir, profile);
  if (profile !== undefined) {
    // The grid's scenarios are built here, not read from a file: each must not name another profile.
    for (const e of grid) pickProfile(e.tcp.profile, profile, `${source ?? 'recipe'}: scenario '${e.name}'`);
    recipe.profile = profile;
  }
  if (source !== undefined) recipe.source = source;
  return recipe;
}

function durationOf(raw: unknown, field: string, source?: string): number {
  let durationS: number;
  if (typeof raw === 'number') durationS = raw;
  else if (typeof raw === 'string') {
    try {
      durationS = parseDurationS(raw, field);
    } catch (e) {
      return fail(field, e instanceof InputError ? e.problem : String(e), source);
    }
  } else return fail(field, `must be a time such as 20s or 100 (seconds), got ${JSON.stringify(raw)}`, source);
  if (!(durationS > 3 && durationS <= 1e5)) fail(field, `must be in (3 s, 100000 s] (the application stops 2.9 s before the end), got ${durationS} s`, source);
  return durationS;
}

function repsOf(raw: unknown, field: string, source?: string): number {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > MAX_REPORT_REPS) fail(field, `must be a whole number in [1, ${MAX_REPORT_REPS}], got ${JSON.stringify(raw)}`, source);
  return raw;
}

function contrastOf(raw: unknown, main: readonly (PresetName | Scenario)[], variants: Variant[], source: string | undefined, baseDir: string, profile: ProfileName | undefined): RecipeContrast {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('contrast', 'must be a mapping with scenarios, duration and reps', source);
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!(CONTRAST_KEYS as readonly string[]).includes(k)) fail(`contrast.${k}`, `is not a contrast field (accepted: ${CONTRAST_KEYS.join(', ')})`, source);
  }
  const list = listOf(o.scenarios ?? [...LINE_NAMES], 'contrast.scenarios', source);
  const scenarios = list.map((s, i) => {
    const e = scenarioEntry(s, i, source, baseDir, variants[0]!, profile);
    const line = entryLine(e);
    const partner = main.find((m) => entryLine(m) === line && m !== e);
    if (line === undefined || !partner) fail(`contrast.scenarios[${i}]`, `must be a preset whose line (${LINE_NAMES.join(', ')}) is among the recipe's scenarios, got ${JSON.stringify(s)}`, source);
    return e;
  });
  if (scenarios.length === 0) fail('contrast.scenarios', 'must list at least one preset', source);
  const durationsS = o.durations === undefined ? undefined : contrastDurations(o.durations, scenarios, source);
  return {
    scenarios,
    durationS: durationOf(o.duration ?? DEFAULT_DURATION_S, 'contrast.duration', source),
    ...(durationsS ? { durationsS } : {}),
    reps: repsOf(o.reps ?? 1, 'contrast.reps', source),
  };
}

/** `contrast.durations`: a mapping from presets of the contrast to their own durations. */
function contrastDurations(raw: unknown, scenarios: readonly (PresetName | Scenario)[], source: string | undefined): Record<string, number> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('contrast.durations', 'must be a mapping from contrast presets to durations (e.g. {normal: 10s})', source);
  const out: Record<string, number> = {};
  for (const [name, d] of Object.entries(raw as Record<string, unknown>)) {
    if (!scenarios.some((e) => entryName(e) === name)) fail(`contrast.durations.${name}`, `is not a scenario of contrast.scenarios (${scenarios.map(entryName).join(', ')})`, source);
    out[name] = durationOf(d, `contrast.durations.${name}`, source);
  }
  return out;
}

/** Parse recipe text (YAML, or JSON by extension) into a validated recipe. */
export function parseRecipeText(text: string, source: string, baseDir = dirname(source)): ReportRecipe {
  return validateRecipe(parseDataFile(text, source), source, baseDir);
}

/** Load `reports/recipes/<name>.yaml` or any recipe path. */
export function loadRecipe(path: string): ReportRecipe {
  return parseRecipeText(readUserFile(path, '--recipe', RECIPE_FILE_MAX_BYTES), path);
}

/** Largest recipe file read: recipes list scenarios (inline ones are a few hundred bytes each). */
export const RECIPE_FILE_MAX_BYTES = 1024 * 1024;

export interface RecipeFlags {
  name?: string;
  title?: string;
  /** Preset names or scenario files. */
  scenarios?: string[];
  variants?: string[];
  durationS?: number;
  seed?: number;
  reps?: number;
  engines?: string[];
  charts?: string[];
  /** `--profile`: laid over every scenario and the contrast (wins over the recipe's `profile:`). */
  profile?: string;
}

/** A recipe from flags, optionally over a base recipe (flags win). Errors name the flag. */
export function recipeFromFlags(flags: RecipeFlags, base?: ReportRecipe): ReportRecipe {
  const raw: Record<string, unknown> = {};
  const from = base ?? undefined;
  raw.name = flags.name ?? from?.name ?? 'report';
  raw.title = flags.title ?? from?.title ?? (flags.name ? `cclab report: ${flags.name}` : undefined);
  if (from?.description !== undefined) raw.description = from.description;
  raw.scenarios = flags.scenarios ?? from?.scenarios;
  raw.variants = flags.variants ?? from?.variants;
  raw.duration = flags.durationS ?? from?.durationS;
  raw.seed = flags.seed ?? from?.seed;
  raw.reps = flags.reps ?? from?.reps;
  raw.engines = flags.engines ?? from?.engines;
  raw.charts = flags.charts ?? from?.charts;
  raw.profile = flags.profile ?? from?.profile;
  if (from?.contrast) {
    // Scenarios chosen by flags keep the contrast lines they still hold.
    const main = (raw.scenarios ?? []) as unknown[];
    const lines = new Set<string | undefined>(main.map((s) => (typeof s === 'string' ? (isPresetName(s) ? presetLine(s) : undefined) : entryLine(s as Scenario))));
    const kept = from.contrast.scenarios.filter((s) => entryLine(s) !== undefined && lines.has(entryLine(s)) && !main.includes(s));
    const durations = Object.fromEntries(Object.entries(from.contrast.durationsS ?? {}).filter(([name]) => kept.some((e) => entryName(e) === name)));
    if (kept.length > 0) raw.contrast = { scenarios: kept, duration: from.contrast.durationS, ...(Object.keys(durations).length > 0 ? { durations } : {}), reps: from.contrast.reps };
  }
  for (const k of Object.keys(raw)) if (raw[k] === undefined) delete raw[k];
  try {
    const r = validateRecipe(raw);
    if (from?.source !== undefined) r.source = from.source;
    return r;
  } catch (e) {
    // Name the flag, not the recipe field, when the value came from the command line.
    if (e instanceof InputError && !e.source) {
      const top = e.field.replace(/\[.*$/, '');
      throw new InputError(`--${top === 'duration' ? 'duration' : top}`, e.problem);
    }
    throw e;
  }
}
