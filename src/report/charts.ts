import type { TopLevelSpec } from 'vega-lite';
import type { Series } from '../result/types.js';
import { minMaxDownsample, roundSig } from '../page/downsample.js';

/**
 * Vega-Lite spec builders for cclab reports. Each returns a plain, typed spec with its data inline,
 * so it can be written as `.vl.json` and opened in the Vega editor as is. Interactive specs carry a
 * time-axis zoom (drag to pan, wheel to zoom, double-click to reset) and nearest-point tooltips;
 * pass `{ interactive: false }` for the static SVG fallback, which has no need of hover layers.
 */

/** Engine colours, fixed so that packet and fluid look the same in every chart of a report. */
export const ENGINE_COLORS = { domain: ['packet', 'fluid'], range: ['#2f6db3', '#e4761b'] };
/** Plot width: with axes and legend the figure fits a 1024 px window beside nothing. */
export const CHART_WIDTH = 760;
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

export const timeAxis = { field: 't', type: 'quantitative', title: 'time (s)', scale: { zero: false, nice: false } } as const;

/** Lines of several series over time, one colour each, with zoom and tooltips when interactive. */
export function timeLines(rows: Row[], yTitle: string, height: number, interactive: boolean, showXTitle: boolean, zoom = true, yMax?: number) {
  const yScale = yMax !== undefined && Number.isFinite(yMax) && yMax > 0 ? { scale: { domain: [0, roundSig(yMax, 3)] } } : {};
  const color = { field: 'engine', type: 'nominal', title: 'engine', scale: ENGINE_COLORS, legend: { symbolType: 'stroke', symbolStrokeWidth: 2 } } as const;
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
  /** The 95% interval of a replicated median (packet runs), drawn as an error bar. */
  lowBps?: number;
  highBps?: number;
}

/** Goodput of each source (packet, fluid, closed form) per variant, one panel per scenario, each with its own scale. */
const SOURCE_OFFSET = { field: 'source', type: 'nominal', sort: ['packet', 'fluid', 'closed form'], scale: { domain: ['packet', 'fluid', 'closed form'] } } as const;

export function goodputChart(rows: GoodputRow[], opts: BuildOptions = {}): TopLevelSpec {
  const fin = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? roundSig(x / 1e6, 4) : null);
  const data = rows.filter((r) => Number.isFinite(r.goodputBps)).map((r) => ({ scenario: r.scenario, variant: r.variant, source: r.source, mbps: roundSig(r.goodputBps / 1e6, 4), low: fin(r.lowBps), high: fin(r.highBps) }));
  const x = { field: 'variant', type: 'nominal', title: null, axis: { labelAngle: 0 }, ...(opts.variantOrder ? { sort: opts.variantOrder } : {}) } as const;
  const tooltip = [
    { field: 'scenario', type: 'nominal' },
    { field: 'variant', type: 'nominal' },
    { field: 'source', type: 'nominal' },
    { field: 'mbps', type: 'quantitative', title: 'goodput (Mbit/s)', format: '.3~r' },
    { field: 'low', type: 'quantitative', title: '95% interval from', format: '.3~r' },
    { field: 'high', type: 'quantitative', title: 'to', format: '.3~r' },
  ];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Goodput by variant',
    data: { values: data },
    facet: { column: { field: 'scenario', type: 'nominal', title: null, header: { labelFontSize: 13, labelFontWeight: 'bold' }, ...(opts.scenarioOrder ? { sort: opts.scenarioOrder } : {}) } },
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: { step: 15 },
      height: 200,
      layer: [
        {
          mark: { type: 'bar', ...(opts.interactive === false ? {} : { tooltip: true }) },
          encoding: {
            x,
            xOffset: SOURCE_OFFSET,
            y: { field: 'mbps', type: 'quantitative', title: 'goodput (Mbit/s)' },
            color: { field: 'source', type: 'nominal', title: 'source', scale: { domain: ['packet', 'fluid', 'closed form'], range: ['#2f6db3', '#e4761b', '#7a7a7a'] }, legend: { orient: 'top' } },
            tooltip,
          },
        },
        {
          transform: [{ filter: 'datum.low !== null && datum.high !== null' }],
          mark: { type: 'rule', color: '#111', strokeWidth: 1.2 },
          encoding: { x, xOffset: SOURCE_OFFSET, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, tooltip },
        },
      ],
    },
  } as unknown as TopLevelSpec;
}
