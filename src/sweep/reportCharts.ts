import type { TopLevelSpec } from 'vega-lite';
import { roundSig } from '../page/downsample.js';
import { VARIANTS, type Variant } from '../variants.js';
import type { ReportRow, TheoryRow, WinnerRow } from './analysis.js';

/**
 * Vega-Lite specs of the sweep report, data inline (each can be written as `.vl.json` and opened in
 * the Vega editor). Loss and RTT are ordinal in heatmaps (one cell per grid value) and logarithmic in
 * response charts.
 */

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Variant colours, fixed across every chart of a sweep report. */
export const VARIANT_COLORS = { domain: [...VARIANTS], range: ['#8c564b', '#2f6db3', '#17becf', '#2ca02c', '#d62728', '#9467bd', '#e377c2', '#bcbd22', '#7f7f7f', '#ff7f0e'].slice(0, VARIANTS.length) };

const rttLabel = "format(datum.value * 1000, '.3~r') + ' ms'";
const lossLabel = "format(datum.value, '.2~e')";
const r4 = (x: number | null) => (x === null || !Number.isFinite(x) ? null : roundSig(x, 4));

export interface HeatmapCell {
  variant: Variant;
  loss: number;
  rttS: number;
  value: number | null;
  /** Marks of the validity flags of this point (the simulation's), e.g. 'T', and their reasons. */
  marks?: string;
  reason?: string;
}

export interface HeatmapOptions {
  title: string;
  valueTitle: string;
  variants: readonly Variant[];
  /** 'goodput': log colour scale of bit/s; 'relerr': diverging scale clamped to ±1. */
  kind: 'goodput' | 'relerr';
}

/** Grids with at most this many cells per panel carry their values as labels. */
export const LABELLED_CELLS = 64;

/** Ticks 1, 2, 5 x 10^k across [lo, hi]: a log colour legend with more than its two ends labelled. */
export function logTicks(lo: number, hi: number): number[] {
  if (!(lo > 0) || !(hi >= lo)) return [];
  const out: number[] = [];
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** k;
      if (v >= lo && v <= hi) out.push(Number(v.toPrecision(3)));
    }
  }
  return out;
}

/**
 * One heatmap over loss (y, high loss on top) x RTT (x) per variant. Cells outside the models'
 * assumptions carry their marks (T timeouts, C capacity-limited, W few packets per RTT, F failed
 * runs) with the reason in the tooltip; small grids also show each cell's value.
 */
export function heatmapChart(cells: readonly HeatmapCell[], o: HeatmapOptions): TopLevelSpec {
  const fmtValue = (v: number) => (o.kind === 'goodput' ? formatSI(v) : `${v > 0 ? '+' : ''}${Math.round(100 * v)}%`);
  const nx = new Set(cells.map((c) => c.rttS)).size;
  const ny = new Set(cells.map((c) => c.loss)).size;
  const labelled = nx * ny <= LABELLED_CELLS;
  const data = cells
    .filter((c) => c.value !== null && Number.isFinite(c.value) && (o.kind === 'relerr' || c.value > 0))
    .map((c) => {
      const v = r4(c.value)!;
      const marks = c.marks ?? '';
      return { variant: c.variant, loss: c.loss, rttS: c.rttS, value: v, validity: c.reason || 'inside the models\' assumptions', label: `${labelled ? fmtValue(v) : ''}${marks ? `${labelled ? ' ' : ''}${marks}` : ''}`, marked: marks !== '' };
    });
  const values = data.map((d) => d.value).filter((v) => v > 0);
  const ticks = o.kind === 'goodput' && values.length ? logTicks(Math.min(...values), Math.max(...values)) : [];
  const color =
    o.kind === 'goodput'
      ? { field: 'value', type: 'quantitative', title: o.valueTitle, scale: { type: 'log', scheme: 'viridis' }, legend: { format: '.2~s', ...(ticks.length >= 2 ? { values: ticks } : {}), gradientLength: 200 } }
      : { field: 'value', type: 'quantitative', title: o.valueTitle, scale: { scheme: 'redblue', reverse: true, domain: [-1, 1], clamp: true }, legend: { format: '+.0%', values: [-1, -0.5, -0.2, 0, 0.2, 0.5, 1] } };
  // Label colour by the cell's lightness: dark text on the light end of each scheme.
  const light = o.kind === 'goodput' ? `datum.value >= ${ticks.length ? Math.sqrt(Math.min(...values) * Math.max(...values)) : 0}` : 'abs(datum.value) < 0.5';
  return {
    $schema: SCHEMA,
    title: o.title,
    data: { values: data },
    facet: { column: { field: 'variant', type: 'nominal', title: null, sort: [...o.variants], header: { labelFontWeight: 'bold' } } },
    spec: {
      width: { step: cellStep(nx, 220) },
      height: { step: cellStep(ny, 200) },
      encoding: {
        x: { field: 'rttS', type: 'ordinal', title: 'base RTT', axis: { labelExpr: rttLabel, labelAngle: -45 } },
        y: { field: 'loss', type: 'ordinal', title: 'loss p', sort: 'descending', axis: { labelExpr: lossLabel } },
        tooltip: [
          { field: 'variant', type: 'nominal' },
          { field: 'loss', type: 'quantitative', format: '.3~e' },
          { field: 'rttS', type: 'quantitative', title: 'RTT (s)', format: '.4~g' },
          { field: 'value', type: 'quantitative', title: o.valueTitle, format: o.kind === 'goodput' ? '.4~s' : '+.1%' },
          { field: 'validity', type: 'nominal' },
        ],
      },
      layer: [
        { mark: { type: 'rect' }, encoding: { color } },
        // Marked cells get a dark outline too, so they stand out on a grid too small for labels.
        { transform: [{ filter: 'datum.marked' }], mark: { type: 'rect', fill: null, stroke: '#111', strokeWidth: 1.2, strokeDash: [3, 2] } },
        {
          transform: [{ filter: "datum.label !== ''" }],
          mark: { type: 'text', fontSize: labelled ? 9 : 8, fontWeight: 'bold' },
          encoding: { text: { field: 'label', type: 'nominal' }, color: { condition: { test: light, value: '#111' }, value: '#fff' } },
        },
      ],
    },
  } as unknown as TopLevelSpec;
}

/** 8.63M, 35.3k: compact goodput labels for cells. */
function formatSI(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${(v / 1e9).toPrecision(3)}G`;
  if (a >= 1e6) return `${(v / 1e6).toPrecision(3)}M`;
  if (a >= 1e3) return `${(v / 1e3).toPrecision(3)}k`;
  return v.toPrecision(3);
}

const DASHES = [[6, 3], [2, 2], [8, 2, 2, 2], [1, 3]];

/** Cell size so a small grid is still readable and a 20 x 20 grid still fits. */
function cellStep(n: number, target: number): number {
  return Math.max(12, Math.min(48, Math.floor(target / Math.max(1, n))));
}

/** Colour scale of the variants present, keeping each variant's fixed colour. */
export function variantScale(variants: readonly Variant[]) {
  return { domain: [...variants], range: variants.map((v) => VARIANT_COLORS.range[VARIANTS.indexOf(v)]!) };
}

/** Picks at most `max` values spread evenly over a sorted list (facet panels stay readable). */
export function spread<T>(values: readonly T[], max: number): T[] {
  if (values.length <= max) return [...values];
  return Array.from({ length: max }, (_, i) => values[Math.round((i * (values.length - 1)) / (max - 1))]!);
}

/** Panels shown (1, 2, 3, 4 or 6) and their columns, so the facet grid has no empty cell. */
export function panelLayout(n: number, max = 6): { shown: number; columns: number } {
  const shown = n <= 4 ? n : n >= 6 && max >= 6 ? 6 : 4;
  return { shown, columns: shown === 4 ? 2 : Math.min(3, Math.max(1, shown)) };
}

/** Powers of ten across [lo, hi] (log axes label decades only: 1e-4, 1e-3, ...; no colliding 2e-4). */
function decades(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let k = Math.ceil(Math.log10(lo)); k <= Math.floor(Math.log10(hi)); k++) out.push(Number((10 ** k).toPrecision(1)));
  return out;
}

/**
 * Goodput against loss (wrt 'loss', one panel per RTT) or RTT (one panel per loss), log-log:
 * packet means as points with 95% CI error bars, fluid as solid lines, closed forms dashed, every
 * kind of line in the legend. Error bars that reach below the y axis are cut at it (a lower CI end
 * can be near zero or negative with few replications; log axes have no zero).
 */
export function responseChart(rows: readonly ReportRow[], theory: readonly TheoryRow[], wrt: 'loss' | 'rtt', variants: readonly Variant[], maxPanels = 6): TopLevelSpec {
  const formulas = [...new Set(theory.map((t) => t.formula))];
  const xField = wrt === 'loss' ? 'loss' : 'rttS';
  const panelField = wrt === 'loss' ? 'rttS' : 'loss';
  const allPanels = [...new Set(rows.map((r) => r[panelField]).filter((v): v is number => v !== null))].sort((a, b) => a - b);
  const layout = panelLayout(allPanels.length, maxPanels);
  const panelValues = spread(allPanels, Math.max(1, layout.shown));
  // A sweep without the other axis has one panel (null stands for "the base scenario's value").
  const keep = new Set<number | null>(panelValues.length > 0 ? panelValues : [null]);
  const panelName = (v: number | null) => (v === null ? 'base scenario' : wrt === 'loss' ? `RTT ${roundSig(v * 1000, 3)} ms` : `p = ${v.toExponential(1)}`);
  const packetRows = rows.filter((r) => keep.has(r[panelField]) && r.goodputBps > 0);
  const lines = [
    ...packetRows.map((r) => ({
      panel: panelName(r[panelField]), order: r[panelField] ?? 0, x: r[xField], variant: r.variant, source: r.engine === 'fluid' ? 'fluid model' : r.engine,
      y: r4(r.goodputBps), lo: r4(r.ci95Low), hi: r4(r.ci95High), n: r.n, points: 'packet mean ± 95% CI', validity: r.validity.map((f) => f.reason).join('; ') || 'inside the models\' assumptions',
    })),
    ...theory.filter((t) => keep.has(t[panelField])).map((t) => ({
      panel: panelName(t[panelField]), order: t[panelField] ?? 0, x: t[xField], variant: t.variant, source: t.formula, y: r4(t.goodputBps), lo: null, hi: null, n: null, points: null, validity: t.regime,
    })),
  ];
  // Pad the x domain a little so points at the grid ends are not cut by the clip.
  const xs = lines.map((d) => d.x).filter((v): v is number => v !== null && v > 0);
  const xDomain = xs.length ? [Math.min(...xs) / 1.25, Math.max(...xs) * 1.25] : undefined;
  const xScale = { type: 'log', ...(xDomain ? { domain: xDomain } : {}) };
  const xTicks = wrt === 'loss' && xDomain ? decades(xDomain[0]!, xDomain[1]!) : undefined;
  const x = { field: 'x', type: 'quantitative', title: wrt === 'loss' ? 'loss probability p' : 'base RTT (s)', scale: xScale, axis: { format: wrt === 'loss' ? '.0e' : '.3~g', labelOverlap: true, ...(xTicks && xTicks.length >= 2 ? { values: xTicks } : {}) } };
  // The y domain follows the means and curves, not the CI ends: with few replications a lower CI end
  // can sit decades below the mean and would squash every line; such bars are cut at the axis.
  const ys = lines.map((d) => d.y).filter((v): v is number => v !== null && v > 0);
  const domain = ys.length ? [Math.min(...ys) / 2, Math.max(...ys) * 2] : undefined;
  const data = lines.map((d) => ({ ...d, line: d.source === 'packet' ? null : `${d.variant} · ${d.source}`, loClip: d.lo === null || !domain ? d.lo : Math.max(d.lo, domain[0]!), cut: d.lo !== null && domain !== undefined && d.lo < domain[0]! }));
  const yScale = { type: 'log', ...(domain ? { domain } : {}) };
  const y = { field: 'y', type: 'quantitative', title: 'goodput (bit/s)', scale: yScale, axis: { format: '.2~s' } };
  const color = { field: 'variant', type: 'nominal', title: 'variant', scale: variantScale(variants) };
  const lineKinds = ['fluid model', ...formulas];
  const dashOf = (source: string) => {
    const i = lineKinds.indexOf(source);
    return i <= 0 ? [1, 0] : DASHES[(i - 1) % DASHES.length]!;
  };
  // Each model line is one legend entry, "variant · model", drawn in its variant's colour with its
  // model's dash (colour and dash on one field merge into one legend of the strokes drawn).
  const lineName = (variant: string, source: string) => `${variant} · ${source}`;
  const present = new Set(lines.filter((d) => d.source !== 'packet').map((d) => lineName(d.variant, d.source)));
  const lineDomain = variants.flatMap((v) => lineKinds.map((k) => ({ v, k, name: lineName(v, k) }))).filter((e) => present.has(e.name));
  const lineLegend = { symbolType: 'stroke', symbolStrokeWidth: 1.8, symbolSize: 300, labelLimit: 220 };
  const lineColor = { field: 'line', type: 'nominal', title: 'model lines', scale: { domain: lineDomain.map((e) => e.name), range: lineDomain.map((e) => variantScale(variants).range[variants.indexOf(e.v as Variant)]!) }, legend: lineLegend };
  const strokeDash = { field: 'line', type: 'nominal', title: 'model lines', scale: { domain: lineDomain.map((e) => e.name), range: lineDomain.map((e) => dashOf(e.k)) }, legend: lineLegend };
  const tooltip = [
    { field: 'variant', type: 'nominal' }, { field: 'source', type: 'nominal' },
    { field: 'x', type: 'quantitative', title: wrt === 'loss' ? 'p' : 'RTT (s)', format: '.3~e' },
    { field: 'y', type: 'quantitative', title: 'goodput (bit/s)', format: '.4~s' },
    { field: 'lo', type: 'quantitative', title: 'CI low', format: '.4~s' }, { field: 'hi', type: 'quantitative', title: 'CI high', format: '.4~s' },
    { field: 'validity', type: 'nominal' },
  ];
  return {
    $schema: SCHEMA,
    title: wrt === 'loss' ? 'Goodput vs loss (log-log)' : 'Goodput vs RTT (log-log)',
    data: { values: data },
    facet: { field: 'panel', type: 'nominal', title: null, sort: { field: 'order', op: 'min' } },
    columns: layout.columns,
    spec: {
      width: 220,
      height: 180,
      layer: [
        {
          transform: [{ filter: "datum.source === 'packet' && datum.hi !== null && datum.hi > 0 && datum.loClip !== null" }],
          mark: { type: 'rule', strokeWidth: 1.2, clip: true },
          encoding: { x, y: { field: 'loClip', type: 'quantitative', scale: yScale }, y2: { field: 'hi' }, color, tooltip },
        },
        {
          // A cut bar ends in a small bar at the axis, so a reader sees it goes further down.
          transform: [{ filter: "datum.source === 'packet' && datum.cut" }],
          mark: { type: 'tick', orient: 'horizontal', size: 8, thickness: 1.5, clip: true },
          encoding: { x, y: { field: 'loClip', type: 'quantitative', scale: yScale }, color },
        },
        {
          transform: [{ filter: "datum.source === 'packet'" }],
          mark: { type: 'point', filled: true, size: 28, tooltip: true, clip: true },
          encoding: { x, y, color, shape: { field: 'points', type: 'nominal', title: 'points', scale: { domain: ['packet mean ± 95% CI'], range: ['circle'] } }, tooltip },
        },
        {
          transform: [{ filter: "datum.source !== 'packet'" }],
          mark: { type: 'line', strokeWidth: 1.4, clip: true },
          encoding: { x, y, color: lineColor, strokeDash, detail: { field: 'source', type: 'nominal' }, tooltip },
        },
      ],
      // The points' colour is by variant, the lines' by variant and model: two colour scales.
      resolve: { scale: { color: 'independent', strokeDash: 'independent' } },
    },
    resolve: { scale: { y: 'shared' } },
  } as unknown as TopLevelSpec;
}

/** Variants whose fixed colour is light enough for dark text. */
const LIGHT_VARIANTS = ['newreno', 'westwood'];

/**
 * Which variant has the highest mean goodput at each (loss, RTT), one panel per engine. Every cell
 * in its variant's full colour with its name and margin over the runner-up; a dashed outline and
 * "≈" where the 95% intervals overlap (no clear winner), instead of fading that would leave most
 * cells of a 3-replication sweep unreadable.
 */
export function winnerChart(rows: readonly WinnerRow[], variants: readonly Variant[]): TopLevelSpec {
  const nx = new Set(rows.map((w) => w.rttS)).size;
  const ny = new Set(rows.map((w) => w.loss)).size;
  const small = nx * ny <= LABELLED_CELLS;
  const data = rows.map((w) => ({
    engine: w.engine, loss: w.loss, rttS: w.rttS, winner: w.winner, goodput: r4(w.goodputBps),
    margin: r4(w.margin),
    label: small && w.margin !== null ? `${w.overlap ? '≈' : '+'}${Math.round(w.margin * 100)}%` : '',
    clear: w.overlap ? 'intervals overlap' : 'clear win',
  }));
  return {
    $schema: SCHEMA,
    title: 'Best variant by goodput at each grid point',
    data: { values: data },
    facet: { column: { field: 'engine', type: 'nominal', title: null, sort: ['packet', 'fluid'] } },
    spec: {
      width: { step: Math.max(cellStep(nx, 300), small ? 40 : 12) },
      height: { step: cellStep(ny, 240) },
      layer: [
        {
          mark: { type: 'rect', tooltip: true },
          encoding: {
            color: { field: 'winner', type: 'nominal', title: 'best variant', scale: variantScale(variants) },
            tooltip: [
              { field: 'winner', type: 'nominal' }, { field: 'loss', type: 'quantitative', format: '.3~e' },
              { field: 'rttS', type: 'quantitative', title: 'RTT (s)', format: '.4~g' }, { field: 'goodput', type: 'quantitative', format: '.4~s' },
              { field: 'margin', type: 'quantitative', title: 'margin over runner-up', format: '+.1%' }, { field: 'clear', type: 'nominal', title: 'win' },
            ],
          },
        },
        {
          transform: [{ filter: "datum.clear === 'intervals overlap'" }],
          mark: { type: 'rect', fill: null, stroke: '#111', strokeWidth: 1.2, strokeDash: [3, 2] },
        },
        {
          transform: [{ filter: "datum.label !== ''" }],
          mark: { type: 'text', fontSize: 9, fontWeight: 'bold' },
          encoding: {
            text: { field: 'label', type: 'nominal' },
            color: { condition: { test: `indexof(${JSON.stringify(LIGHT_VARIANTS)}, datum.winner) >= 0`, value: '#111' }, value: '#fff' },
          },
        },
      ],
      encoding: {
        x: { field: 'rttS', type: 'ordinal', title: 'base RTT', axis: { labelExpr: rttLabel, labelAngle: -45 } },
        y: { field: 'loss', type: 'ordinal', title: 'loss p', sort: 'descending', axis: { labelExpr: lossLabel } },
      },
    },
  } as unknown as TopLevelSpec;
}
