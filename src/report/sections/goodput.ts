import type { ComparisonCase } from '../../compare/run.js';
import { caseAgreement } from '../agreement.js';
import { goodputChart, type GoodputRow as GoodputBar } from '../charts.js';
import type { ReportContext } from '../context.js';
import { caseKey, type ReplicatedFigures } from '../replicates.js';
import { goodputTableHtml, packetGoodput, primaryClosed } from '../tables.js';
import { goodputIntro } from './prose.js';

/** Goodput per case: the packet median (with its interval), the fluid model and the primary closed form. */
function goodputBars(cases: readonly ComparisonCase[], figures: ReadonlyMap<string, ReplicatedFigures>): GoodputBar[] {
  return cases.flatMap((cc) => {
    const c = cc.comparison;
    const cf = primaryClosed(c);
    const rows: GoodputBar[] = [];
    const f = figures.get(caseKey(c.scenario, c.variant));
    const p = packetGoodput(cc, f);
    if (p.median !== null) rows.push({ scenario: c.scenario, variant: c.variant, source: 'packet', goodputBps: p.median, ...(p.low !== null && p.high !== null ? { lowBps: p.low, highBps: p.high } : {}) });
    const a = caseAgreement(cc, f).fluid;
    if (c.fluid.status === 'ok') rows.push({ scenario: c.scenario, variant: c.variant, source: 'fluid', goodputBps: a.median, ...(a.n > 1 && Number.isFinite(a.low) ? { lowBps: a.low, highBps: a.high } : {}) });
    if (cf?.goodputBpsAllFlows != null) rows.push({ scenario: c.scenario, variant: c.variant, source: 'closed form', goodputBps: cf.goodputBpsAllFlows });
    return rows;
  });
}

/** The goodput table and chart (the table numbers its flag notes first). */
export async function goodputHtml(ctx: ReportContext): Promise<string> {
  const { recipe, cases, scenarioNames, variants, notes, figures, order } = ctx;
  let html = goodputIntro() + goodputTableHtml(cases, scenarioNames, variants, notes, figures);
  if (recipe.charts.includes('goodput')) {
    const bars = goodputBars(cases, figures);
    html += await ctx.add({
      id: 'goodput',
      title: 'Goodput by variant',
      caption: 'Goodput of each variant from the packet simulation (median, with its 95% interval when replicated), the fluid model and the closed form, in Mbit/s; each scenario has its own scale.',
      spec: goodputChart(bars, order),
      staticSpec: goodputChart(bars, { ...order, interactive: false }),
    });
  }
  return html;
}
