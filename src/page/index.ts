/**
 * The page kit (re-exports only): self-contained HTML pages with sections (`renderPage`), Vega-Lite
 * charts compiled strictly and drawn as static SVG (`buildChart`), the inlined runtimes, KaTeX math,
 * CSV tables and trace downsampling. Report, sweep and validate pages all use it; it knows no runs.
 */
export { buildChart, chartId, type BuiltChart, type ChartRequest } from './chartkit.js';
export { renderPage, chartFigure, escapeHtml, type PageChart, type PageInput, type Section } from './html.js';
export { compileStrict, compileWithWarnings, renderSvg, ChartSpecError } from './vega.js';
export { toCsv, type CsvValue } from './csv.js';
export { minMaxDownsample, roundSig } from './downsample.js';
export { renderLatex } from './math.js';
export { cclabVersion } from './assets.js';
