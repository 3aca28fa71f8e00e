/**
 * Reports: `writeReport(recipe, outDir)` for the packet-vs-fluid report, its chart spec builders
 * (charts.ts), tables and `writeDirAtomic`. The page kit it draws with (renderPage, buildChart, toCsv,
 * minMaxDownsample) is src/page/, the runs it executes src/runs/.
 */
export { writeReport, type WriteReportOptions, type ReportOutput } from './write.js';
export { buildReport, variantTitle, type BuiltReport } from './build.js';
export { CHART_KINDS, loadRecipe, parseRecipeText, recipeFromFlags, resolveScenarios, validateRecipe, type ChartKind, type RecipeFlags, type ReportRecipe } from './recipe.js';
export { errorSummaryChart, goodputChart, seriesRows, ENGINE_COLORS, CHART_WIDTH, type ErrorRow } from './charts.js';
export { cwndChart, type CwndChartInput } from './cwndChart.js';
export { writeDirAtomic, REPORT_MARKER } from './atomicDir.js';
export { goodputRows, comparisonRows, scenarioRows, GOODPUT_COLUMNS, COMPARISON_COLUMNS, SCENARIO_COLUMNS } from './tables.js';
export type { ModelDoc, ModelDocSource } from './models.js';
