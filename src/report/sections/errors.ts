import type { ComparisonCase } from '../../compare/run.js';
import { caseAgreement } from '../agreement.js';
import { errorSummaryChart, type ErrorRow } from '../charts.js';
import type { ReportContext } from '../context.js';
import { caseKey, type ReplicatedFigures } from '../replicates.js';
import { closedFormFlags, comparisonTableHtml, errorsAgainstMedian, packetGoodput, primaryClosed } from '../tables.js';
import { errorsIntro } from './prose.js';

/** Relative errors of the fluid model and the primary closed form against the packet figures, per case. */
function errorRows(cases: readonly ComparisonCase[], figures: ReadonlyMap<string, ReplicatedFigures>): ErrorRow[] {
  return cases.flatMap((cc) => {
    const c = cc.comparison;
    const note = c.flags.filter((f) => f.severity !== 'info').map((f) => f.code).join(', ') || 'none';
    const out: ErrorRow[] = [];
    const f = figures.get(caseKey(c.scenario, c.variant));
    const e = errorsAgainstMedian(cc, packetGoodput(cc, f), caseAgreement(cc, f));
    if (e.fluid !== null) out.push({ scenario: c.scenario, variant: c.variant, metric: 'fluid goodput', errorPct: 100 * e.fluid, trusted: c.fluidTrusted, note });
    if (c.relErr.meanCwnd !== null) out.push({ scenario: c.scenario, variant: c.variant, metric: 'fluid mean cwnd', errorPct: 100 * c.relErr.meanCwnd, trusted: c.fluidTrusted, note });
    const cf = primaryClosed(c);
    if (cf && e.closed !== null) out.push({ scenario: c.scenario, variant: c.variant, metric: 'closed-form goodput', errorPct: 100 * e.closed, trusted: !closedFormFlags(c, cf).some((f) => f.severity === 'invalid'), note });
    return out;
  });
}

/** The error chart and the comparison table. */
export async function errorsHtml(ctx: ReportContext): Promise<string> {
  const { recipe, cases, figures, order, notes } = ctx;
  let html = errorsIntro();
  if (recipe.charts.includes('errors')) {
    const rows = errorRows(cases, figures);
    html += await ctx.add({ id: 'errors', title: 'Error summary', caption: 'Relative error (model − packet) / packet in percent (goodput against the packet median; mean cwnd against the charted run), per scenario, on a symmetric log scale (linear within ±10%); faded bars are outside the model\'s validity.', spec: errorSummaryChart(rows, order), staticSpec: errorSummaryChart(rows, { ...order, interactive: false }) });
  }
  return html + comparisonTableHtml(cases, notes);
}
