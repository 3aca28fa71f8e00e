/**
 * Reports: `writeReport(recipe, outDir)` for the packet-vs-fluid report, and the building blocks the
 * sweep report reuses: chart spec builders (charts.ts), `buildChart` (compile strictly + static SVG),
 * `renderPage` with sections, `toCsv`, `writeDirAtomic`, `minMaxDownsample`.
 */
export { writeReport, type WriteReportOptions, type ReportOutput } from './write.js';
export { buildReport, variantTitle, type BuiltReport } from './build.js';
export { CHART_KINDS, loadRecipe, parseRecipeText, recipeFromFlags, resolveScenarios, validateRecipe, type ChartKind, type RecipeFlags, type ReportRecipe } from './recipe.js';
export { cwndChart, errorSummaryChart, goodputChart, seriesRows, ENGINE_COLORS, CHART_WIDTH, type CwndChartInput, type ErrorRow } from './charts.js';
export { buildChart, chartId, type BuiltChart, type ChartRequest } from './chartkit.js';
export { renderPage, chartFigure, escapeHtml, type PageChart, type PageInput, type Section } from './html.js';
export { compileStrict, compileWithWarnings, renderSvg, ChartSpecError } from './vega.js';
export { toCsv, type CsvValue } from './csv.js';
export { writeDirAtomic, REPORT_MARKER } from './atomicDir.js';
export { minMaxDownsample, roundSig } from './downsample.js';
export { renderLatex } from './math.js';
export { cclabVersion } from './assets.js';
export { goodputRows, comparisonRows, scenarioRows, GOODPUT_COLUMNS, COMPARISON_COLUMNS, SCENARIO_COLUMNS } from './tables.js';
export type { ModelDoc, ModelDocSource } from './models.js';
