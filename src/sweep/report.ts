import { buildChart, chartId, type BuiltChart } from '../page/chartkit.js';
import { chartFigure, escapeHtml, renderPage, type PageChart, type Section } from '../page/html.js';
import { cclabVersion } from '../page/assets.js';
import { VARIANT_FACTS } from '../variants.js';
import { elasticities, reportRows, theoryRows, winners, type ClosedFormsFn, type ReportRow, type TheoryRow } from './analysis.js';
import type { RunRecord } from '../runs/execute.js';
import type { SweepPlan } from './grid.js';
import type { ReportPage } from './output.js';
import { aggregatePoints } from './points.js';
import { heatmapChart, panelLayout, winnerChart, type HeatmapCell } from './reportCharts.js';
import { responseChart } from './responseChart.js';
import { sweepSummary } from './reportText.js';
import { bottleneckWarnings } from '../scenario/pathWarnings.js';
import { elasticityTable, failuresHtml, methodHtml, setupHtml } from './reportText.js';
import { closedForms } from '../theory/closedForms.js';
import { VALIDITY } from '../compare/validity.js';

/** What the one-letter marks on the maps mean (cellValidity in analysis.ts). */
const MARKS_NOTE = `Marked cells (outlined, letter): T timeouts dominate, C capacity-limited (the link, not loss, sets the rate), W fewer than ${VALIDITY.minPacketsPerRtt} packets per RTT, F failed runs; hover for the numbers.`;

/** Slices (combinations of axes other than loss and RTT) drawn in full; the rest are in the CSVs. */
export const MAX_SLICES = 4;
/** Panels of a goodput-vs-loss (or RTT) chart; more grid lines are spread evenly over this many. */
export const MAX_PANELS = 6;

function predictedCells(rows: readonly ReportRow[], theory: readonly TheoryRow[], hasFluid: boolean): HeatmapCell[] {
  if (hasFluid) {
    return rows.filter((r) => r.engine === 'fluid' && r.loss !== null && r.rttS !== null).map((r) => ({ variant: r.variant, loss: r.loss!, rttS: r.rttS!, value: r.goodputBps }));
  }
  const out: HeatmapCell[] = [];
  for (const t of theory) {
    if (t.loss === null || t.rttS === null) continue;
    const prefs: readonly string[] = VARIANT_FACTS[t.variant].closedForms;
    const best = theory.filter((u) => u.variant === t.variant && u.loss === t.loss && u.rttS === t.rttS && prefs.includes(u.formula))
      .sort((a, b) => prefs.indexOf(a.formula) - prefs.indexOf(b.formula))[0];
    if (best !== t) continue;
    out.push({ variant: t.variant, loss: t.loss, rttS: t.rttS, value: t.goodputBps });
  }
  return out;
}

type ChartAdder = (id: string, title: string, caption: string, spec: Parameters<typeof buildChart>[0]['spec']) => Promise<string>;

/** What every slice of the page reads. */
interface SweepPageContext {
  plan: SweepPlan;
  simEngine: string;
  hasFluid: boolean;
  add: ChartAdder;
}

/** The three maps of one slice: simulated goodput, predicted goodput, their relative error; every cell with the simulation's validity marks. */
async function mapFigures(ctx: SweepPageContext, si: number, rs: readonly ReportRow[], ts: readonly TheoryRow[]): Promise<string[]> {
  const { plan, simEngine, hasFluid, add } = ctx;
  const simRows = rs.filter((r) => r.engine === simEngine);
  // Every map of a point carries the simulation's validity marks there: it is the witness of what the network did.
  const flagsAt = new Map(simRows.map((r) => [`${r.variant}\0${r.loss}\0${r.rttS}`, r.validity]));
  const marked = (c: HeatmapCell): HeatmapCell => {
    const f = flagsAt.get(`${c.variant}\0${c.loss}\0${c.rttS}`) ?? [];
    return f.length ? { ...c, marks: f.map((x) => x.mark).join(''), reason: f.map((x) => x.reason).join('; ') } : c;
  };
  const sim: HeatmapCell[] = simRows.map((r) => marked({ variant: r.variant, loss: r.loss!, rttS: r.rttS!, value: r.goodputBps }));
  const pred = predictedCells(rs, ts, hasFluid).map(marked);
  const predOf = new Map(pred.map((c) => [`${c.variant}\0${c.loss}\0${c.rttS}`, c.value]));
  const err: HeatmapCell[] = sim.map((c) => {
    const p = predOf.get(`${c.variant}\0${c.loss}\0${c.rttS}`);
    return { ...c, value: p != null && c.value !== null && c.value > 0 ? (p - c.value) / c.value : null };
  });
  const marksNote = ` ${MARKS_NOTE}`;
  const predName = hasFluid ? 'fluid model' : 'closed form (capped at capacity)';
  return [
    await add(chartId('map-sim', String(si)), 'Simulated goodput', `Mean goodput of the ${simEngine} engine over replications.${marksNote}`,
      heatmapChart(sim, { title: `Simulated goodput (${simEngine})`, valueTitle: 'goodput (bit/s)', variants: plan.variants, kind: 'goodput' })),
    await add(chartId('map-pred', String(si)), 'Predicted goodput', `Goodput predicted by the ${predName}.${marksNote}`,
      heatmapChart(pred, { title: `Predicted goodput (${predName})`, valueTitle: 'goodput (bit/s)', variants: plan.variants, kind: 'goodput' })),
    await add(chartId('map-err', String(si)), 'Relative error', `(predicted - simulated) / simulated; blue: model under-predicts, red: over-predicts; clamped to ±100%.${marksNote} A marked cell's error is not the model's fault: it is outside the model's assumptions.`,
      heatmapChart(err, { title: `Relative error of the ${predName}`, valueTitle: 'relative error', variants: plan.variants, kind: 'relerr' })),
  ];
}

const WINNER_CAPTION = 'Colour: the variant with the highest mean goodput; label: its margin over the runner-up. Packet panel: grey "tie" where the two best variants\' 95% intervals overlap (a tie at the packet level). Fluid panel: the model is deterministic, so it always names a winner; where the packet level ties, its cell is faded and outlined and its margin is in parentheses: no verdict against the simulation.';

/** What the response charts' intervals are, with their n, and why they are wide when n < 3. */
function intervalNote(rows: readonly ReportRow[]): string {
  const ns = rows.filter((r) => r.engine === 'packet' && r.n > 0).map((r) => r.n);
  if (ns.length === 0) return '';
  const lo = Math.min(...ns);
  const hi = Math.max(...ns);
  const n = lo === hi ? `n = ${lo}` : `n = ${lo} to ${hi}`;
  return ` Intervals: 95% Student-t over the replications (${n}).` + (lo < 3 ? ` With n = ${lo}, Student's t (${lo === 2 ? '12.7' : 'undefined at n = 1'}) makes the intervals span most of the axis: run --reps 5 or more for intervals that can separate the variants.` : '');
}

/** The goodput-vs-loss or -RTT chart of one slice. */
function responseFigure(ctx: SweepPageContext, si: number, rs: readonly ReportRow[], ts: readonly TheoryRow[], wrt: 'loss' | 'rtt'): Promise<string> {
  const other = wrt === 'loss' ? 'rttS' : 'loss';
  const n = ctx.plan.axes.find((a) => a.name === other)?.values.length ?? 0;
  const shown = panelLayout(n, MAX_PANELS).shown;
  const panels = n > shown ? ` Panels: ${shown} of the ${n} values, evenly spread.` : '';
  const caption = `Points: packet means with their 95% intervals (bars reaching below the axis are cut at it, with a tick); solid lines: fluid model; dashed: closed forms (one dash per formula, see the legend), capped at the fair share of the slowest link. Hover a point for its validity.${intervalNote(rs)}${panels}`;
  return ctx.add(chartId(`vs-${wrt}`, String(si)), wrt === 'loss' ? 'Goodput vs loss' : 'Goodput vs RTT', caption, responseChart(rs, ts, wrt, ctx.plan.variants, MAX_PANELS));
}

/**
 * The sweep report: heatmaps of simulated and predicted goodput and their relative error, goodput
 * against loss and RTT with CIs and closed forms, the best variant per grid point, and fitted
 * elasticities against theory. Deterministic (no dates, no wall times), so merged shards give the
 * same page as an unsharded sweep.
 */
export async function sweepReport(plan: SweepPlan, records: readonly RunRecord[], forms?: ClosedFormsFn): Promise<ReportPage> {
  const closed = forms ?? closedForms;
  const points = aggregatePoints(records);
  const rows = reportRows(plan, points);
  const theory = theoryRows(plan, points, closed);
  const hasLoss = plan.axes.some((a) => a.name === 'loss');
  const hasRtt = plan.axes.some((a) => a.name === 'rttS');
  const simEngine = plan.engines.includes('packet') ? 'packet' : plan.engines[0]!;
  // The fluid model is the prediction only when something else is the simulation.
  const hasFluid = plan.engines.includes('fluid') && simEngine !== 'fluid';
  const slices = [...new Set(rows.map((r) => r.slice))];
  const shown = slices.slice(0, MAX_SLICES);
  const built: BuiltChart[] = [];
  const add: ChartAdder = async (id, title, caption, spec) => {
    const c = await buildChart({ id, title, caption, spec });
    built.push(c);
    return chartFigure(c.page);
  };
  const ctx: SweepPageContext = { plan, simEngine, hasFluid, add };
  const sections: Section[] = [{ id: 'setup', title: 'Setup', html: setupHtml(plan, records) }];
  const mapsHtml: string[] = [];
  const lossHtml: string[] = [];
  const rttHtml: string[] = [];
  const winHtml: string[] = [];
  for (const [si, slice] of shown.entries()) {
    const rs = rows.filter((r) => r.slice === slice);
    const ts = theory.filter((t) => t.slice === slice);
    const head = slice ? `<h4>${escapeHtml(slice)}</h4>` : '';
    if (hasLoss && hasRtt) {
      mapsHtml.push(head, ...(await mapFigures(ctx, si, rs, ts)));
      if (plan.variants.length > 1) winHtml.push(head, await add(chartId('winner', String(si)), 'Best variant', WINNER_CAPTION, winnerChart(winners(rs), plan.variants)));
    }
    if (hasLoss) lossHtml.push(head, await responseFigure(ctx, si, rs, ts, 'loss'));
    if (hasRtt) rttHtml.push(head, await responseFigure(ctx, si, rs, ts, 'rtt'));
  }
  const more = slices.length > shown.length ? `<p class="muted">${slices.length - shown.length} more slices are in points.csv.</p>` : '';
  if (mapsHtml.length) sections.push({ id: 'maps', title: 'Goodput over loss × RTT', html: mapsHtml.join('\n') + more });
  if (lossHtml.length) sections.push({ id: 'vs-loss', title: 'Goodput vs loss', html: lossHtml.join('\n') + more });
  if (rttHtml.length) sections.push({ id: 'vs-rtt', title: 'Goodput vs RTT', html: rttHtml.join('\n') + more });
  if (winHtml.length) sections.push({ id: 'winners', title: 'Which variant wins where', html: winHtml.join('\n') + more });
  if (hasLoss || hasRtt) sections.push({ id: 'elasticities', title: 'Sensitivity coefficients', html: elasticityTable(elasticities(rows.filter((r) => shown.includes(r.slice)), theory)) });
  sections.push({ id: 'method', title: 'Method', html: methodHtml() });
  const fail = failuresHtml(records);
  if (fail) sections.push({ id: 'failures', title: 'Failed runs', html: fail });

  const charts: PageChart[] = built.map((b) => b.page);
  const html = renderPage({
    title: `Sweep: ${plan.axes.map((a) => a.label.replace(/ \(.*\)$/, '')).join(' × ') || 'single point'} (${plan.variants.join(', ')})`,
    intro: `<p class="muted">${records.length} runs; data in <a href="runs.csv">runs.csv</a> and <a href="points.csv">points.csv</a>; plan in <a href="sweep.json">sweep.json</a>.</p>${sweepSummary(plan, rows, simEngine, hasFluid, winners(rows), bottleneckWarnings(plan.base))}`,
    sections,
    charts,
    footer: `cclab ${escapeHtml(cclabVersion())}`,
  });
  return { html, files: built.map((b) => b.specFile) };
}

/** The ReportWriter the CLI passes to runSweep and mergeSweeps. */
export const sweepReportHtml = (plan: SweepPlan, records: readonly RunRecord[]): Promise<ReportPage> => sweepReport(plan, records);
