/**
 * cclab's library API: what the CLI is a thin layer over. Everything downstream of the engines
 * (comparison, report, sweep) depends only on `Scenario` and `RunResult`.
 *
 * ```ts
 * import { presetScenario, runPacket, runFluid, compareRuns, closedForms } from 'cclab';
 * const s = presetScenario('lfn', 'cubic', { durationS: 100, seed: 7 });
 * const cmp = compareRuns(runPacket(s), runFluid(s), closedForms(s));
 * ```
 */

// Contracts.
export type { Scenario, BottleneckSpec, FlowSpec, LinkSpec, LossSpec, QueueSpec, TcpSpec, TraceSpec } from './scenario/types.js';
export type { RunResult, RunSummary, FlowSummary, FlowTrace, Series, DropCounters, RunStats, QueueDelaySummary, QueueDisciplineStats } from './result/types.js';
export { VARIANTS, ENGINES, isVariant, type Variant, type Engine } from './variants.js';
export { InputError, EXIT_BAD_INPUT } from './errors.js';

// Scenarios.
export { PRESET_NAMES, PRESET_LINES, LINE_NAMES, presetScenario, isPresetName, presetLine, presetSetup, presetOf, presetTitle, defaultTcp, ns3QueuePackets, type LineName, type PresetName, type PresetOptions, type PresetSetup } from './scenario/presets.js';
export { dumbbellScenario, DUMBBELL_DEFAULTS } from './scenario/defaults.js';
export {
  flowPath, pathLinks, propagationRttS, baseRttS, bdpPackets, fairSharesBps, fairSharePayloadBps, pathPayloadCapacityBps, sharedQueue, packetBits, payloadFraction,
  type FlowPath, type PathLink, type LinkRole,
} from './scenario/path.js';
export { loadScenarioFile, parseScenarioText } from './scenario/check/load.js';
export { validateScenario } from './scenario/check/validate.js';
export { parseRateBps, parseDurationS, formatRate, secondsToNs, nsToSeconds } from './units.js';

// The packet engine and its congestion-control plug-ins.
export { runPacket, type RunOptions } from './packet/run.js';
export type { CongestionControl, CongestionControlFactory, TcpState, AckSample, CaState, LossKind, ParamSpec } from './cc/types.js';
export { CONGESTION_CONTROLS, getCongestionControl, validateCcParams } from './cc/registry.js';

// The fluid engine, its declarative models and the closed forms.
export { runFluid, loadModels, getModel, type RunFluidOptions, type ParsedModel, type ModelSet } from './fluid/index.js';
export { closedForms, type ClosedFormPrediction, type ClosedFormId } from './theory/closedForms.js';
export { dctcpOscillation, scenarioDctcpOscillation, type DctcpOscillation } from './theory/dctcp.js';
export { solve, Solution, type DdeProblem, type SolveOptions } from './solver/index.js';

// Downstream: comparison, report, sweep.
export { compareRuns, runComparison, type ComparisonCase } from './compare/index.js';
export type { Comparison } from './compare/types.js';
export { writeReport, loadRecipe, recipeFromFlags, type ReportRecipe } from './report/index.js';
export { runSweep, type SweepOptions, type SweepOutcome } from './sweep/index.js';
export { parseRange } from './runs/index.js';
export { summaryJson, type SummaryJson } from './result/summaryJson.js';
