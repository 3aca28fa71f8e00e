import { DEFAULT_MODELS_DIR, modelFileIds, prepareSystems } from '../src/fluid/compiler/systemCache.js';

/**
 * Compiles the repository's fluid models into the on-disk cache once per test run (only those whose
 * files or compiler changed), so that test files that run the fluid engine without loading the
 * compiler read them from disk instead of each starting a compiler process. A broken model is left
 * to the model tests to report.
 */
export default async function setup(): Promise<void> {
  for (const id of modelFileIds(DEFAULT_MODELS_DIR)) {
    try {
      await prepareSystems(DEFAULT_MODELS_DIR, [id]);
    } catch (e) {
      console.warn(`globalSetup: fluid model '${id}' does not compile (${(e as Error).message}); its tests will fail`);
    }
  }
}
