import type { TopLevelSpec } from 'vega-lite';
import type { ComparisonCase } from '../compare/run.js';
import { chartId, type ChartRequest } from '../page/chartkit.js';
import { toCsv } from '../page/csv.js';
import { roundSig } from '../page/downsample.js';
import { escapeHtml, type Section } from '../page/html.js';
import { VARIANT_FACTS } from '../variants.js';
import { bufferPoints, sharePoints, type BufferPoint, type SharePoint } from './bufferSweep.js';
import { CHART_WIDTH } from './charts.js';
import type { ReplicatedFigures } from './replicates.js';

/**
 * The report's buffer sections (recipe charts `buffers` and `shares`): one flow's goodput, queue
 * delay and loss across buffer sizes, and a variant's share of the link against loss-based flows
 * across buffer sizes, each from the packet engine, the fluid model and the closed forms on one
 * chart (src/report/bufferSweep.ts computes the points; this file draws them and writes their CSV).
 */

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
type AddChart = (r: ChartRequest) => Promise<string>;

/** Readable names of the sources, in legend order. */
const SOURCE_TITLES: Readonly<Record<string, string>> = {
  packet: 'packet engine',
  fluid: 'fluid model',
  'bbr-steady': 'BBRv1 steady state',
  'ware-extended': 'Ware et al., extended',
  'ware-simple': 'Ware et al., simple (1/2)',
  'fair share': 'fair share',
};
const SOURCE_COLORS = { domain: Object.values(SOURCE_TITLES), range: ['#2f6db3', '#e4761b', '#2a9d4b', '#c0392b', '#8e44ad', '#999999'] };
const sourceTitle = (s: string): string => SOURCE_TITLES[s] ?? s;
const lineTitle = (line: string): string => line.replace(/ #\w+$/, '');

/** The buffer axis: log scale, in BDPs. */
const X = { field: 'x', type: 'quantitative', title: 'bottleneck buffer (BDP)', scale: { type: 'log' } } as const;

/** Lines with points per source x variant; faded points where a model is outside its assumptions. */
function lineLayers(y: Record<string, unknown>, interactive: boolean, tooltip: unknown[]) {
  const color = { field: 'source', type: 'nominal', title: 'source', scale: SOURCE_COLORS };
  const dash = { field: 'variant', type: 'nominal', title: 'variant' };
  return [
    { mark: { type: 'line', strokeWidth: 1.5 }, encoding: { x: X, y, color, strokeDash: dash, detail: { field: 'variant' } } },
    {
      mark: { type: 'point', filled: true, size: 40 },
      encoding: {
        x: X, y, color, shape: dash,
        opacity: { condition: { test: 'datum.valid', value: 1 }, value: 0.3 },
        ...(interactive ? { tooltip } : {}),
      },
    },
  ];
}

/** One flow's goodput, queue delay and loss across buffers: three rows of one chart. */
export function bufferChart(points: readonly BufferPoint[], interactive = true): TopLevelSpec {
  const rows = points.flatMap((p) =>
    (
      [
        ['goodput (Mbit/s)', p.goodputBps === null ? null : p.goodputBps / 1e6],
        ['mean queue delay (ms)', p.queueDelayS === null ? null : p.queueDelayS * 1e3],
        ['loss rate (%)', p.lossRate === null ? null : 100 * p.lossRate],
      ] as const
    ).flatMap(([metric, v]) => (v === null || !Number.isFinite(v) ? [] : [{ metric, x: roundSig(p.bufferBdp, 4), v: roundSig(v, 4), source: sourceTitle(p.source), variant: p.variant, valid: p.valid }])),
  );
  const tooltip = [{ field: 'variant' }, { field: 'source' }, { field: 'x', title: 'buffer (BDP)', format: '.3g' }, { field: 'v', title: 'value', format: '.4g' }];
  return {
    $schema: SCHEMA,
    data: { values: rows },
    facet: { row: { field: 'metric', type: 'nominal', title: null, sort: ['goodput (Mbit/s)', 'mean queue delay (ms)', 'loss rate (%)'] } },
    spec: { width: CHART_WIDTH - 200, height: 150, layer: lineLayers({ field: 'v', type: 'quantitative', title: null }, interactive, tooltip) },
    resolve: { scale: { y: 'independent' } },
  } as TopLevelSpec;
}

/** The variant's share against loss-based flows across buffers: one panel per mix, the fair share as a grey line. */
export function shareChart(points: readonly SharePoint[], interactive = true): TopLevelSpec {
  const rows = points.map((p) => ({
    mix: p.mix, x: roundSig(p.bufferBdp, 4), v: roundSig(p.share, 4), source: sourceTitle(p.source), variant: p.variant, valid: p.valid,
    ...(p.low !== undefined && p.high !== undefined ? { low: roundSig(p.low, 4), high: roundSig(p.high, 4) } : {}),
  }));
  // The fair share (1 / flows) for each mix, over the mix's buffers.
  const fair = [...new Map(points.map((p) => [`${p.mix}|${p.bufferBdp}`, p])).values()].map((p) => ({ mix: p.mix, x: roundSig(p.bufferBdp, 4), v: roundSig(1 / (p.competitors + 1), 4), source: sourceTitle('fair share'), variant: '–', valid: true }));
  const tooltip = [{ field: 'variant' }, { field: 'source' }, { field: 'x', title: 'buffer (BDP)', format: '.3g' }, { field: 'v', title: 'share', format: '.1%' }, { field: 'low', format: '.1%' }, { field: 'high', format: '.1%' }];
  const y = { field: 'v', type: 'quantitative', title: 'share of the goodput', axis: { format: '%' }, scale: { domain: [0, 1] } };
  const mixes = [...new Set(points.map((p) => p.mix))];
  return {
    $schema: SCHEMA,
    data: { values: [...rows, ...fair] },
    facet: { field: 'mix', type: 'nominal', title: null, sort: mixes },
    columns: Math.min(3, mixes.length),
    spec: {
      width: Math.floor((CHART_WIDTH - 120) / Math.min(3, mixes.length)),
      height: 170,
      layer: [
        { transform: [{ filter: "datum.source === 'fair share'" }], mark: { type: 'line', color: '#999999', strokeDash: [2, 2] }, encoding: { x: X, y } },
        { transform: [{ filter: 'isValid(datum.low)' }], mark: { type: 'rule', strokeWidth: 1 }, encoding: { x: X, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, color: { field: 'source', type: 'nominal', title: 'source', scale: SOURCE_COLORS } } },
        { transform: [{ filter: "datum.source !== 'fair share'" }], layer: lineLayers(y, interactive, tooltip) },
      ],
    },
  } as TopLevelSpec;
}

const pct = (x: number | null | undefined): string => (x === null || x === undefined || !Number.isFinite(x) ? '–' : `${(100 * x).toFixed(1)}%`);

/** Shares as a table: one row per mix x buffer, one column per variant x source. */
function shareTable(points: readonly SharePoint[]): string {
  const cols = [...new Set(points.map((p) => `${p.variant}|${p.source}`))];
  const rows = new Map<string, Map<string, SharePoint>>();
  for (const p of points) {
    const k = `${p.mix}|${p.bufferBdp}`;
    if (!rows.has(k)) rows.set(k, new Map());
    rows.get(k)!.set(`${p.variant}|${p.source}`, p);
  }
  const head = `<tr><th class="label">competitors</th><th>buffer (BDP)</th>${cols.map((c) => { const [v, s] = c.split('|'); return `<th>${escapeHtml(VARIANT_FACTS[v as keyof typeof VARIANT_FACTS]?.title ?? v!)}: ${escapeHtml(sourceTitle(s!))}</th>`; }).join('')}</tr>`;
  const body = [...rows.entries()].map(([k, m]) => {
    const [mix, x] = k.split('|');
    const cells = cols.map((c) => {
      const p = m.get(c);
      if (!p) return '<td>–</td>';
      const iv = p.low !== undefined && p.high !== undefined ? ` <span class="muted">[${pct(p.low)}, ${pct(p.high)}]</span>` : '';
      return `<td${p.valid ? '' : ' class="untrusted" title="outside the model\'s assumptions"'}>${pct(p.share)}${iv}</td>`;
    });
    return `<tr><td class="label">${escapeHtml(mix!)}</td><td>${roundSig(Number(x), 3)}</td>${cells.join('')}</tr>`;
  });
  return `<div class="table-wrap"><table class="shares"><thead>${head}</thead><tbody>${body.join('')}</tbody></table></div>`;
}

const BUFFER_COLUMNS = ['line', 'variant', 'buffer_bdp', 'source', 'goodput_bps', 'goodput_low_bps', 'goodput_high_bps', 'queue_delay_s', 'loss_rate', 'valid'] as const;
const SHARE_COLUMNS = ['line', 'variant', 'mix', 'against', 'competitors', 'buffer_bdp', 'source', 'share', 'share_low', 'share_high', 'valid'] as const;

/**
 * The "buffers" and "shares" sections of a report (null each when its recipe did not ask for it or
 * no line runs across two buffer sizes), their CSV files set in `files`.
 */
export async function bufferSections(
  cases: readonly ComparisonCase[],
  figures: ReadonlyMap<string, ReplicatedFigures>,
  kinds: readonly string[],
  add: AddChart,
  files: Map<string, string>,
): Promise<Section[]> {
  const out: Section[] = [];
  const reps = Math.max(1, ...[...figures.values()].map((f) => f.runs.length));
  const runsText = reps > 1 ? `median of ${reps} packet runs per point (bars: 95% interval of the median)` : 'one packet run per point';
  if (kinds.includes('buffers')) {
    const pts = bufferPoints(cases, figures);
    if (pts.length > 0) {
      files.set('buffers.csv', toCsv(pts.map((p) => ({ line: lineTitle(p.line), variant: p.variant, buffer_bdp: p.bufferBdp, source: p.source, goodput_bps: p.goodputBps, goodput_low_bps: p.low, goodput_high_bps: p.high, queue_delay_s: p.queueDelayS, loss_rate: p.lossRate, valid: p.valid })), BUFFER_COLUMNS));
      let html = `<p>One flow alone on ${escapeHtml([...new Set(pts.map((p) => lineTitle(p.line)))].join('; '))}, the bottleneck's drop-tail buffer from ${roundSig(Math.min(...pts.map((p) => p.bufferBdp)), 2)} to ${roundSig(Math.max(...pts.map((p) => p.bufferBdp)), 2)} BDP: goodput, mean queueing delay and loss rate over the measured interval, from the packet engine (${runsText}; queue delay of the charted run), the fluid model where the variant has one, and the closed form where one gives these figures (BBRv1's steady state from its gain cycle, src/theory/bbr.ts). Faded points are outside the model's assumptions. Data: <code>buffers.csv</code>.</p>`;
      const missing = [...new Set(pts.filter((p) => p.source === 'packet').map((p) => p.variant))].filter((v) => !pts.some((p) => p.variant === v && p.source === 'fluid'));
      if (missing.length > 0) html += `<p class="muted">No fluid model of ${missing.map(escapeHtml).join(', ')} yet: its fluid line fills in once the model file exists.</p>`;
      html += await add({ id: chartId('buffers'), title: 'One flow across buffer sizes', caption: `Goodput, mean queueing delay and loss rate against the buffer (log scale); line style by variant, colour by source (${runsText}).`, spec: bufferChart(pts), staticSpec: bufferChart(pts, false) });
      out.push({ id: 'buffers-section', title: 'One flow across buffer sizes', html });
    }
  }
  if (kinds.includes('shares')) {
    const pts = sharePoints(cases, figures);
    if (pts.length > 0) {
      files.set('shares.csv', toCsv(pts.map((p) => ({ line: lineTitle(p.line), variant: p.variant, mix: p.mix, against: p.against, competitors: p.competitors, buffer_bdp: p.bufferBdp, source: p.source, share: p.share, share_low: p.low, share_high: p.high, valid: p.valid })), SHARE_COLUMNS));
      let html = `<p>The variant's share of the goodput against loss-based flows sharing the bottleneck, buffer from ${roundSig(Math.min(...pts.map((p) => p.bufferBdp)), 2)} to ${roundSig(Math.max(...pts.map((p) => p.bufferBdp)), 2)} BDP: the packet engine (${runsText}), the fluid model where every flow's variant has one, and the closed forms that give a share: for BBRv1, Ware et al. (IMC 2019), simple (1/2 whatever the number of loss-based flows) and extended ((1 − p)(1 − (q/c + 0.2 s + l)/10 s), p = max(0, 1/2 − 1/(2X) − 4N/q)); faded points are outside their assumptions (a buffer under about a BDP, where BBR is not cap-limited; the simple form while 1/(2X) + 4N/q > 0.1). BBRv3 has no published closed form. The grey dashed line is the fair share. Data: <code>shares.csv</code>.</p>`;
      html += await add({ id: chartId('shares'), title: 'Share of the link against loss-based flows', caption: `Share of the goodput of the variant's flows against the buffer (log scale), one panel per mix of competitors; line style by variant, colour by source (${runsText}).`, spec: shareChart(pts), staticSpec: shareChart(pts, false) });
      html += shareTable(pts);
      out.push({ id: 'shares-section', title: 'Share of the link against loss-based flows', html });
    }
  }
  return out;
}
