import type { TopLevelSpec } from 'vega-lite';
import type { Series } from '../result/types.js';
import { minMaxDownsample, roundSig } from '../page/downsample.js';
import { CHART_WIDTH, DEFAULT_BUCKETS, seriesRows, timeAxis, timeLines, type BuildOptions } from './charts.js';

/**
 * The cwnd chart of one case (Vega-Lite, data inline): both engines' windows and thresholds in bytes
 * with a segments toggle, closed-form reference lines and the steady-state start, one legend of
 * strokes, a y range shared by the line's charts with a steady-state zoom, and the queue panel on a
 * shared, zoomable time axis. Shared pieces (engine colours, time lines) are charts.ts's.
 */

/** One line of a cwnd chart: an engine's window or slow-start threshold, in bytes. */
export interface WindowSeries {
  engine: 'packet' | 'fluid';
  what: 'cwnd' | 'ssthresh';
  bytes: Series;
}

export interface CwndChartInput {
  title: string;
  /** Segment size: the segments view divides by it. */
  mssBytes: number;
  /** Windows and thresholds in bytes (mean over flows). */
  series: WindowSeries[];
  /** Bottleneck queue in packets per engine; omit for no queue panel. */
  queue?: Record<string, Series>;
  /** Full y range (bytes), shared by every chart of a line; default: fit this chart's windows. */
  yMaxBytes?: number;
  /** Upper end of the y axis when zoomed to the steady state (bytes), shared per line. */
  steadyMaxBytes?: number;
  /** Where the steady state the tables report starts (end of the first slow start), s. */
  steadyFromS?: number | null;
  /** Horizontal reference lines (a closed form's mean window) in bytes; `label` names the formula. */
  references?: { label: string; bytes: number; title?: string }[];
}

/** Series of a cwnd chart in legend order, each with its colour and dash (so the legend shows the mark drawn). */
const WINDOW_SERIES = [
  { name: 'packet cwnd', color: '#2f6db3', dash: [1, 0] },
  { name: 'fluid cwnd', color: '#e4761b', dash: [1, 0] },
  { name: 'packet ssthresh', color: '#7fa7d9', dash: [6, 3] },
  { name: 'fluid ssthresh', color: '#f0a868', dash: [6, 3] },
] as const;
const REFERENCE_STYLE = { color: '#444444', dash: [2, 2] };
const STEADY_STYLE = { name: 'steady state from', color: '#2a8a4a', dash: [4, 4] };

/** `40 kB` / `12 seg` tick labels for the two units of the window axis. */
const WINDOW_LABELS = "window_unit === 'segments' ? format(datum.value, '~s') + ' seg' : format(datum.value, '~s') + 'B'";

interface WindowRow {
  t: number;
  v: number;
  series: string;
}

/** The windows as long-format rows ("packet cwnd", ...), downsampled and rounded. */
function windowRows(series: readonly WindowSeries[], buckets: number): WindowRow[] {
  const rows: WindowRow[] = [];
  for (const s of series) {
    // The fluid solution is smooth and the thresholds change only at losses: fewer points draw them.
    const d = minMaxDownsample(s.bytes, s.engine === 'packet' && s.what === 'cwnd' ? buckets : Math.ceil(buckets / 2));
    const name = `${s.engine} ${s.what}`;
    for (let i = 0; i < d.t.length; i++) {
      const v = d.v[i]!;
      if (Number.isFinite(v)) rows.push({ t: roundSig(d.t[i]!, 5), v: roundSig(v, 3), series: name });
    }
  }
  return rows;
}

type Reference = NonNullable<CwndChartInput['references']>[number];

/**
 * Colour and dash of every series drawn (windows present, closed forms, the steady-state line). Both
 * encode the same field with the same legend: Vega-Lite merges them into one legend whose symbols
 * are the strokes drawn.
 */
function windowLegend(rows: readonly WindowRow[], refs: readonly Reference[], steadyFromS: number | null | undefined) {
  const present = new Set(rows.map((r) => r.series));
  const legend = [
    ...WINDOW_SERIES.filter((w) => present.has(w.name)),
    ...refs.map((r) => ({ name: `closed form: ${r.label}`, ...REFERENCE_STYLE })),
    ...(steadyFromS != null ? [STEADY_STYLE] : []),
  ];
  const legendStyle = { orient: 'bottom', direction: 'horizontal', symbolType: 'stroke', symbolStrokeWidth: 2, columns: 3, labelLimit: 260 } as const;
  const color = { field: 'series', type: 'nominal', title: null, scale: { domain: legend.map((l) => l.name), range: legend.map((l) => l.color) }, legend: legendStyle } as const;
  const strokeDash = { field: 'series', type: 'nominal', title: null, scale: { domain: legend.map((l) => l.name), range: legend.map((l) => l.dash) }, legend: legendStyle } as const;
  return { color, strokeDash };
}

/** The window axis over the line's shared range, in bytes or (interactive) segments. */
function windowAxis(interactive: boolean, mss: number, fullMax: number, steadyMax: number) {
  // Bytes or segments: the data are bytes; the toggle divides by the MSS, and the axis follows.
  const scaleExpr = interactive ? `(window_unit === 'segments' ? ${mss} : 1)` : '1';
  const y = {
    field: 'y',
    type: 'quantitative',
    title: 'cwnd, ssthresh',
    // Not niced: the range is the one every chart of the line shares, in either unit.
    scale: interactive ? { domainMin: 0, domainMax: { expr: `(steady_zoom ? ${steadyMax} : ${fullMax}) / ${scaleExpr}` }, nice: false } : { domain: [0, fullMax], nice: false },
    axis: interactive ? { labelExpr: WINDOW_LABELS } : { format: '~s', labelExpr: "datum.label + 'B'" },
  } as const;
  return { y, calc: { calculate: `datum.v / ${scaleExpr}`, as: 'y' } };
}

/** Nearest-point tooltips of the window panel (interactive only). */
function windowHoverLayer(x: object, calc: object, mss: number) {
  return {
    transform: [calc, { calculate: `datum.v / ${mss}`, as: 'segments' }],
    mark: { type: 'point', filled: true, size: 40, clip: true },
    params: [{ name: 'hover_window', select: { type: 'point', on: 'pointerover', nearest: true, clear: 'pointerout' } }],
    encoding: {
      x,
      y: { field: 'y', type: 'quantitative' },
      // No colour encoding: a legend-less copy of the series scale would fight the line layers' legend.
      color: { value: '#222222' },
      opacity: { condition: { param: 'hover_window', empty: false, value: 1 }, value: 0 },
      tooltip: [
        { field: 'series', type: 'nominal' },
        { field: 't', type: 'quantitative', title: 'time (s)', format: '.3f' },
        { field: 'v', type: 'quantitative', title: 'window (bytes)', format: ',.0f' },
        { field: 'segments', type: 'quantitative', title: 'window (segments)', format: '.1f' },
      ],
    },
  };
}

/** The window panel's layers: both engines' lines, the closed forms' rules, the steady-state rule, the hover points. */
function windowLayers(input: CwndChartInput, refs: readonly Reference[], rows: readonly WindowRow[], interactive: boolean, y: object, calc: object): unknown[] {
  const { color, strokeDash } = windowLegend(rows, refs, input.steadyFromS);
  const x = { ...timeAxis, ...(input.queue ? { title: null } : {}) };
  const line = (engine: string, interpolate: 'step-after' | 'linear', zoom: boolean) => ({
    transform: [{ filter: `indexof(datum.series, '${engine} ') === 0` }, calc],
    mark: { type: 'line', strokeWidth: 1.2, clip: true, interpolate },
    encoding: { x, y, color, strokeDash },
    ...(zoom && interactive ? { params: [{ name: 'zoom_time', select: { type: 'interval', encodings: ['x'] }, bind: 'scales' }] } : {}),
  });
  const layers: unknown[] = [line('packet', 'step-after', true), line('fluid', 'linear', false)];
  if (refs.length > 0) {
    const tEnd = Math.max(0, ...input.series.map((s) => s.bytes.t.at(-1) ?? 0));
    const values = refs.map((r) => ({ v: roundSig(r.bytes, 4), t: tEnd, series: `closed form: ${r.label}`, title: r.title ?? r.label }));
    layers.push({
      data: { values },
      transform: [calc],
      mark: { type: 'rule', strokeWidth: 1.4, clip: true },
      encoding: { y: { field: 'y', type: 'quantitative' }, color, strokeDash, tooltip: [{ field: 'title', type: 'nominal', title: 'closed form' }, { field: 'y', type: 'quantitative', title: 'mean window', format: '.4~s' }] },
    });
  }
  if (input.steadyFromS != null) {
    layers.push({
      data: { values: [{ t: roundSig(input.steadyFromS, 4), series: STEADY_STYLE.name }] },
      mark: { type: 'rule', strokeWidth: 1.2 },
      encoding: { x: { field: 't', type: 'quantitative' }, color, strokeDash, tooltip: [{ field: 't', type: 'quantitative', title: 'steady state from (s)', format: '.2f' }] },
    });
  }
  if (interactive) layers.push(windowHoverLayer(x, calc, input.mssBytes));
  return layers;
}

/**
 * cwnd and ssthresh over time, both engines, in bytes (as the seed study plots them) with a toggle to
 * segments; the closed form's mean window and the start of the steady state as marked lines; the
 * y axis over the whole run (the first slow start's peak included) with a "zoom to steady state"
 * checkbox, both ranges shared by every chart of a line. The bottleneck queue sits below on the
 * same time axis. Every series is in one legend with the line style it is drawn with.
 */
export function cwndChart(input: CwndChartInput, opts: BuildOptions = {}): TopLevelSpec {
  const interactive = opts.interactive ?? true;
  const buckets = opts.buckets ?? DEFAULT_BUCKETS;
  const rows = windowRows(input.series, buckets);
  const cwndMax = Math.max(0, ...rows.filter((r) => r.series.endsWith('cwnd')).map((r) => r.v));
  const fullMax = roundSig(input.yMaxBytes ?? cwndMax * 1.05, 3);
  const steadyMax = roundSig(input.steadyMaxBytes ?? fullMax, 3);
  const refs = (input.references ?? []).filter((r) => Number.isFinite(r.bytes));
  const { y, calc } = windowAxis(interactive, input.mssBytes, fullMax, steadyMax);
  const layers = windowLayers(input, refs, rows, interactive, y, calc);
  // Parameter names: Vega-Lite reserves `unit` for its selections.
  const top = { width: CHART_WIDTH, height: 220, data: { values: rows }, layer: layers };
  const params = interactive
    ? [
        { name: 'window_unit', value: 'bytes', bind: { input: 'radio', options: ['bytes', 'segments'], name: 'window in ' } },
        { name: 'steady_zoom', value: false, bind: { input: 'checkbox', name: 'zoom to steady state ' } },
      ]
    : [];
  const base = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', title: input.title, config: { view: { stroke: null } }, ...(params.length ? { params } : {}) };
  if (!input.queue) return { ...base, ...top } as TopLevelSpec;
  // One zoom, in the window panel, on the x scale both panels share: the queue panel follows it.
  // (A second scale-bound zoom on the same shared scale makes the two fight and neither moves.)
  const bottom = timeLines(seriesRows(input.queue, buckets), 'queue (packets)', 80, interactive, true, false);
  return { ...base, vconcat: [top, bottom], resolve: { scale: { x: 'shared', color: 'independent', strokeDash: 'independent' }, legend: { color: 'independent', strokeDash: 'independent' } }, spacing: 8 } as TopLevelSpec;
}
