/**
 * The fluid engine's model files, one module per job: loading and compiling a directory
 * (modelSet.ts), the repository's set behind the library getters (modelCache.ts), the report's text and LaTeX of a model
 * (modelDoc.ts) and the symbolic linearisation (linearise.ts). This module is their public entry.
 */
export { DEFAULT_MODELS_DIR, BOTTLENECK_FILE, loadModels, type ModelSet } from './modelSet.js';
export { defaultModels, getModel, modelIds } from './modelCache.js';
export type { ParsedModel } from './modelDoc.js';
export { partials, partialsAt } from './linearise.js';
