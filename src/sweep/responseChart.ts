import type { TopLevelSpec } from 'vega-lite';
import type { Variant } from '../variants.js';
import type { ReportRow, TheoryRow } from './analysis.js';
import { roundSig } from '../page/downsample.js';
import { panelLayout, r4, SCHEMA, spread, variantScale } from './reportCharts.js';

/**
 * The sweep report's goodput-vs-loss (or RTT) chart: per panel (a value of the other axis), each
 * variant's packet mean with its interval and the model lines, on logarithmic axes labelled by decade.
 */

/** Dash of each model line (the packet line is solid). */
const DASHES = [[6, 3], [2, 2], [8, 2, 2, 2], [1, 3]];

/** Powers of ten across [lo, hi] (log axes label decades only: 1e-4, 1e-3, ...; no colliding 2e-4). */
function decades(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let k = Math.ceil(Math.log10(lo)); k <= Math.floor(Math.log10(hi)); k++) out.push(Number((10 ** k).toPrecision(1)));
  return out;
}

/** Width of one panel of a goodput-vs-loss (or RTT) chart, px: readable ticks and lines (issue 22: at least 360). */
export const RESPONSE_PANEL_WIDTH = 380;

/** One row of a response chart: a packet mean with its interval, or a point of a model line. RTTs in ms. */
interface ResponseDatum {
  panel: string;
  order: number;
  x: number | null;
  variant: Variant;
  source: string;
  y: number | null;
  lo: number | null;
  hi: number | null;
  n: number | null;
  points: string | null;
  validity: string;
}

/** The rows of the panels shown (at most maxPanels of the other axis's values, evenly spread); RTTs in ms. */
function responseData(rows: readonly ReportRow[], theory: readonly TheoryRow[], wrt: 'loss' | 'rtt', maxPanels: number): { lines: ResponseDatum[]; columns: number } {
  const xField = wrt === 'loss' ? 'loss' : 'rttS';
  const panelField = wrt === 'loss' ? 'rttS' : 'loss';
  const allPanels = [...new Set(rows.map((r) => r[panelField]).filter((v): v is number => v !== null))].sort((a, b) => a - b);
  const layout = panelLayout(allPanels.length, maxPanels);
  const panelValues = spread(allPanels, Math.max(1, layout.shown));
  // A sweep without the other axis has one panel (null stands for "the base scenario's value").
  const keep = new Set<number | null>(panelValues.length > 0 ? panelValues : [null]);
  const panelName = (v: number | null) => (v === null ? 'base scenario' : wrt === 'loss' ? `RTT ${roundSig(v * 1000, 3)} ms` : `p = ${v.toExponential(1)}`);
  const xOf = (v: number | null) => (v === null || wrt === 'loss' ? v : roundSig(v * 1000, 6));
  const packetRows = rows.filter((r) => keep.has(r[panelField]) && r.goodputBps > 0);
  const lines: ResponseDatum[] = [
    ...packetRows.map((r) => ({
      panel: panelName(r[panelField]), order: r[panelField] ?? 0, x: xOf(r[xField]), variant: r.variant, source: r.engine === 'fluid' ? 'fluid model' : r.engine,
      y: r4(r.goodputBps), lo: r4(r.ci95Low), hi: r4(r.ci95High), n: r.n, points: r.engine === 'fluid' ? null : 'packet mean ± 95% CI', validity: r.validity.map((f) => f.reason).join('; ') || 'inside the models\' assumptions',
    })),
    ...theory.filter((t) => keep.has(t[panelField])).map((t) => ({
      panel: panelName(t[panelField]), order: t[panelField] ?? 0, x: xOf(t[xField]), variant: t.variant, source: t.formula, y: r4(t.goodputBps), lo: null, hi: null, n: null, points: null, validity: t.regime,
    })),
  ];
  return { lines, columns: layout.columns };
}

/** Log x axis padded a little so points at the grid ends are not cut; loss labelled by decades, RTT (ms) at the grid's own values. */
function responseX(lines: readonly ResponseDatum[], wrt: 'loss' | 'rtt') {
  const xs = lines.map((d) => d.x).filter((v): v is number => v !== null && v > 0);
  const xDomain = xs.length ? [Math.min(...xs) / 1.25, Math.max(...xs) * 1.25] : undefined;
  const grid = [...new Set(xs)].sort((a, b) => a - b);
  const xTicks = !xDomain ? undefined : wrt === 'loss' ? decades(xDomain[0]!, xDomain[1]!) : grid.length <= 8 ? grid : decades(xDomain[0]!, xDomain[1]!);
  const axis = { format: wrt === 'loss' ? '.0e' : '~r', labelOverlap: true, ...(xTicks && xTicks.length >= 2 ? { values: xTicks } : {}) };
  return { field: 'x', type: 'quantitative', title: wrt === 'loss' ? 'loss probability p' : 'base RTT (ms)', scale: { type: 'log', ...(xDomain ? { domain: xDomain } : {}) }, axis };
}

/**
 * Goodput against loss (wrt 'loss', one panel per RTT) or RTT (one panel per loss), log-log:
 * packet means as points with 95% CI error bars, fluid as solid lines, closed forms dashed. One
 * legend for the whole chart (variant colours, one dash per kind of model line), below the panels.
 * Error bars that reach below the y axis are cut at it (a lower CI end can be near zero or negative
 * with few replications; log axes have no zero).
 */
export function responseChart(rows: readonly ReportRow[], theory: readonly TheoryRow[], wrt: 'loss' | 'rtt', variants: readonly Variant[], maxPanels = 6): TopLevelSpec {
  const formulas = [...new Set(theory.map((t) => t.formula))];
  const { lines, columns } = responseData(rows, theory, wrt, maxPanels);
  const x = responseX(lines, wrt);
  // The y domain follows the means and curves, not the CI ends: with few replications a lower CI end
  // can sit decades below the mean and would squash every line; such bars are cut at the axis.
  const ys = lines.map((d) => d.y).filter((v): v is number => v !== null && v > 0);
  const domain = ys.length ? [Math.min(...ys) / 2, Math.max(...ys) * 2] : undefined;
  const data = lines.map((d) => ({ ...d, loClip: d.lo === null || !domain ? d.lo : Math.max(d.lo, domain[0]!), cut: d.lo !== null && domain !== undefined && d.lo < domain[0]! }));
  const yScale = { type: 'log', ...(domain ? { domain } : {}) };
  const y = { field: 'y', type: 'quantitative', title: 'goodput (bit/s)', scale: yScale, axis: { format: '.2~s' } };
  const legend = { orient: 'bottom', direction: 'horizontal' };
  const color = { field: 'variant', type: 'nominal', title: 'variant', scale: variantScale(variants), legend };
  const lineKinds = ['fluid model', ...formulas].filter((k) => lines.some((d) => d.source === k));
  const strokeDash = { field: 'source', type: 'nominal', title: 'model lines', scale: { domain: lineKinds, range: lineKinds.map((k, i) => (k === 'fluid model' ? [1, 0] : DASHES[(i - (lineKinds[0] === 'fluid model' ? 1 : 0)) % DASHES.length]!)) }, legend: { ...legend, symbolType: 'stroke', symbolStrokeWidth: 1.8, symbolSize: 300, labelLimit: 220 } };
  const tooltip = [
    { field: 'variant', type: 'nominal' }, { field: 'source', type: 'nominal' },
    { field: 'x', type: 'quantitative', title: wrt === 'loss' ? 'p' : 'RTT (ms)', format: wrt === 'loss' ? '.3~e' : '.4~r' },
    { field: 'y', type: 'quantitative', title: 'goodput (bit/s)', format: '.4~s' },
    { field: 'lo', type: 'quantitative', title: 'CI low', format: '.4~s' }, { field: 'hi', type: 'quantitative', title: 'CI high', format: '.4~s' },
    { field: 'n', type: 'quantitative', title: 'replications' },
    { field: 'validity', type: 'nominal' },
  ];
  const isPacket = "datum.source === 'packet'";
  return {
    $schema: SCHEMA,
    title: wrt === 'loss' ? 'Goodput vs loss (log-log)' : 'Goodput vs RTT (log-log)',
    data: { values: data },
    facet: { field: 'panel', type: 'nominal', title: null, sort: { field: 'order', op: 'min' } },
    columns,
    spec: {
      width: RESPONSE_PANEL_WIDTH,
      height: 240,
      layer: [
        {
          transform: [{ filter: `${isPacket} && datum.hi !== null && datum.hi > 0 && datum.loClip !== null` }],
          mark: { type: 'rule', strokeWidth: 1.2, clip: true },
          encoding: { x, y: { field: 'loClip', type: 'quantitative', scale: yScale }, y2: { field: 'hi' }, color, tooltip },
        },
        {
          // A cut bar ends in a small bar at the axis, so a reader sees it goes further down.
          transform: [{ filter: `${isPacket} && datum.cut` }],
          mark: { type: 'tick', orient: 'horizontal', size: 8, thickness: 1.5, clip: true },
          encoding: { x, y: { field: 'loClip', type: 'quantitative', scale: yScale }, color },
        },
        {
          transform: [{ filter: isPacket }],
          mark: { type: 'point', filled: true, size: 28, tooltip: true, clip: true },
          encoding: { x, y, color, shape: { field: 'points', type: 'nominal', title: 'points', scale: { domain: ['packet mean ± 95% CI'], range: ['circle'] }, legend }, tooltip },
        },
        {
          transform: [{ filter: `datum.source !== 'packet'` }],
          mark: { type: 'line', strokeWidth: 1.4, clip: true },
          encoding: { x, y, color, strokeDash, detail: { field: 'variant', type: 'nominal' }, tooltip },
        },
      ],
    },
    resolve: { scale: { y: 'shared' } },
  } as unknown as TopLevelSpec;
}
