import type { TopLevelSpec } from 'vega-lite';
import { roundSig } from '../report/downsample.js';
import { VARIANTS, type Variant } from '../variants.js';
import type { ReportRow, TheoryRow, WinnerRow } from './analysis.js';

/**
 * Vega-Lite specs of the sweep report, data inline (each can be written as `.vl.json` and opened in
 * the Vega editor). Loss and RTT are ordinal in heatmaps (one cell per grid value) and logarithmic in
 * response charts.
 */

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Variant colours, fixed across every chart of a sweep report. */
export const VARIANT_COLORS = { domain: [...VARIANTS], range: ['#8c564b', '#2f6db3', '#17becf', '#2ca02c', '#d62728'] };

const rttLabel = "format(datum.value * 1000, '.3~r') + ' ms'";
const lossLabel = "format(datum.value, '.2~e')";
const r4 = (x: number | null) => (x === null || !Number.isFinite(x) ? null : roundSig(x, 4));

export interface HeatmapCell {
  variant: Variant;
  loss: number;
  rttS: number;
  value: number | null;
}

export interface HeatmapOptions {
  title: string;
  valueTitle: string;
  variants: readonly Variant[];
  /** 'goodput': log colour scale of bit/s; 'relerr': diverging scale clamped to ±1. */
  kind: 'goodput' | 'relerr';
}

/** One heatmap over loss (y, high loss on top) x RTT (x) per variant. */
export function heatmapChart(cells: readonly HeatmapCell[], o: HeatmapOptions): TopLevelSpec {
  const data = cells.filter((c) => c.value !== null && Number.isFinite(c.value) && (o.kind === 'relerr' || c.value > 0))
    .map((c) => ({ variant: c.variant, loss: c.loss, rttS: c.rttS, value: r4(c.value) }));
  const color =
    o.kind === 'goodput'
      ? { field: 'value', type: 'quantitative', title: o.valueTitle, scale: { type: 'log', scheme: 'viridis' }, legend: { format: '.2~s' } }
      : { field: 'value', type: 'quantitative', title: o.valueTitle, scale: { scheme: 'redblue', reverse: true, domain: [-1, 1], clamp: true }, legend: { format: '+.0%' } };
  const nx = new Set(cells.map((c) => c.rttS)).size;
  const ny = new Set(cells.map((c) => c.loss)).size;
  return {
    $schema: SCHEMA,
    title: o.title,
    data: { values: data },
    facet: { column: { field: 'variant', type: 'nominal', title: null, sort: [...o.variants], header: { labelFontWeight: 'bold' } } },
    spec: {
      width: { step: cellStep(nx, 220) },
      height: { step: cellStep(ny, 200) },
      mark: { type: 'rect', tooltip: true },
      encoding: {
        x: { field: 'rttS', type: 'ordinal', title: 'base RTT', axis: { labelExpr: rttLabel, labelAngle: -45 } },
        y: { field: 'loss', type: 'ordinal', title: 'loss p', sort: 'descending', axis: { labelExpr: lossLabel } },
        color,
        tooltip: [
          { field: 'variant', type: 'nominal' },
          { field: 'loss', type: 'quantitative', format: '.3~e' },
          { field: 'rttS', type: 'quantitative', title: 'RTT (s)', format: '.4~g' },
          { field: 'value', type: 'quantitative', title: o.valueTitle, format: o.kind === 'goodput' ? '.4~s' : '+.1%' },
        ],
      },
    },
  } as TopLevelSpec;
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

/**
 * Goodput against loss (wrt 'loss', one panel per RTT) or RTT (one panel per loss), log-log:
 * packet means as points with 95% CI error bars, fluid as solid lines, closed forms dashed.
 */
export function responseChart(rows: readonly ReportRow[], theory: readonly TheoryRow[], wrt: 'loss' | 'rtt', variants: readonly Variant[], maxPanels = 6): TopLevelSpec {
  const formulas = [...new Set(theory.map((t) => t.formula))];
  const xField = wrt === 'loss' ? 'loss' : 'rttS';
  const panelField = wrt === 'loss' ? 'rttS' : 'loss';
  const panelValues = spread([...new Set(rows.map((r) => r[panelField]).filter((v): v is number => v !== null))].sort((a, b) => a - b), maxPanels);
  // A sweep without the other axis has one panel (null stands for "the base scenario's value").
  const keep = new Set<number | null>(panelValues.length > 0 ? panelValues : [null]);
  const panelName = (v: number | null) => (v === null ? 'base scenario' : wrt === 'loss' ? `RTT ${roundSig(v * 1000, 3)} ms` : `p = ${v.toExponential(1)}`);
  const data = [
    ...rows.filter((r) => keep.has(r[panelField]) && r.goodputBps > 0).map((r) => ({
      panel: panelName(r[panelField]), order: r[panelField] ?? 0, x: r[xField], variant: r.variant, source: r.engine,
      y: r4(r.goodputBps), lo: r4(r.ci95Low), hi: r4(r.ci95High), n: r.n,
    })),
    ...theory.filter((t) => keep.has(t[panelField])).map((t) => ({
      panel: panelName(t[panelField]), order: t[panelField] ?? 0, x: t[xField], variant: t.variant, source: t.formula, y: r4(t.goodputBps), lo: null, hi: null, n: null,
    })),
  ];
  // Pad the x domain a little so points at the grid ends are not cut by the clip.
  const xs = data.map((d) => d.x).filter((v): v is number => v !== null && v > 0);
  const xScale = { type: 'log', ...(xs.length ? { domain: [Math.min(...xs) / 1.25, Math.max(...xs) * 1.25] } : {}) };
  const x = { field: 'x', type: 'quantitative', title: wrt === 'loss' ? 'loss probability p' : 'base RTT (s)', scale: xScale, axis: { format: wrt === 'loss' ? '.0e' : '.3~g' } };
  // The y domain follows the means and curves, not the CI ends: with few replications a lower CI end
  // can sit decades below the mean and would squash every line; such bars are clipped instead.
  const ys = data.map((d) => d.y).filter((v): v is number => v !== null && v > 0);
  const domain = ys.length ? [Math.min(...ys) / 2, Math.max(...ys) * 2] : undefined;
  const yScale = { type: 'log', ...(domain ? { domain } : {}) };
  const y = { field: 'y', type: 'quantitative', title: 'goodput (bit/s)', scale: yScale, axis: { format: '.2~s' } };
  const color = { field: 'variant', type: 'nominal', title: 'variant', scale: variantScale(variants) };
  const tooltip = [
    { field: 'variant', type: 'nominal' }, { field: 'source', type: 'nominal' },
    { field: 'x', type: 'quantitative', title: wrt === 'loss' ? 'p' : 'RTT (s)', format: '.3~e' },
    { field: 'y', type: 'quantitative', title: 'goodput (bit/s)', format: '.4~s' },
    { field: 'lo', type: 'quantitative', title: 'CI low', format: '.4~s' }, { field: 'hi', type: 'quantitative', title: 'CI high', format: '.4~s' },
  ];
  return {
    $schema: SCHEMA,
    title: wrt === 'loss' ? 'Goodput vs loss (log-log)' : 'Goodput vs RTT (log-log)',
    data: { values: data },
    facet: { field: 'panel', type: 'nominal', title: null, sort: { field: 'order', op: 'min' } },
    columns: 3,
    spec: {
      width: 220,
      height: 180,
      layer: [
        {
          transform: [{ filter: "datum.source === 'packet' && datum.lo !== null && datum.lo > 0" }],
          mark: { type: 'rule', strokeWidth: 1.2, clip: true },
          encoding: { x, y: { field: 'lo', type: 'quantitative', scale: yScale }, y2: { field: 'hi' }, color },
        },
        {
          transform: [{ filter: "datum.source === 'packet'" }],
          mark: { type: 'point', filled: true, size: 28, tooltip: true, clip: true },
          encoding: { x, y, color, tooltip },
        },
        {
          transform: [{ filter: "datum.source === 'fluid'" }],
          mark: { type: 'line', strokeWidth: 1.5, point: { size: 12 }, clip: true },
          encoding: { x, y, color, detail: { field: 'source', type: 'nominal' }, tooltip },
        },
        {
          transform: [{ filter: "datum.source !== 'packet' && datum.source !== 'fluid'" }],
          mark: { type: 'line', strokeWidth: 1.2, opacity: 0.8, clip: true },
          encoding: {
            x, y, color,
            strokeDash: { field: 'source', type: 'nominal', title: 'closed form', ...(formulas.length ? { scale: { domain: formulas, range: formulas.map((_, i) => DASHES[i % DASHES.length]) } } : {}) },
            tooltip,
          },
        },
      ],
    },
    resolve: { scale: { y: 'shared' } },
  } as TopLevelSpec;
}

/** Which variant has the highest mean goodput at each (loss, RTT), one panel per engine. */
export function winnerChart(rows: readonly WinnerRow[], variants: readonly Variant[]): TopLevelSpec {
  const data = rows.map((w) => ({
    engine: w.engine, loss: w.loss, rttS: w.rttS, winner: w.winner, goodput: r4(w.goodputBps),
    margin: r4(w.margin), label: w.margin === null ? '' : `${w.overlap ? '≈' : '+'}${Math.round(w.margin * 100)}%`, clear: w.overlap ? 'CIs overlap' : 'clear',
  }));
  return {
    $schema: SCHEMA,
    title: 'Best variant by goodput at each grid point',
    data: { values: data },
    facet: { column: { field: 'engine', type: 'nominal', title: null, sort: ['packet', 'fluid'] } },
    spec: {
      width: { step: cellStep(new Set(rows.map((w) => w.rttS)).size, 300) },
      height: { step: cellStep(new Set(rows.map((w) => w.loss)).size, 240) },
      layer: [
        {
          mark: { type: 'rect', tooltip: true },
          encoding: {
            color: { field: 'winner', type: 'nominal', title: 'best variant', scale: variantScale(variants) },
            opacity: { field: 'clear', type: 'ordinal', sort: ['clear', 'CIs overlap'], title: 'win', scale: { domain: ['clear', 'CIs overlap'], range: [1, 0.45] } },
            tooltip: [
              { field: 'winner', type: 'nominal' }, { field: 'loss', type: 'quantitative', format: '.3~e' },
              { field: 'rttS', type: 'quantitative', title: 'RTT (s)', format: '.4~g' }, { field: 'goodput', type: 'quantitative', format: '.4~s' },
              { field: 'margin', type: 'quantitative', title: 'margin over runner-up', format: '+.1%' }, { field: 'clear', type: 'nominal' },
            ],
          },
        },
        { mark: { type: 'text', fontSize: 8, color: 'white' }, encoding: { text: { field: 'label', type: 'nominal' } } },
      ],
      encoding: {
        x: { field: 'rttS', type: 'ordinal', title: 'base RTT', axis: { labelExpr: rttLabel, labelAngle: -45 } },
        y: { field: 'loss', type: 'ordinal', title: 'loss p', sort: 'descending', axis: { labelExpr: lossLabel } },
      },
    },
  } as TopLevelSpec;
}
