import type { TopLevelSpec } from 'vega-lite';
import type { Series } from '../result/types.js';
import { minMaxDownsample, roundSig } from './downsample.js';

/**
 * Vega-Lite spec builders for cclab reports. Each returns a plain, typed spec with its data inline,
 * so it can be written as `.vl.json` and opened in the Vega editor as is. Interactive specs carry a
 * time-axis zoom (drag to pan, wheel to zoom, double-click to reset) and nearest-point tooltips;
 * pass `{ interactive: false }` for the static SVG fallback, which has no need of hover layers.
 */

/** Engine colours, fixed so that packet and fluid look the same in every chart of a report. */
export const ENGINE_COLORS = { domain: ['packet', 'fluid'], range: ['#2f6db3', '#e4761b'] };
export const CHART_WIDTH = 880;
/** Buckets of the min/max downsampling: at most about 2 x this many points per line. */
export const DEFAULT_BUCKETS = 500;

export interface BuildOptions {
  interactive?: boolean;
  buckets?: number;
  /** Order of scenario panels and variant bars (default: alphabetical, Vega-Lite's). */
  scenarioOrder?: string[];
  variantOrder?: string[];
}

interface Row {
  t: number;
  v: number;
  engine: string;
}

/** Long-format rows of named series, downsampled and rounded. */
export function seriesRows(lines: Record<string, Series>, buckets = DEFAULT_BUCKETS): Row[] {
  const rows: Row[] = [];
  for (const [engine, s] of Object.entries(lines)) {
    const d = minMaxDownsample(s, buckets);
    for (let i = 0; i < d.t.length; i++) {
      const v = d.v[i]!;
      if (Number.isFinite(v)) rows.push({ t: roundSig(d.t[i]!, 6), v: roundSig(v, 4), engine });
    }
  }
  return rows;
}

const timeAxis = { field: 't', type: 'quantitative', title: 'time (s)', scale: { zero: false, nice: false } } as const;

/** Lines of several series over time, one colour each, with zoom and tooltips when interactive. */
function timeLines(rows: Row[], yTitle: string, height: number, interactive: boolean, showXTitle: boolean, zoom = true, yMax?: number) {
  const yScale = yMax !== undefined && Number.isFinite(yMax) && yMax > 0 ? { scale: { domain: [0, roundSig(yMax, 3)] } } : {};
  const color = { field: 'engine', type: 'nominal', title: 'engine', scale: ENGINE_COLORS } as const;
  const x = showXTitle ? timeAxis : { ...timeAxis, title: null };
  // The packet engine's window and queue change at events and hold in between: drawn as steps.
  // The fluid solution is continuous: drawn as straight segments between solver points.
  const zoomParam = interactive && zoom ? { params: [{ name: `zoom_${yTitle.replace(/\W+/g, '_')}`, select: { type: 'interval', encodings: ['x'] }, bind: 'scales' }] } : {};
  const lineOf = (test: string, interpolate: 'step-after' | 'linear') => ({
    transform: [{ filter: test }],
    mark: { type: 'line', strokeWidth: 1.2, clip: true, interpolate },
    encoding: { x, y: { field: 'v', type: 'quantitative', title: yTitle, ...yScale }, color },
  });
  const line = { ...lineOf("datum.engine === 'packet'", 'step-after'), ...zoomParam };
  const otherLines = lineOf("datum.engine !== 'packet'", 'linear');
  const hover = {
    mark: { type: 'point', filled: true, size: 40, clip: true },
    params: [{ name: `hover_${yTitle.replace(/\W+/g, '_')}`, select: { type: 'point', on: 'pointerover', nearest: true, clear: 'pointerout' } }],
    encoding: {
      x,
      y: { field: 'v', type: 'quantitative' },
      color,
      opacity: { condition: { param: `hover_${yTitle.replace(/\W+/g, '_')}`, empty: false, value: 1 }, value: 0 },
      tooltip: [
        { field: 'engine', type: 'nominal' },
        { field: 't', type: 'quantitative', title: 'time (s)', format: '.3f' },
        { field: 'v', type: 'quantitative', title: yTitle, format: '.4~g' },
      ],
    },
  };
  return { width: CHART_WIDTH, height, data: { values: rows }, layer: interactive ? [line, otherLines, hover] : [line, otherLines] };
}

export interface CwndChartInput {
  title: string;
  /** Congestion window in segments (mean over flows) per engine. */
  cwnd: Record<string, Series>;
  /** Bottleneck queue in packets per engine; omit for no queue panel. */
  queue?: Record<string, Series>;
  /** Upper end of the window axis (segments); lines above it are clipped. Default: fit all data. */
  yMax?: number;
  /** Horizontal reference lines (e.g. a closed form's mean window), in segments; `label` is drawn, `title` is the tooltip. */
  references?: { label: string; value: number; title?: string }[];
}

/** cwnd vs time, engines overlaid, with the bottleneck queue below on the same time axis. */
export function cwndChart(input: CwndChartInput, opts: BuildOptions = {}): TopLevelSpec {
  const interactive = opts.interactive ?? true;
  const buckets = opts.buckets ?? DEFAULT_BUCKETS;
  const top = timeLines(seriesRows(input.cwnd, buckets), 'cwnd (segments)', 220, interactive, !input.queue, true, input.yMax);
  const refs = (input.references ?? []).filter((r) => Number.isFinite(r.value));
  if (refs.length > 0) {
    // Dashed rules, labelled at the right end of the time axis (the label follows zoom: it sits at the data's end).
    const tEnd = Math.max(...Object.values(input.cwnd).map((s) => s.t.at(-1) ?? 0));
    const values = refs.map((r) => ({ ...r, value: roundSig(r.value, 4), t: tEnd, title: r.title ?? r.label }));
    const tooltip = [{ field: 'title', type: 'nominal', title: 'closed form' }, { field: 'value', type: 'quantitative', title: 'cwnd (segments)', format: '.1f' }];
    (top.layer as unknown[]).push(
      { data: { values }, mark: { type: 'rule', strokeDash: [4, 3], color: '#555', clip: true }, encoding: { y: { field: 'value', type: 'quantitative' }, tooltip } },
      { data: { values }, mark: { type: 'text', align: 'right', baseline: 'bottom', dy: -2, color: '#444', fontSize: 10, clip: true }, encoding: { x: { field: 't', type: 'quantitative' }, y: { field: 'value', type: 'quantitative' }, text: { field: 'label' }, tooltip } },
    );
  }
  const base = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', title: input.title, config: { view: { stroke: null } } };
  if (!input.queue) return { ...base, ...top } as TopLevelSpec;
  // One zoom, in the window panel, on the x scale both panels share: the queue panel follows it.
  // (A second scale-bound zoom on the same shared scale makes the two fight and neither moves.)
  const bottom = timeLines(seriesRows(input.queue, buckets), 'queue (packets)', 90, interactive, true, false);
  return { ...base, vconcat: [top, bottom], resolve: { scale: { x: 'shared' } }, spacing: 8 } as TopLevelSpec;
}

export interface ErrorRow {
  scenario: string;
  variant: string;
  /** What is compared, e.g. 'fluid goodput', 'fluid mean cwnd', 'closed-form goodput'. */
  metric: string;
  /** Relative error in percent, (model - packet) / packet x 100. */
  errorPct: number;
  /** False when a validity flag says the model is outside its assumptions here. */
  trusted: boolean;
  note: string;
}

/** Grouped bars of relative errors, one panel per scenario; untrusted bars are faded. */
export function errorSummaryChart(rows: ErrorRow[], opts: BuildOptions = {}): TopLevelSpec {
  const data = rows.filter((r) => Number.isFinite(r.errorPct)).map((r) => ({ ...r, errorPct: roundSig(r.errorPct, 4), validity: r.trusted ? 'within validity' : 'outside validity' }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Relative error against the packet-level simulation',
    data: { values: data },
    facet: { column: { field: 'scenario', type: 'nominal', title: null, header: { labelFontSize: 13, labelFontWeight: 'bold' }, ...(opts.scenarioOrder ? { sort: opts.scenarioOrder } : {}) } },
    spec: {
      width: { step: 14 },
      height: 220,
      layer: [
        {
          mark: { type: 'bar', ...(opts.interactive === false ? {} : { tooltip: true }) },
          encoding: {
            x: { field: 'variant', type: 'nominal', title: null, axis: { labelAngle: 0 }, ...(opts.variantOrder ? { sort: opts.variantOrder } : {}) },
            xOffset: { field: 'metric', type: 'nominal' },
            // Symmetric log: one +800% outlier must not flatten the ±10% differences that matter.
            y: { field: 'errorPct', type: 'quantitative', title: 'error (%), log scale beyond ±10%', scale: { type: 'symlog', constant: 10 }, axis: { values: [-100, -50, -20, -10, 0, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] } },
            color: { field: 'metric', type: 'nominal', title: 'model', scale: { scheme: 'tableau10' } },
            // Faded bars: the model is outside its validity there (the page's caption says so).
            opacity: { condition: { test: "datum.validity === 'within validity'", value: 1 }, value: 0.3 },
            tooltip: [
              { field: 'scenario', type: 'nominal' },
              { field: 'variant', type: 'nominal' },
              { field: 'metric', type: 'nominal', title: 'model' },
              { field: 'errorPct', type: 'quantitative', title: 'error (%)', format: '+.1f' },
              { field: 'validity', type: 'nominal' },
              { field: 'note', type: 'nominal', title: 'why' },
            ],
          },
        },
        { mark: { type: 'rule', color: '#333' }, encoding: { y: { datum: 0 } } },
      ],
    },
  } as TopLevelSpec;
}

export interface GoodputRow {
  scenario: string;
  variant: string;
  source: string;
  goodputBps: number;
}

/** Goodput of each source (packet, fluid, closed form) per variant, one panel per scenario, each with its own scale. */
export function goodputChart(rows: GoodputRow[], opts: BuildOptions = {}): TopLevelSpec {
  const data = rows.filter((r) => Number.isFinite(r.goodputBps)).map((r) => ({ ...r, kbps: roundSig(r.goodputBps / 1e3, 4) }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Goodput by variant',
    data: { values: data },
    facet: { column: { field: 'scenario', type: 'nominal', title: null, header: { labelFontSize: 13, labelFontWeight: 'bold' }, ...(opts.scenarioOrder ? { sort: opts.scenarioOrder } : {}) } },
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: { step: 15 },
      height: 200,
      mark: { type: 'bar', ...(opts.interactive === false ? {} : { tooltip: true }) },
      encoding: {
        x: { field: 'variant', type: 'nominal', title: null, axis: { labelAngle: 0 }, ...(opts.variantOrder ? { sort: opts.variantOrder } : {}) },
        xOffset: { field: 'source', type: 'nominal' },
        y: { field: 'kbps', type: 'quantitative', title: 'goodput (kbit/s)' },
        color: { field: 'source', type: 'nominal', title: 'source', scale: { domain: ['packet', 'fluid', 'closed form'], range: ['#2f6db3', '#e4761b', '#7a7a7a'] } },
        tooltip: [
          { field: 'scenario', type: 'nominal' },
          { field: 'variant', type: 'nominal' },
          { field: 'source', type: 'nominal' },
          { field: 'kbps', type: 'quantitative', title: 'goodput (kbit/s)', format: ',.1f' },
        ],
      },
    },
  } as TopLevelSpec;
}
