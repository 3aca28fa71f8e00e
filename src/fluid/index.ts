/**
 * The fluid engine's public entry. Its three stages: the model language (language/: a model file
 * read and checked, its expressions, terms, signs and LaTeX), the compiler and its cache (compiler/:
 * generated code, the content-keyed system cache, a directory's model set, the repository's set
 * behind the library getters), and the run (run/: a Scenario mapped to parameters, flows grouped,
 * the DDE problem built and solved into a RunResult). The linearisation is theory's
 * (src/theory/linearModel.ts).
 */
export { DEFAULT_MODELS_DIR, BOTTLENECK_FILE, loadModels, type ModelSet } from './compiler/modelSet.js';
export { defaultModels, getModel, modelIds } from './compiler/defaultModels.js';
export type { ParsedModel } from './language/modelDoc.js';
export { runFluid, type RunFluidOptions } from './run/runFluid.js';
