import { cwndOnGrid } from '../compare/compare.js';
import type { ComparisonCase } from '../compare/run.js';
import { uniformGrid } from '../compare/resample.js';
import type { RunResult, Series } from '../result/types.js';
import { VARIANT_FACTS, type Variant } from '../variants.js';
import { cclabVersion } from './assets.js';
import { buildChart, chartId, type BuiltChart } from './chartkit.js';
import { cwndChart, errorSummaryChart, goodputChart, type ErrorRow, type GoodputRow as GoodputBar } from './charts.js';
import { toCsv } from './csv.js';
import { COMPETITION_CHARTS, competitionSection } from './competition.js';
import { stabilitySection } from './stability.js';
import { chartFigure, escapeHtml, renderPage, type Section } from './html.js';
import type { ModelDoc, ModelDocSource } from './models.js';
import type { ReportRecipe } from './recipe.js';
import { cwndIntro, errorsIntro, goodputIntro, headline, modelsHtml, rerunHtml, scenarioLine, scenarioTableHtml, validityIntro } from './sections.js';
import { COMPARISON_COLUMNS, comparisonRows, closedFormFlags, primaryClosed, comparisonTableHtml, FlagNotes, GOODPUT_COLUMNS, goodputRows, goodputTableHtml, SCENARIO_COLUMNS, scenarioRows } from './tables.js';

export interface BuildOptions {
  /** Called after each chart is rendered. */
  onChart?: (done: number, total: number, label: string) => void;
  models?: ModelDocSource | null;
  /** Output directory as the user named it (for the rerun command). */
  outDir?: string;
  now?: Date;
}

export interface BuiltReport {
  html: string;
  /** Relative path -> content: index.html and everything beside it. */
  files: Map<string, string>;
  warnings: string[];
  charts: number;
}

/** Page budget: this many buckets over all cwnd charts keeps a 15-chart report near 3.5 MB (limit 5 MB). */
const BUCKET_BUDGET = 4500;

/** Pages above this are slow to open; the report still gets written, with a warning. */
export const PAGE_LIMIT_BYTES = 5e6;

/** Charts a recipe asks for, for progress totals. */
export function chartCount(recipe: ReportRecipe, cases: number): number {
  // The competition section draws 3 charts for each scenario with several flows, per variant.
  const multiFlow = recipe.scenarios.filter((s) => typeof s !== 'string' && s.flows.length > 1).length;
  return (recipe.charts.includes('cwnd') ? cases : 0) + (recipe.charts.includes('goodput') ? 1 : 0) + (recipe.charts.includes('errors') ? 1 : 0) + COMPETITION_CHARTS * multiFlow * recipe.variants.length;
}

/** cwnd in segments (mean over flows; a single flow's trace as recorded, so no peak is resampled away). */
function cwndSegments(r: RunResult): Series | null {
  if (r.status !== 'ok' || r.flows.length === 0) return null;
  if (r.flows.length === 1) {
    const s = r.flows[0]!.trace.cwndBytes;
    return { t: s.t, v: s.v.map((x) => x / r.mssBytes) };
  }
  const grid = uniformGrid(0, r.durationS, 4000);
  return { t: grid, v: cwndOnGrid(r, grid) };
}

function byEngine(pairs: [string, Series | null][]): Record<string, Series> {
  const out: Record<string, Series> = {};
  for (const [k, s] of pairs) if (s && s.t.length > 0) out[k] = s;
  return out;
}

/** Assemble the page and its data files from finished comparisons. No engine runs here. */
export async function buildReport(recipe: ReportRecipe, cases: readonly ComparisonCase[], opts: BuildOptions = {}): Promise<BuiltReport> {
  const warnings: string[] = [];
  const files = new Map<string, string>();
  const version = cclabVersion();
  const outDir = opts.outDir ?? `reports/${recipe.name}`;
  const scenarios = [...new Map(cases.map((c) => [c.scenario.name, c.scenario])).values()];
  const scenarioNames = scenarios.map((s) => s.name);
  const variants = recipe.variants.filter((v) => cases.some((c) => c.comparison.variant === v));
  const order = { scenarioOrder: scenarioNames, variantOrder: [...variants] };
  const totalCharts = chartCount(recipe, cases.length);
  let doneCharts = 0;
  const charts: BuiltChart[] = [];
  const add = async (r: Parameters<typeof buildChart>[0]) => {
    const c = await buildChart(r);
    charts.push(c);
    opts.onChart?.(++doneCharts, totalCharts, r.title);
    return chartFigure(c.page);
  };

  // Tables as data.
  const gRows = goodputRows(cases);
  const cRows = comparisonRows(cases);
  const sRows = scenarioRows(scenarios);
  files.set('goodput.csv', toCsv(gRows, GOODPUT_COLUMNS));
  files.set('goodput.json', JSON.stringify(gRows, null, 1) + '\n');
  files.set('comparison.csv', toCsv(cRows, COMPARISON_COLUMNS));
  files.set('comparison.json', JSON.stringify(cases.map((c) => c.comparison), null, 1) + '\n');
  files.set('scenarios.csv', toCsv(sRows, SCENARIO_COLUMNS));
  files.set('scenarios.json', JSON.stringify(scenarios, null, 1) + '\n');
  const { source: _source, ...recipeData } = recipe;
  files.set('recipe.json', JSON.stringify({ ...recipeData, scenarios }, null, 1) + '\n');

  // Goodput.
  const notes = new FlagNotes();
  let goodputHtml = goodputIntro() + goodputTableHtml(cases, scenarioNames, variants, notes);
  if (recipe.charts.includes('goodput')) {
    const bars: GoodputBar[] = cases.flatMap(({ comparison: c }) => {
      const cf = primaryClosed(c);
      const rows: GoodputBar[] = [];
      if (c.packet.status === 'ok') rows.push({ scenario: c.scenario, variant: c.variant, source: 'packet', goodputBps: c.packet.goodputBps });
      if (c.fluid.status === 'ok') rows.push({ scenario: c.scenario, variant: c.variant, source: 'fluid', goodputBps: c.fluid.goodputBps });
      if (cf?.goodputBpsAllFlows != null) rows.push({ scenario: c.scenario, variant: c.variant, source: 'closed form', goodputBps: cf.goodputBpsAllFlows });
      return rows;
    });
    goodputHtml += await add({
      id: 'goodput',
      title: 'Goodput by variant',
      caption: 'Goodput of each variant from the packet simulation, the fluid model and the closed form; each scenario has its own scale.',
      spec: goodputChart(bars, order),
      staticSpec: goodputChart(bars, { ...order, interactive: false }),
    });
  }

  // Errors.
  let errorsHtml = errorsIntro();
  if (recipe.charts.includes('errors')) {
    const rows: ErrorRow[] = cases.flatMap(({ comparison: c }) => {
      const note = c.flags.filter((f) => f.severity !== 'info').map((f) => f.code).join(', ') || 'none';
      const out: ErrorRow[] = [];
      if (c.relErr.goodput !== null) out.push({ scenario: c.scenario, variant: c.variant, metric: 'fluid goodput', errorPct: 100 * c.relErr.goodput, trusted: c.fluidTrusted, note });
      if (c.relErr.meanCwnd !== null) out.push({ scenario: c.scenario, variant: c.variant, metric: 'fluid mean cwnd', errorPct: 100 * c.relErr.meanCwnd, trusted: c.fluidTrusted, note });
      const cf = primaryClosed(c);
      if (cf && cf.goodputRelErr !== null) out.push({ scenario: c.scenario, variant: c.variant, metric: 'closed-form goodput', errorPct: 100 * cf.goodputRelErr!, trusted: !closedFormFlags(c, cf).some((f) => f.severity === 'invalid'), note });
      return out;
    });
    errorsHtml += await add({ id: 'errors', title: 'Error summary', caption: 'Relative error (model − packet) / packet in percent, per scenario, on a symmetric log scale (linear within ±10%); faded bars are outside the model\'s validity.', spec: errorSummaryChart(rows, order), staticSpec: errorSummaryChart(rows, { ...order, interactive: false }) });
  }
  errorsHtml += comparisonTableHtml(cases, notes);

  // cwnd over time, per scenario.
  const cwndSections: Section[] = [];
  if (recipe.charts.includes('cwnd')) {
    const buckets = Math.max(150, Math.min(500, Math.floor(BUCKET_BUDGET / Math.max(1, cases.length))));
    for (const s of scenarios) {
      let html = scenarioLine(s);
      for (const c of cases.filter((x) => x.scenario.name === s.name)) {
        const v = c.comparison.variant;
        const cwnd = byEngine([['packet', cwndSegments(c.packet)], ['fluid', cwndSegments(c.fluid)]]);
        const queue = recipe.charts.includes('queue') ? byEngine([['packet', c.packet.status === 'ok' ? c.packet.queue.packets : null], ['fluid', c.fluid.status === 'ok' ? c.fluid.queue.packets : null]]) : undefined;
        // Only the closed form of the goodput table: near-equal formulas would stack their labels.
        const cf = primaryClosed(c.comparison);
        const references = cf && cf.cwndSegments !== null ? [{ label: cf.formula, title: cf.title, value: cf.cwndSegments }] : [];
        const cap = steadyCap(cwnd, c.comparison.transient.steadyFromS);
        if (Object.keys(cwnd).length === 0) {
          html += `<h4>${escapeHtml(v)}</h4><p class="untrusted">No trace: ${escapeHtml([c.packet.failure, c.fluid.failure].filter(Boolean).join('; '))}</p>`;
          continue;
        }
        const input = { title: `${v} on ${s.name}`, cwnd, ...(queue && Object.keys(queue).length > 0 ? { queue } : {}), references, ...(cap ? { yMax: cap.yMax } : {}) };
        html += `<h4 id="${chartId('case', s.name, v)}">${escapeHtml(variantTitle(v))}</h4>`;
        html += await add({
          id: chartId('cwnd', s.name, v),
          title: `${v} on ${s.name}`,
          caption: `${variantTitle(v)} on ${s.name}: packet ${c.comparison.packet.meanCwndSegments.toFixed(1)} vs fluid ${c.comparison.fluid.meanCwndSegments.toFixed(1)} segments on average.${cap ? ` The window axis stops at ${cap.yMax.toFixed(0)} segments to show the steady state; the first slow start peaks at ${cap.peak.toFixed(0)}.` : ''}${queue ? queueNote(c) : ''}`,
          spec: cwndChart(input, { buckets }),
          staticSpec: cwndChart(input, { buckets, interactive: false }),
        });
      }
      cwndSections.push({ id: chartId('scenario', s.name), title: `Scenario ${s.name}`, html });
    }
  }

  // Fluid models.
  let modelsSection = '';
  if (recipe.charts.includes('equations')) {
    const docs: ModelDoc[] = [];
    if (opts.models) {
      const seen = new Set<string>();
      for (const v of variants) {
        for (const d of await opts.models(v)) {
          if (!seen.has(d.id)) docs.push(d);
          seen.add(d.id);
        }
      }
    }
    modelsSection = modelsHtml(docs, warnings);
  }

  const dataFiles = ['goodput.csv', 'goodput.json', 'comparison.csv', 'comparison.json', 'scenarios.csv', 'scenarios.json', 'recipe.json', 'charts/'];
  const sections: Section[] = [
    { id: 'goodput-section', title: 'Goodput', html: goodputHtml + validityIntro() + notes.html() },
    { id: 'errors-section', title: 'How far the models are from the simulation', html: errorsHtml + '<p class="muted">Numbered marks refer to the notes under the goodput table.</p>' },
  ];
  if (cwndSections.length > 0) sections.push({ id: 'cwnd-section', title: 'Congestion window over time', html: cwndIntro(), children: cwndSections });
  const competing = await competitionSection(cases, add);
  if (competing) sections.push(competing);
  const stability = stabilitySection(cases, warnings);
  if (stability) sections.push(stability);
  if (modelsSection) sections.push({ id: 'models-section', title: 'Fluid models', html: `<p>The equations each fluid model integrates (delay-differential equations solved with Dormand–Prince 5).</p>${modelsSection}` });
  sections.push({ id: 'scenarios-section', title: 'Scenarios and how to rerun', html: scenarioTableHtml(scenarios) + rerunHtml(recipe, outDir, version, dataFiles) });

  const when = (opts.now ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
  const intro = `<p class="muted">${escapeHtml(recipe.name)} · ${scenarioNames.length} scenario${scenarioNames.length > 1 ? 's' : ''} × ${variants.length} variant${variants.length > 1 ? 's' : ''} · cclab ${escapeHtml(version)} · seed ${recipe.seed} · ${escapeHtml(when)}</p>${recipe.description ? `<p>${escapeHtml(recipe.description)}</p>` : ''}${headline(cases)}`;
  const html = renderPage({
    title: recipe.title,
    intro,
    sections,
    charts: charts.map((c) => c.page),
    math: modelsSection.includes('class="katex'),
    footer: `Generated by cclab ${escapeHtml(version)} on ${escapeHtml(when)}. Charts: Vega-Lite / Vega, equations: KaTeX, all inlined; the page works offline.`,
  });
  const bytes = Buffer.byteLength(html);
  if (bytes > PAGE_LIMIT_BYTES) warnings.push(`index.html is ${(bytes / 1e6).toFixed(1)} MB (over ${PAGE_LIMIT_BYTES / 1e6} MB): split the recipe into fewer scenarios x variants per report`);
  for (const c of charts) files.set(c.specFile.path, c.specFile.text);
  files.set('index.html', html);
  return { html, files, warnings, charts: charts.length };
}

/**
 * When the first slow start overshoots far above everything after it, a full-range axis flattens the
 * steady state the comparison is about: cap the axis at 1.2 x the maximum after the transient (from
 * the end of slow start plus a fifth of the rest, which skips the recovery right after the first
 * loss), if the peak is more than twice that. The caption says so.
 */
function steadyCap(cwnd: Record<string, Series>, steadyEndOfSlowStartS: number | null): { yMax: number; peak: number } | null {
  if (steadyEndOfSlowStartS === null) return null;
  const end = Math.max(...Object.values(cwnd).map((s) => s.t.at(-1) ?? 0));
  const steadyFromS = steadyEndOfSlowStartS + 0.2 * (end - steadyEndOfSlowStartS);
  let peak = 0;
  let steady = 0;
  for (const s of Object.values(cwnd)) {
    for (let i = 0; i < s.t.length; i++) {
      const v = s.v[i]!;
      if (!Number.isFinite(v)) continue;
      peak = Math.max(peak, v);
      if (s.t[i]! >= steadyFromS) steady = Math.max(steady, v);
    }
  }
  return steady > 0 && peak > 2 * steady ? { yMax: 1.2 * steady, peak } : null;
}

/** Which queue the panel shows: the slowest link on the path, which on ns-3's presets is the access link. */
function queueNote(c: ComparisonCase): string {
  const link = c.packet.status === 'ok' ? c.packet.queue.link : undefined;
  return link !== undefined && link !== 'bottleneck'
    ? ` The queue panel shows the ${link.replace(/^access\d*$/, "sender's access link")} queue: that link is slower than the bottleneck, so packets wait there.`
    : '';
}

export function variantTitle(v: Variant): string {
  return VARIANT_FACTS[v]?.title ?? v;
}
