/** Public API of the sweep module (re-exports only); the runs it stands on are in src/runs/. */
export { expandPlan, gridPoints, planHash, type SweepPlan } from './grid.js';
export { runSweep, type SweepOptions, type SweepOutcome } from './sweep.js';
export { aggregatePoints, type PointStats } from './points.js';
export { runsCsv, pointsCsv } from './csv.js';
export { writeSweepOutputs, readSweepOutput, SWEEP_FORMAT, type SweepManifest, type ReportPage, type ReportWriter } from './output.js';
export { mergeSweeps, type MergeSummary } from './merge.js';
export { sweepReport, sweepReportHtml } from './report.js';
export { elasticities, winners, reportRows, theoryRows, type ClosedFormsFn } from './analysis.js';
