import { basename, extname } from 'node:path';
import { InputError } from '../../errors.js';
import { parseDataFile } from '../../io/yaml.js';
import { readUserFile } from '../../io/userFile.js';
import { DEFAULT_VARIANT, isVariant, VARIANTS, type Variant } from '../../variants.js';
import { dumbbellScenario } from '../defaults.js';
import { isPresetName, PRESET_NAMES, presetScenario } from '../presets.js';
import { MAX_FLOWS } from './scenarioSchema.js';
import type { FlowSpec, Scenario } from '../types.js';
import { validateScenario } from './validate.js';
import type { ProfileName } from '../profiles.js';
import { applyProfile, parseProfile, pickProfile } from '../resolveProfile.js';

/**
 * Scenario files (JSON or YAML) are partial Scenarios laid over a base: `base: lfn` starts from a
 * preset, no base from the generic dumbbell (src/scenario/defaults.ts). `flows` may be a list of
 * partial flows (each over the base's first flow) or a count. Every key is checked: an unknown or
 * misspelt key is an error, never silently ignored.
 */
export function loadScenarioFile(path: string, variantOverride?: Variant, profileOverride?: ProfileName): Scenario {
  return parseScenarioText(readUserFile(path, '--scenario', SCENARIO_FILE_MAX_BYTES), path, variantOverride, profileOverride);
}

/**
 * Largest scenario file read: a 10,000-flow scenario written out in full (scenario.json of `--out`)
 * is 3.1 MB; YAML parses at about 1 s per MB, so this bounds a file's parse to a few seconds.
 */
export const SCENARIO_FILE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A behaviour profile (`tcp.profile` in the file, or `profileOverride` from `--profile`) is laid over
 * the base before the file's fields, so that every field the file sets explicitly wins over it.
 */
export function parseScenarioText(text: string, source: string, variantOverride?: Variant, profileOverride?: ProfileName): Scenario {
  const raw = parseDataFile(text, source);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InputError('(root)', 'must be a mapping of scenario fields', source);
  }
  const { base, ...fields } = raw as Record<string, unknown>;
  // The file's own variant is checked even when a flag overrides it: a typo in a file is an error.
  if (fields.variant !== undefined && !isVariant(fields.variant)) {
    throw new InputError('variant', `must be one of ${VARIANTS.join(', ')}, got '${String(fields.variant)}'`, source);
  }
  const variantField = variantOverride ?? (fields.variant as Variant | undefined) ?? DEFAULT_VARIANT;
  const profile = pickProfile(fileProfile(fields, source), profileOverride, source);
  let start: Scenario;
  if (base === undefined || base === 'dumbbell') {
    start = dumbbellScenario(variantField);
    if (profile !== undefined) applyProfile(start, profile);
  } else if (isPresetName(base)) {
    // A preset is resolved under ns-3's profile unless the file or --profile names another.
    start = presetScenario(base, variantField, profile === undefined ? {} : { profile });
  } else throw new InputError('base', `must be one of dumbbell, ${PRESET_NAMES.join(', ')}, got '${String(base)}'`, source);

  const merged = mergeScenario(start, fields, source);
  if (fields.name === undefined) merged.name = basename(source, extname(source));
  merged.variant = variantField;
  return validateScenario(merged, source);
}

function fileProfile(fields: Record<string, unknown>, source: string): ProfileName | undefined {
  const tcp = fields.tcp;
  if (!isPlainObject(tcp) || !Object.hasOwn(tcp, 'profile')) return undefined;
  return parseProfile(tcp.profile, 'tcp.profile', source);
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * Deep merge of plain objects; arrays and scalars replace. Unknown keys pass through to validation,
 * including `__proto__`: it is defined as an own key (an assignment would set the prototype and the
 * key would vanish unchecked), and only the base's own keys merge (`constructor` is not one).
 */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const value = Object.hasOwn(base, k) ? deepMerge((base as Record<string, unknown>)[k], v) : v;
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out as T;
}

function mergeScenario(start: Scenario, fields: Record<string, unknown>, source: string): Scenario {
  const { flows, ...rest } = fields;
  const merged = deepMerge(structuredClone(start), rest);
  const template = start.flows[0]!;
  if (typeof flows === 'number') {
    if (!Number.isInteger(flows) || flows < 1 || flows > MAX_FLOWS) throw new InputError('flows', `must be a whole number in [1, ${MAX_FLOWS}] or a list of flows, got ${flows}`, source);
    merged.flows = Array.from({ length: flows }, (_, i) => ({ ...structuredClone(template), startS: start.flows[i]?.startS ?? template.startS }));
  } else if (Array.isArray(flows)) {
    // Counted before each entry is merged over the template (17 M entries would exhaust the heap).
    if (flows.length < 1 || flows.length > MAX_FLOWS) throw new InputError('flows', `must have 1 to ${MAX_FLOWS} entries, got ${flows.length}`, source);
    merged.flows = flows.map((f) => deepMerge(structuredClone(template), f) as FlowSpec);
  } else if (flows !== undefined) {
    throw new InputError('flows', 'must be a count or a list of flows', source);
  }
  return merged;
}
