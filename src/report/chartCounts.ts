import type { ReportRecipe } from './recipe.js';

/**
 * How many charts a report draws, for its progress total: counted before its first run is handed to
 * a worker, so this module imports no section builder (those load chart and page code, ~0.05 CPU-s
 * on npm start's wall time before the first run; issue 24).
 */

/** Charts per multi-flow case (competition.ts draws them). */
export const COMPETITION_CHARTS = 3;

/** Charts the buffer sections (bufferSections.ts) draw at most. */
export function bufferChartCount(kinds: readonly string[]): number {
  return (kinds.includes('buffers') ? 1 : 0) + (kinds.includes('shares') ? 1 : 0);
}

/** Charts the bufferbloat sections (aqmSections.ts) draw at most. */
export function aqmChartCount(kinds: readonly string[]): number {
  return (kinds.includes('delay') ? 1 : 0) + (kinds.includes('transfers') ? 1 : 0);
}

/** Charts a recipe asks for, for progress totals. */
export function chartCount(recipe: ReportRecipe, cases: number): number {
  // The competition section draws 3 charts for each scenario with several flows, per variant.
  const multiFlow = recipe.scenarios.filter((s) => typeof s !== 'string' && s.flows.length > 1).length;
  const competing = recipe.charts.includes('competition') ? COMPETITION_CHARTS * multiFlow * recipe.variants.length : 0;
  return (recipe.charts.includes('cwnd') ? cases : 0) + (recipe.charts.includes('goodput') ? 1 : 0) + (recipe.charts.includes('errors') ? 1 : 0) + competing + bufferChartCount(recipe.charts) + aqmChartCount(recipe.charts);
}
