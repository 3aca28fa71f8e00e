import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { Variant } from '../variants.js';
import { DEFAULT_MODELS_DIR, loadModels } from './modelSet.js';
import type { ModelSet } from './modelSet.js';
import type { ParsedModel } from './modelDoc.js';

/** Model sets compiled from a directory, keyed by the directory and the exact contents of its model files. */
const byContents = new Map<string, ModelSet>();
const MAX_CACHED_DIRS = 8;

/**
 * {@link loadModels}, but a directory whose model files are byte for byte the ones already compiled
 * (same names, same contents) returns the compiled set again: only the files are read, nothing is
 * parsed or compiled (a sweep or a test that passes `modelsDir` on every run pays the compile once).
 * Editing a file changes the key, so the next call compiles the new version.
 */
export function loadModelsCached(dir: string = DEFAULT_MODELS_DIR): ModelSet {
  let key: string;
  try {
    const names = readdirSync(dir).filter((f) => f.endsWith('.model.yaml')).sort();
    key = [resolve(dir), ...names.map((f) => `${f}\0${readFileSync(join(dir, f), 'utf8')}`)].join('\0\0');
  } catch {
    return loadModels(dir); // reports the missing directory or file as loadModels does
  }
  const hit = byContents.get(key);
  if (hit) return hit;
  const set = loadModels(dir);
  if (byContents.size >= MAX_CACHED_DIRS) byContents.delete(byContents.keys().next().value!);
  byContents.set(key, set);
  return set;
}

let cached: ModelSet | undefined;

/** The repository's models, loaded once. */
export function defaultModels(): ModelSet {
  cached ??= loadModels();
  return cached;
}

/** The fluid model of a variant (from the repository's models/). */
export function getModel(variant: Variant | string): ParsedModel {
  const m = defaultModels().flows.get(variant);
  if (!m) throw new InputError('variant', `has no fluid model '${variant}' (have: ${[...defaultModels().flows.keys()].join(', ')})`);
  return m;
}

/** Variant ids that have a model file (a test checks this equals VARIANTS). */
export function modelIds(set: ModelSet = defaultModels()): string[] {
  return [...set.flows.keys()].sort();
}
