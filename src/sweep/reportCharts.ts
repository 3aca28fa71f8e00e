import type { TopLevelSpec } from 'vega-lite';
import { roundSig } from '../page/downsample.js';
import { VARIANTS, type Variant } from '../variants.js';
import type { WinnerRow } from './analysis.js';

/**
 * Vega-Lite specs of the sweep report, data inline (each can be written as `.vl.json` and opened in
 * the Vega editor). Loss and RTT are ordinal in heatmaps (one cell per grid value) and logarithmic in
 * response charts.
 */

export const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Variant colours, fixed across every chart of a sweep report. */
export const VARIANT_COLORS = { domain: [...VARIANTS], range: ['#8c564b', '#2f6db3', '#17becf', '#2ca02c', '#d62728', '#9467bd', '#e377c2', '#bcbd22', '#7f7f7f', '#ff7f0e'].slice(0, VARIANTS.length) };

const rttLabel = "format(datum.value * 1000, '.3~r') + ' ms'";
const lossLabel = "format(datum.value, '.2~e')";
export const r4 = (x: number | null) => (x === null || !Number.isFinite(x) ? null : roundSig(x, 4));

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
  const steps = mapSteps(nx, ny, o.variants.length);
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
      width: { step: steps.x },
      height: { step: steps.y },
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
          mark: { type: 'text', fontSize: !labelled ? 8 : steps.x >= 60 ? 11 : 9, fontWeight: 'bold' },
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

/** Cell size so a small grid is still readable and a 20 x 20 grid still fits. */
export function cellStep(n: number, target: number, max = 48): number {
  return Math.max(12, Math.min(max, Math.floor(target / Math.max(1, n))));
}

/** Content width a page of maps fills at 1280 px (the panels of one map share it with its legend). */
const MAP_ROW_PX = 1000;

/** Panel size of a map with `panels` panels side by side: sized to the page, cells at most 110 px. */
function mapSteps(nx: number, ny: number, panels: number): { x: number; y: number } {
  const widthPx = Math.min(440, Math.floor(MAP_ROW_PX / Math.max(1, panels)) - 40);
  return { x: cellStep(nx, widthPx, 110), y: cellStep(ny, Math.min(330, widthPx), 80) };
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

/** Variants whose fixed colour is light enough for dark text. */
const LIGHT_VARIANTS = ['newreno', 'westwood'];

/** Colour of a tie at the packet level on the winner map. */
const TIE_COLOR = '#c8c8c8';

/**
 * Which variant has the highest mean goodput at each (loss, RTT), one panel per engine. A packet cell
 * whose two best variants' 95% intervals overlap is a tie at the packet level: grey, labelled "tie".
 * The fluid panel is deterministic (no intervals), so at a packet tie its cell is faded and its margin
 * shown as "(+x%)": the model's ranking is no verdict where the simulation cannot separate the variants.
 */
export function winnerChart(rows: readonly WinnerRow[], variants: readonly Variant[]): TopLevelSpec {
  const nx = new Set(rows.map((w) => w.rttS)).size;
  const ny = new Set(rows.map((w) => w.loss)).size;
  const small = nx * ny <= LABELLED_CELLS;
  const at = (w: WinnerRow) => `${w.slice}\0${w.loss}\0${w.rttS}`;
  const packetTie = new Set(rows.filter((w) => w.engine === 'packet' && w.overlap).map(at));
  const data = rows.map((w) => {
    const tie = w.engine === 'packet' && w.overlap;
    const contested = w.engine !== 'packet' && packetTie.has(at(w));
    const pct = w.margin === null ? '' : `+${Math.round(w.margin * 100)}%`;
    return {
      engine: w.engine, loss: w.loss, rttS: w.rttS, winner: tie ? 'tie' : w.winner, best: w.winner, goodput: r4(w.goodputBps),
      margin: r4(w.margin),
      label: !small || w.margin === null ? '' : tie ? 'tie' : contested ? `(${pct})` : pct,
      clear: tie ? 'tie at the packet level (intervals overlap)' : contested ? 'packet level: tie; no verdict' : 'clear win',
      faded: contested,
    };
  });
  const scale = variantScale(variants);
  const hasTie = data.some((d) => d.winner === 'tie');
  return {
    $schema: SCHEMA,
    title: 'Best variant by goodput at each grid point',
    data: { values: data },
    facet: { column: { field: 'engine', type: 'nominal', title: null, sort: ['packet', 'fluid'] } },
    spec: {
      width: { step: Math.max(cellStep(nx, 330, 110), small ? 40 : 12) },
      height: { step: cellStep(ny, 260, 80) },
      layer: [
        {
          mark: { type: 'rect', tooltip: true },
          encoding: {
            color: { field: 'winner', type: 'nominal', title: 'best variant', scale: hasTie ? { domain: [...scale.domain, 'tie'], range: [...scale.range, TIE_COLOR] } : scale },
            opacity: { condition: { test: 'datum.faded', value: 0.35 }, value: 1 },
            tooltip: [
              { field: 'best', type: 'nominal', title: 'highest mean' }, { field: 'loss', type: 'quantitative', format: '.3~e' },
              { field: 'rttS', type: 'quantitative', title: 'RTT (s)', format: '.4~g' }, { field: 'goodput', type: 'quantitative', format: '.4~s' },
              { field: 'margin', type: 'quantitative', title: 'margin over runner-up', format: '+.1%' }, { field: 'clear', type: 'nominal', title: 'win' },
            ],
          },
        },
        {
          transform: [{ filter: 'datum.faded' }],
          mark: { type: 'rect', fill: null, stroke: '#111', strokeWidth: 1.2, strokeDash: [3, 2] },
        },
        {
          transform: [{ filter: "datum.label !== ''" }],
          mark: { type: 'text', fontSize: 10, fontWeight: 'bold' },
          encoding: {
            text: { field: 'label', type: 'nominal' },
            color: { condition: { test: `datum.faded || datum.winner === 'tie' || indexof(${JSON.stringify(LIGHT_VARIANTS)}, datum.winner) >= 0`, value: '#111' }, value: '#fff' },
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
