import { cwndOnGrid } from '../../compare/compare.js';
import { modelCell } from '../../compare/format.js';
import { uniformGrid } from '../../compare/resample.js';
import type { ComparisonCase } from '../../compare/run.js';
import { chartId, type BuiltChart } from '../../page/chartkit.js';
import { escapeHtml, type Section } from '../../page/html.js';
import type { RunResult, Series } from '../../result/types.js';
import type { Scenario } from '../../scenario/types.js';
import { cwndChart, type WindowSeries } from '../cwndChart.js';
import type { ReportContext } from '../context.js';
import { primaryClosed } from '../tables.js';
import { scenarioLine, variantTitle } from './prose.js';

/** Page budget: this many buckets over all cwnd charts keeps a 15-chart report near 3.5 MB (limit 5 MB). */
const BUCKET_BUDGET = 4500;

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
export async function cwndSections(ctx: ReportContext): Promise<Section[]> {
  const out: Section[] = [];
  if (!ctx.recipe.charts.includes('cwnd')) return out;
  const buckets = Math.max(150, Math.min(500, Math.floor(BUCKET_BUDGET / Math.max(1, ctx.cases.length))));
  for (const s of ctx.scenarios) out.push(await scenarioCwndSection(ctx, s, buckets));
  return out;
}

/** The cwnd sections made ahead, the charts they drew in order, and the recipe and cases they were made from. */
export interface PrebuiltCwnd {
  recipe: object;
  cases: readonly ComparisonCase[];
  sections: Section[];
  charts: BuiltChart[];
}

/** {@link cwndSections} made while the workers run the replications (build.ts prebuildCharts), with the charts it drew. */
export async function prebuildCwnd(ctx: ReportContext): Promise<PrebuiltCwnd> {
  const from = ctx.charts.length;
  const sections = await cwndSections(ctx);
  return { recipe: ctx.recipe, cases: ctx.cases, sections, charts: ctx.charts.slice(from) };
}

/**
 * The cwnd sections: the prebuilt ones for the same recipe when the report's cases hold the same
 * charted runs (the sections read a case's scenario, comparison and two runs, and the recipe's
 * charts: the same objects give the same HTML), their charts counted in page order as if drawn now; else made now. Made again
 * after the last run, they cost ~20% of the page's build (every chart's spec rebuilt and serialised
 * to find it among the prebuilt ones), on npm start's wall time.
 */
export async function cwndSectionsOf(ctx: ReportContext): Promise<Section[]> {
  const p = ctx.opts.prebuiltCwnd;
  const same = (a: ComparisonCase, b: ComparisonCase) => a.scenario === b.scenario && a.comparison === b.comparison && a.packet === b.packet && a.fluid === b.fluid;
  if (!p || p.recipe !== ctx.recipe || p.cases.length !== ctx.cases.length || !p.cases.every((c, i) => same(c, ctx.cases[i]!))) return cwndSections(ctx);
  for (const c of p.charts) ctx.take(c);
  return p.sections;
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
