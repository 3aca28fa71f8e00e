/** `cclab validate`: the fluid models and closed forms against the packet engine over a standard grid. */
export { DEFAULT_GRID, expandGrid, pointScenario, runLength, type ValidateGrid, type ValidatePoint, type RunLength } from './grid.js';
export { pointRows, summarise, primaryClosedForm, type PointRow, type VariantSummary, type ModelKind } from './analyse.js';
export { summaryText, flaggedText, pointsCsv, summaryCsv, validateReport } from './report.js';
export { runValidate, type ValidateOptions, type ValidateOutcome } from './validate.js';
