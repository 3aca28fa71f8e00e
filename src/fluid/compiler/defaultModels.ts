import { InputError } from '../../errors.js';
import type { Variant } from '../../variants.js';
import { loadModels } from './modelSet.js';
import type { ModelSet } from './modelSet.js';
import type { ParsedModel } from '../language/modelDoc.js';

/*
 * The repository's model set for the library's getters (getModel, modelIds, defaultModels). Runs and
 * the linear analysis read models through src/fluid/compiler/systemCache.ts (per model, content-keyed, on disk);
 * the whole-directory content cache that stood here (loadModelsCached) had no user left.
 */

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
