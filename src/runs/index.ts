/**
 * The run layer (re-exports only): what a run is (RunSpec, grid axes and ranges, point ids, derived
 * seeds), how runs execute (worker threads, the content-addressed cache keyed by the engines' code
 * version), what is kept of them (compact results) and the statistics over replications. Report,
 * sweep and validate all stand on it and import none of each other.
 */
export { parseRange, linGrid, logGrid, acceptedForms, type UnitKind } from './range.js';
export { HEADLINE_AXES, headlineAxis, setAxis, applyAxis, scenarioAt, checkAxes, type Axis, type AxisSpec, type AxisValue, type HeadlineAxis } from './axes.js';
export { applyRtt, applyFlows, applyBufferBdp, applyBufferPackets } from './scenarioAxes.js';
export { getPath, setPath } from './fieldPath.js';
export { pointIdOf, pointRecord, repsFor, DETERMINISTIC_ENGINES, DEFAULT_MAX_RUNS, type RunSpec } from './spec.js';
export { deriveSeed } from './seed.js';
export { parseShard, inShard, type Shard } from './shard.js';
export { canonicalJson, hashOf, sha256Hex } from './hash.js';
export { RunCache, cacheKey, type CacheKeyParts } from './cache.js';
export { engineCodeVersion, CODE_VERSION, ENGINE_SOURCES } from './codeVersion.js';
export { compactResult, type CompactRun } from './compact.js';
export { runEngine, type EngineFn } from '../engines.js';
export { executeRuns, defaultWorkers, type ExecuteOptions, type Progress, type RunRecord } from './execute.js';
export { interval, medianInterval, tQuantile975, elasticity, type Interval, type MedianInterval, type Elasticity } from './stats.js';
