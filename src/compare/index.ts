/**
 * Packet vs fluid comparison: `compareRuns` for two RunResults, `runComparison` to run both engines
 * on scenarios x variants. Relative errors are (model - packet) / packet throughout.
 */
export * from './types.js';
export { compareRuns, relativeError, fitTraces, cwndOnGrid, GRID_POINTS } from './compare.js';
export { resample, uniformGrid, timeAverage, type Interpolation } from './resample.js';
export { slowStartEnd, TRANSIENT_METHOD } from './transient.js';
export { competition, fairnessOverTime, FAIRNESS_METHOD, type Competition, type FlowShare, type FairnessOverTime, type RttFairness } from './competition.js';
export { validityFlags, VALIDITY } from './validity.js';
export { runComparison, type ComparisonCase, type ProgressFn, type RunComparisonOptions } from './run.js';
export { loadEngines, type EngineSet } from '../engines.js';
export { formatBps, formatPct, formatSeconds, formatNumber, formatBytes } from './format.js';
