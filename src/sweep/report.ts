import type { RunRecord } from './execute.js';
import type { SweepPlan } from './grid.js';

/** Placeholder until the report lands: a page listing the run count. */
export async function sweepReportHtml(plan: SweepPlan, records: readonly RunRecord[]): Promise<string> {
  return `<!doctype html><title>sweep</title><p>${records.length} runs, ${plan.axes.length} axes</p>`;
}
