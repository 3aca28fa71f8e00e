import { cwndOnGrid } from '../compare/compare.js';
import type { ComparisonCase } from '../compare/run.js';
import { uniformGrid } from '../compare/resample.js';
import type { RunResult, Series } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import { hasEngine, VARIANT_FACTS, type Variant } from '../variants.js';
import { modelCell } from '../compare/format.js';
import { cclabVersion } from '../page/assets.js';
import { buildChart, chartId, type BuiltChart } from '../page/chartkit.js';
import { cwndChart, errorSummaryChart, goodputChart, type ErrorRow, type GoodputRow as GoodputBar, type WindowSeries } from './charts.js';
import { toCsv } from '../page/csv.js';
import { COMPETITION_CHARTS, competitionSection } from './competition.js';
import { stabilitySection } from './stability.js';
import { bufferChartCount, bufferSections } from './bufferSections.js';
import { chartFigure, escapeHtml, renderPage, type Section } from '../page/html.js';
import type { ModelDoc, ModelDocSource } from './models.js';
import type { ReportRecipe } from './recipe.js';
import { cwndIntro, errorsIntro, goodputIntro, headline, modelsHtml, rerunHtml, scenarioLine, scenarioTableHtml, validityIntro } from './sections.js';
import { COMPARISON_COLUMNS, comparisonRows, closedFormFlags, primaryClosed, comparisonTableHtml, errorsAgainstMedian, FlagNotes, GOODPUT_COLUMNS, goodputRows, goodputTableHtml, packetGoodput, SCENARIO_COLUMNS, scenarioRows } from './tables.js';
import { caseKey, summarise, type ReplicatedFigures } from './replicates.js';
import { coverageText, lineFigures, lineParagraph, referenceTableHtml, setupPairs, setupsHtml, type LineFigures } from './seedStudy.js';
import { compactResult } from '../runs/compact.js';
import { agreementSentence, bimodalNotesHtml, caseAgreement, caseAgreements } from './agreement.js';

export interface BuildOptions {
  /** Called after each chart is rendered. */
  onChart?: (done: number, total: number, label: string) => void;
  models?: ModelDocSource | null;
  /** Output directory as the user named it (for the rerun command). */
  outDir?: string;
  now?: Date;
  /** Replicated packet figures per case (caseKey); default: each case's own packet run. */
  replicates?: ReadonlyMap<string, ReplicatedFigures>;
  /** The recipe's contrast: its scenarios and their replicated packet figures (caseKey). */
  contrast?: { scenarios: readonly Scenario[]; figures: ReadonlyMap<string, ReplicatedFigures> };
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
  const competing = recipe.charts.includes('competition') ? COMPETITION_CHARTS * multiFlow * recipe.variants.length : 0;
  return (recipe.charts.includes('cwnd') ? cases : 0) + (recipe.charts.includes('goodput') ? 1 : 0) + (recipe.charts.includes('errors') ? 1 : 0) + competing + bufferChartCount(recipe.charts);
}

/**
 * The windows a cwnd chart draws, in bytes: cwnd and ssthresh of one flow as recorded (so no peak is
 * resampled away), the mean cwnd over flows on a grid when there are several.
 */
function windowSeries(r: RunResult): WindowSeries[] {
  if (r.status !== 'ok' || r.flows.length === 0) return [];
  const engine = r.engine;
  if (r.flows.length === 1) {
    const tr = r.flows[0]!.trace;
    return [
      { engine, what: 'cwnd', bytes: tr.cwndBytes },
      { engine, what: 'ssthresh', bytes: { t: tr.ssthreshBytes.t, v: tr.ssthreshBytes.v.map((x) => (x >= 2 ** 31 ? NaN : x)) } },
    ].filter((w) => w.bytes.t.length > 0) as WindowSeries[];
  }
  const grid = uniformGrid(0, r.durationS, 4000);
  return [{ engine, what: 'cwnd', bytes: { t: grid, v: cwndOnGrid(r, grid).map((x) => x * r.mssBytes) } }];
}

/** Largest cwnd (bytes) of the series from `fromS` on. */
function maxCwnd(series: readonly WindowSeries[], fromS = -Infinity): number {
  let m = 0;
  for (const w of series) {
    if (w.what !== 'cwnd') continue;
    for (let i = 0; i < w.bytes.t.length; i++) if (w.bytes.t[i]! >= fromS && Number.isFinite(w.bytes.v[i]!)) m = Math.max(m, w.bytes.v[i]!);
  }
  return m;
}

function byEngine(pairs: [string, Series | null][]): Record<string, Series> {
  const out: Record<string, Series> = {};
  for (const [k, s] of pairs) if (s && s.t.length > 0) out[k] = s;
  return out;
}

/** Renders a chart, counts it for progress and returns its figure's HTML. */
type ChartAdder = (r: Parameters<typeof buildChart>[0]) => Promise<string>;

/** What every section builder of one report reads (and the lists they append to). */
interface ReportContext {
  recipe: ReportRecipe;
  cases: readonly ComparisonCase[];
  opts: BuildOptions;
  warnings: string[];
  /** Relative path -> content. */
  files: Map<string, string>;
  charts: BuiltChart[];
  add: ChartAdder;
  version: string;
  scenarios: Scenario[];
  scenarioNames: string[];
  variants: Variant[];
  order: { scenarioOrder: string[]; variantOrder: Variant[] };
  /** Packet figures per case (caseKey): replicated, or the case's own run. */
  figures: Map<string, ReplicatedFigures>;
  lines: LineFigures[];
  /** The flag notes the goodput and comparison tables number. */
  notes: FlagNotes;
}

function reportContext(recipe: ReportRecipe, cases: readonly ComparisonCase[], opts: BuildOptions): ReportContext {
  const warnings: string[] = [];
  const scenarios = [...new Map(cases.map((c) => [c.scenario.name, c.scenario])).values()];
  const scenarioNames = scenarios.map((s) => s.name);
  const variants = recipe.variants.filter((v) => cases.some((c) => c.comparison.variant === v));
  const figures = new Map<string, ReplicatedFigures>();
  for (const c of cases) {
    const key = caseKey(c.scenario.name, c.comparison.variant);
    figures.set(key, opts.replicates?.get(key) ?? summarise([c.packet.spec.seed], c.packet.status === 'ok' ? [compactResult(c.packet)] : []));
  }
  const lines: LineFigures[] = scenarios.map((s) => lineFigures(s, variants, figures));
  // What failed is marked on the page and also said on stderr, by case and reason.
  for (const c of cases) for (const f of c.comparison.flags) if (f.code === 'run-failed') warnings.push(`${c.scenario.name}/${c.comparison.variant}: ${f.message}`);
  const totalCharts = chartCount(recipe, cases.length);
  let doneCharts = 0;
  const charts: BuiltChart[] = [];
  const add: ChartAdder = async (r) => {
    const c = await buildChart(r);
    charts.push(c);
    opts.onChart?.(++doneCharts, totalCharts, r.title);
    return chartFigure(c.page);
  };
  return {
    recipe, cases, opts, warnings, files: new Map(), charts, add, version: cclabVersion(),
    scenarios, scenarioNames, variants, order: { scenarioOrder: scenarioNames, variantOrder: [...variants] }, figures, lines, notes: new FlagNotes(),
  };
}

/** The tables as data beside the page. */
function writeDataFiles({ recipe, cases, scenarios, figures, files }: ReportContext): void {
  const gRows = goodputRows(cases, figures);
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
}

/** The reference table (which variant suits which line), with the recipe's contrast setups (and their CSV). */
function referenceHtml(ctx: ReportContext, contrastLines: readonly LineFigures[]): string {
  const { recipe, lines, variants } = ctx;
  const setups = setupsHtml(setupPairs(lines, contrastLines), variants, { mainDurationS: recipe.durationS });
  if (contrastLines.length > 0) {
    const rows = contrastLines.flatMap((l) => l.rows.map((r) => ({ ...setupRow(r.cclab), scenario: l.scenario.name, variant: r.variant })));
    ctx.files.set('contrast.csv', toCsv(rows, CONTRAST_COLUMNS));
  }
  return referenceIntro(recipe, lines) + referenceTableHtml(lines, variants) + lines.map(lineParagraph).join('') + setups;
}

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
async function goodputHtml(ctx: ReportContext): Promise<string> {
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
async function errorsHtml(ctx: ReportContext): Promise<string> {
  const { recipe, cases, figures, order, notes } = ctx;
  let html = errorsIntro();
  if (recipe.charts.includes('errors')) {
    const rows = errorRows(cases, figures);
    html += await ctx.add({ id: 'errors', title: 'Error summary', caption: 'Relative error (model − packet) / packet in percent (goodput against the packet median; mean cwnd against the charted run), per scenario, on a symmetric log scale (linear within ±10%); faded bars are outside the model\'s validity.', spec: errorSummaryChart(rows, order), staticSpec: errorSummaryChart(rows, { ...order, interactive: false }) });
  }
  return html + comparisonTableHtml(cases, notes);
}

/** One line's shared y ranges: the whole run, and the steady-state zoom. */
interface LineRanges {
  buckets: number;
  fullMax: number;
  steadyMax: number;
}

/** One case's cwnd chart (with the queue and the primary closed form's window), or why there is none. */
async function caseCwndHtml(ctx: ReportContext, s: Scenario, c: ComparisonCase, series: WindowSeries[], ranges: LineRanges): Promise<string> {
  const { recipe } = ctx;
  const { buckets, fullMax, steadyMax } = ranges;
  const v = c.comparison.variant;
  const queue = recipe.charts.includes('queue') ? byEngine([['packet', c.packet.status === 'ok' ? c.packet.queue.packets : null], ['fluid', c.fluid.status === 'ok' ? c.fluid.queue.packets : null]]) : undefined;
  // Only the closed form of the goodput table: near-equal formulas would stack their labels.
  const cf = primaryClosed(c.comparison);
  const references = cf && cf.cwndSegments !== null ? [{ label: cf.formula, title: cf.title, bytes: cf.cwndSegments * s.mssBytes }] : [];
  if (series.length === 0) {
    return `<h4>${escapeHtml(v)}</h4><p class="untrusted">No trace: ${escapeHtml([c.packet.failure, c.fluid.failure].filter(Boolean).join('; '))}</p>`;
  }
  const steadyFromS = c.comparison.transient.steadyFromS;
  const input = {
    title: `${v} on ${s.name}`,
    mssBytes: s.mssBytes,
    series,
    ...(queue && Object.keys(queue).length > 0 ? { queue } : {}),
    references,
    ...(fullMax > 0 ? { yMaxBytes: fullMax } : {}),
    ...(steadyMax > 0 ? { steadyMaxBytes: steadyMax } : {}),
    steadyFromS,
  };
  const fmt = (seg: number) => `${formatBytesSI(seg * s.mssBytes)} (${seg.toFixed(1)} segments)`;
  let html = `<h4 id="${chartId('case', s.name, v)}">${escapeHtml(variantTitle(v))}</h4>`;
  html += await ctx.add({
    id: chartId('cwnd', s.name, v),
    title: `${v} on ${s.name}`,
    caption:
      `${variantTitle(v)} on ${s.name} (packet run of seed ${c.packet.spec.seed}): mean cwnd packet ${fmt(c.comparison.packet.meanCwndSegments)} vs fluid ${modelCell(c.comparison.fluid, fmt(c.comparison.fluid.meanCwndSegments))}.` +
      (steadyFromS !== null ? ` The steady state the tables compare starts at ${steadyFromS.toFixed(1)} s (green line).` : ' No steady state was detected.') +
      ' The y axis spans the whole run, as every chart of this line does; "zoom to steady state" rescales it to the steady state.' +
      (queue ? queueNote(c) : ''),
    spec: cwndChart(input, { buckets }),
    // The static SVG is the fallback with scripts off: a coarser trace keeps the page small.
    staticSpec: cwndChart(input, { buckets: Math.ceil(buckets / 3), interactive: false }),
  });
  return html;
}

/** cwnd over time on one line: one y range per line (shared by its variants), in bytes by default. */
async function scenarioCwndSection(ctx: ReportContext, s: Scenario, buckets: number): Promise<Section> {
  let html = scenarioLine(s);
  const mine = ctx.cases.filter((x) => x.scenario.name === s.name);
  const windows = new Map(mine.map((c) => [c.comparison.variant, [...windowSeries(c.packet), ...windowSeries(c.fluid)]]));
  const fullMax = 1.05 * Math.max(0, ...[...windows.values()].map((w) => maxCwnd(w)));
  // The steady-state zoom starts a fifth of the way from the end of the first slow start to the end
  // of the run, past the recovery right after the first loss; never above the full range.
  const zoomFrom = (c: ComparisonCase) => {
    const from = c.comparison.transient.steadyFromS ?? 0;
    return from + 0.2 * (s.durationS - from);
  };
  const steadyMax = Math.min(fullMax, 1.2 * Math.max(0, ...mine.map((c) => maxCwnd(windows.get(c.comparison.variant)!, zoomFrom(c)))));
  for (const c of mine) html += await caseCwndHtml(ctx, s, c, windows.get(c.comparison.variant)!, { buckets, fullMax, steadyMax });
  return { id: chartId('scenario', s.name), title: `Scenario ${s.name}`, html };
}

/** cwnd over time, per scenario (none unless the recipe asks for the cwnd charts). */
async function cwndSections(ctx: ReportContext): Promise<Section[]> {
  const out: Section[] = [];
  if (!ctx.recipe.charts.includes('cwnd')) return out;
  const buckets = Math.max(150, Math.min(500, Math.floor(BUCKET_BUDGET / Math.max(1, ctx.cases.length))));
  for (const s of ctx.scenarios) out.push(await scenarioCwndSection(ctx, s, buckets));
  return out;
}

/** The fluid models' equations, each model once; a broken model file costs its own equations only. */
async function modelsHtmlOf(ctx: ReportContext): Promise<string> {
  const { recipe, opts, variants, warnings } = ctx;
  if (!recipe.charts.includes('equations')) return '';
  const modelErrors: string[] = [];
  const docs: ModelDoc[] = [];
  if (opts.models) {
    const seen = new Set<string>();
    // Variants without a model file have no equations to show (their "no model" cells say so).
    for (const v of variants.filter((x) => hasEngine(x, 'fluid'))) {
      let got: ModelDoc[];
      try {
        got = await opts.models(v);
      } catch (e) {
        // A broken model file costs its own equations, named in the page and on stderr; the rest stay.
        if (!(e instanceof Error && e.name === 'InputError')) throw e;
        modelErrors.push(`${v}: ${e.message}`);
        warnings.push(`fluid model of ${v}: ${e.message}`);
        continue;
      }
      for (const d of got) {
        if (!seen.has(d.id)) docs.push(d);
        seen.add(d.id);
      }
    }
  }
  return modelsHtml(docs, warnings) + (modelErrors.length ? `<p class="untrusted">Not shown: ${modelErrors.map(escapeHtml).join('; ')}</p>` : '');
}

/** The linear-stability section; a section that cannot be computed costs that section, said on the page and on stderr, not the report. */
function stabilityOrNote(ctx: ReportContext): Section | null {
  try {
    return stabilitySection(ctx.cases, ctx.warnings, { example: ctx.recipe.charts.includes('stability') });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    ctx.warnings.push(`linear stability not computed: ${why}`);
    return { id: 'stability-section', title: 'Linear stability', html: `<p class="untrusted">Not computed: ${escapeHtml(why)}</p>` };
  }
}

/** The page around the sections, its chart specs beside it, and the size warning. */
function finishReport(ctx: ReportContext, sections: Section[], math: boolean): BuiltReport {
  const { recipe, cases, lines, version, scenarioNames, variants, warnings, files, charts } = ctx;
  const when = (ctx.opts.now ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
  const intro = `<p class="muted">${escapeHtml(recipe.name)} · ${scenarioNames.length} scenario${scenarioNames.length > 1 ? 's' : ''} × ${variants.length} variant${variants.length > 1 ? 's' : ''} · cclab ${escapeHtml(version)} · seed ${recipe.seed} · ${escapeHtml(when)}</p>${recipe.description ? `<p>${escapeHtml(recipe.description)}</p>` : ''}${headline(cases, lines, agreementSentence(cases, caseAgreements(cases, ctx.figures)))}`;
  const html = renderPage({
    title: recipe.title,
    intro,
    sections,
    charts: charts.map((c) => c.page),
    math,
    footer: `Generated by cclab ${escapeHtml(version)} on ${escapeHtml(when)}. Charts: Vega-Lite / Vega, equations: KaTeX, all inlined; the page works offline.`,
  });
  const bytes = Buffer.byteLength(html);
  if (bytes > PAGE_LIMIT_BYTES) warnings.push(`index.html is ${(bytes / 1e6).toFixed(1)} MB (over ${PAGE_LIMIT_BYTES / 1e6} MB): split the recipe into fewer scenarios x variants per report`);
  for (const c of charts) files.set(c.specFile.path, c.specFile.text);
  files.set('index.html', html);
  return { html, files, warnings, charts: charts.length };
}

/**
 * Assemble the page and its data files from finished comparisons. No engine runs here. The page is a
 * list of sections, each from its own builder, in the order they appear (charts are numbered in the
 * order they are built, so the builders run in page order).
 */
export async function buildReport(recipe: ReportRecipe, cases: readonly ComparisonCase[], opts: BuildOptions = {}): Promise<BuiltReport> {
  const ctx = reportContext(recipe, cases, opts);
  writeDataFiles(ctx);
  const contrastLines = (opts.contrast?.scenarios ?? []).map((s) => lineFigures(s, ctx.variants, opts.contrast!.figures));
  const reference = referenceHtml(ctx, contrastLines);
  const goodput = await goodputHtml(ctx);
  const errors = await errorsHtml(ctx);
  const cwnd = await cwndSections(ctx);
  const models = await modelsHtmlOf(ctx);

  const dataFiles = ['goodput.csv', 'goodput.json', 'comparison.csv', 'comparison.json', 'scenarios.csv', 'scenarios.json', 'recipe.json', ...(contrastLines.length > 0 ? ['contrast.csv'] : []), 'charts/'];
  const sections: Section[] = [
    { id: 'reference-section', title: 'Which congestion control suits which line', html: reference },
    { id: 'goodput-section', title: 'The models against the simulation', html: goodput + bimodalNotesHtml(ctx.cases, caseAgreements(ctx.cases, ctx.figures)) + validityIntro() + ctx.notes.html() },
    { id: 'errors-section', title: 'How far the models are from the simulation, in detail', html: errors + '<p class="muted">Numbered marks refer to the notes under the goodput table.</p>' },
  ];
  if (cwnd.length > 0) sections.push({ id: 'cwnd-section', title: 'Congestion window over time', html: cwndIntro(), children: cwnd });
  const competing = recipe.charts.includes('competition') ? await competitionSection(cases, ctx.add) : null;
  if (competing) sections.push(competing);
  // Lines across buffer sizes (recipe grids): one flow's figures, and shares against loss-based flows.
  const sweeps = await bufferSections(cases, ctx.figures, recipe.charts, ctx.add, ctx.files);
  sections.push(...sweeps);
  const stability = stabilityOrNote(ctx);
  if (stability) sections.push(stability);
  if (models) sections.push({ id: 'models-section', title: 'Fluid models', html: `<p>The equations each fluid model integrates (delay-differential equations solved with Dormand–Prince 5).</p>${models}` });
  sections.push({ id: 'scenarios-section', title: 'Scenarios and how to rerun', html: scenarioTableHtml(ctx.scenarios) + rerunHtml(recipe, opts.outDir ?? `reports/${recipe.name}`, ctx.version, [...dataFiles.slice(0, -1), ...['buffers.csv', 'shares.csv'].filter((f) => ctx.files.has(f)), 'charts/']) });
  return finishReport(ctx, sections, models.includes('class="katex'));
}

const CONTRAST_COLUMNS = ['scenario', 'variant', 'runs', 'goodput_median_bps', 'goodput_low_bps', 'goodput_high_bps', 'coverage'] as const;

/** A contrast case's figures as a CSV row (blank where none). */
function setupRow(f: ReplicatedFigures | undefined) {
  const g = f?.goodput;
  return { runs: g?.n ?? 0, goodput_median_bps: g?.median, goodput_low_bps: g?.low, goodput_high_bps: g?.high, coverage: g?.coverage };
}

/** Which queue the panel shows: the slowest link on the path, which on ns-3's presets is the access link. */
function queueNote(c: ComparisonCase): string {
  const link = c.packet.status === 'ok' ? c.packet.queue.link : undefined;
  return link !== undefined && link !== 'bottleneck'
    ? ` The queue panel shows the ${link.replace(/^access\d*$/, "sender's access link")} queue: that link is slower than the bottleneck, so packets wait there.`
    : '';
}

/** Bytes with an SI prefix: 41.2 kB. */
function formatBytesSI(b: number): string {
  if (!Number.isFinite(b)) return '–';
  if (b >= 1e6) return `${(b / 1e6).toPrecision(3)} MB`;
  if (b >= 1e3) return `${(b / 1e3).toPrecision(3)} kB`;
  return `${b.toFixed(0)} B`;
}

/** What the reference table holds and how its intervals and winners are read. */
function referenceIntro(recipe: ReportRecipe, lines: readonly LineFigures[]): string {
  const reps = recipe.reps;
  return (
    `<p>The seed study compared the variants by their goodput on three lines (its Table 2). Here each line has three columns: <em>study</em>, the study's Table 2 as printed (ns-3 of 2019, one run per cell); <em>ns-3</em>, ns-3 today on the same setup, median and range of 10 runs of 100 s with the SACK setting cclab ran with; <em>cclab</em>, the packet-level simulation, ` +
    (reps > 1
      ? `median of ${reps} runs with seeds derived from seed ${recipe.seed} as a sweep derives them, and its 95% interval (order statistics, distribution-free: ${escapeHtml(coverageText(lines))}). ★ marks the line's winner, only where its interval lies above every other variant's.`
      : `one run (seed derived from ${recipe.seed}); with one run there are no intervals and no winner is marked: run with <code>--reps 10</code>.`) +
    ` The study's Table 1 heads its loss column "%" but its values (1e-4, 1e-3, 0.1) only reproduce its goodputs when read as probabilities, which is how the presets read them. Tahoe has no ns-3 counterpart today; NewReno was not in the study.</p>`
  );
}

export function variantTitle(v: Variant): string {
  return VARIANT_FACTS[v]?.title ?? v;
}
