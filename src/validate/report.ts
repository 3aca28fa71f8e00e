import type { TopLevelSpec } from 'vega-lite';
import { buildChart } from '../page/chartkit.js';
import { toCsv } from '../page/csv.js';
import { chartFigure, escapeHtml, renderPage, type Section } from '../page/html.js';
import { VARIANT_FACTS } from '../variants.js';
import type { ValidateGrid } from './grid.js';
import { SEED_RESAMPLES, type PointRow, type VariantSummary } from './analyse.js';

/** The agreement table, the per-point CSV and the report page of `cclab validate`. */

const pct = (x: number | null): string => (x === null || !Number.isFinite(x) ? 'n/a' : `${(100 * x).toFixed(1)}%`);
const signedPct = (x: number | null): string => (x === null || !Number.isFinite(x) ? 'n/a' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`);

export const POINT_COLUMNS = [
  'variant', 'loss', 'rttS', 'durationS', 'measureFromS', 'seeds', 'packetFailed', 'packetGoodputBps', 'packetCwndSegments', 'packetLossEvents', 'packetTimeouts',
  'fluidStatus', 'fluidGoodputBps', 'fluidCwndSegments', 'fluidGoodputErr', 'fluidCwndErr', 'fluidInside', 'fluidReasons',
  'closedForm', 'closedGoodputBps', 'closedCwndSegments', 'closedGoodputErr', 'closedCwndErr', 'closedInside', 'closedReasons', 'packetWallS', 'fluidWallS',
] as const satisfies readonly (keyof PointRow)[];

export const SUMMARY_COLUMNS = [
  'variant', 'model', 'points', 'inside', 'insideShare', 'medianAbsGoodputErr', 'p90AbsGoodputErr', 'medianAbsCwndErr', 'p90AbsCwndErr',
  'medianAbsGoodputErrLo', 'medianAbsGoodputErrHi', 'p90AbsGoodputErrLo', 'p90AbsGoodputErrHi',
] as const;

/** A figure with the 5-95% range it takes over resampled packet seeds: "9.8% (6.1-14.0)". */
const withRange = (x: number | null, r: [number, number] | null): string => (r === null ? pct(x) : `${pct(x)} (${(100 * r[0]).toFixed(1)}-${(100 * r[1]).toFixed(1)})`);

/** The agreement table as plain text (what `cclab validate` prints). */
export function summaryText(summary: readonly VariantSummary[]): string {
  const head = ['variant', 'model', 'inside', 'goodput |err| median (seed range)', 'p90 (seed range)', 'cwnd |err| median', 'p90'];
  const rows = summary.map((s) => [
    s.variant, s.model, `${s.inside}/${s.points} (${pct(s.insideShare)})`,
    withRange(s.medianAbsGoodputErr, s.medianAbsGoodputErrRange), withRange(s.p90AbsGoodputErr, s.p90AbsGoodputErrRange), pct(s.medianAbsCwndErr), pct(s.p90AbsCwndErr),
  ]);
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(width[i]!)).join('  ').trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

/** Points outside a model's validity region, one line each with the reason. */
export function flaggedText(rows: readonly PointRow[]): string {
  const out: string[] = [];
  for (const r of rows) {
    const at = `${r.variant} p=${r.loss} rtt=${r.rttS * 1000}ms`;
    const fl = r.fluidReasons.split('; ').filter((x) => x !== '' && !x.startsWith('~'));
    if (!r.fluidInside) out.push(`fluid       ${at}: ${fl.join('; ')}`);
    if (!r.closedInside) out.push(`closed-form ${at} (${r.closedForm || 'none'}): ${r.closedReasons}`);
  }
  return out.join('\n');
}

export function pointsCsv(rows: readonly PointRow[]): string {
  return toCsv(rows as unknown as Record<string, string | number | boolean | null>[], [...POINT_COLUMNS]);
}

export function summaryCsv(summary: readonly VariantSummary[]): string {
  const flat = summary.map((s) => {
    const { medianAbsGoodputErrRange: m, p90AbsGoodputErrRange: p, ...rest } = s;
    return { ...rest, medianAbsGoodputErrLo: m?.[0] ?? null, medianAbsGoodputErrHi: m?.[1] ?? null, p90AbsGoodputErrLo: p?.[0] ?? null, p90AbsGoodputErrHi: p?.[1] ?? null };
  });
  return toCsv(flat as unknown as Record<string, string | number | boolean | null>[], [...SUMMARY_COLUMNS]);
}

/** Relative error of each model against the packet median, by loss rate, one panel per variant and RTT. */
function errorChart(rows: readonly PointRow[]): TopLevelSpec {
  const values = rows.flatMap((r) => [
    { variant: VARIANT_FACTS[r.variant].title, loss: r.loss, rttMs: r.rttS * 1000, model: 'fluid', err: r.fluidGoodputErr, inside: r.fluidInside ? 'inside' : 'outside' },
    { variant: VARIANT_FACTS[r.variant].title, loss: r.loss, rttMs: r.rttS * 1000, model: 'closed form', err: r.closedGoodputErr, inside: r.closedInside ? 'inside' : 'outside' },
  ]).filter((v) => v.err !== null && Number.isFinite(v.err)).map((v) => ({ ...v, errPct: Math.max(-100, Math.min(200, 100 * v.err!)) }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: { row: { field: 'variant', type: 'nominal', title: null }, column: { field: 'rttMs', type: 'ordinal', title: 'base RTT (ms)' } },
    spec: {
      width: 140,
      height: 90,
      layer: [
        { mark: { type: 'rule', color: '#999' }, encoding: { y: { datum: 0 } } },
        {
          mark: { type: 'point', filled: true },
          encoding: {
            x: { field: 'loss', type: 'quantitative', scale: { type: 'log' }, title: 'loss p' },
            y: { field: 'errPct', type: 'quantitative', title: 'goodput error (%)' },
            color: { field: 'model', type: 'nominal' },
            opacity: { field: 'inside', type: 'ordinal', scale: { domain: ['inside', 'outside'], range: [1, 0.3] }, title: 'validity' },
            tooltip: [{ field: 'model' }, { field: 'loss' }, { field: 'rttMs' }, { field: 'errPct', format: '.1f' }, { field: 'inside' }],
          },
        },
      ],
    },
  } as TopLevelSpec;
}

function tableHtml(head: string[], rows: string[][]): string {
  return `<table><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** The report page (index.html) and the files beside it. */
export async function validateReport(grid: ValidateGrid, rows: readonly PointRow[], summary: readonly VariantSummary[], modelsDir: string | undefined): Promise<{ html: string; files: { path: string; text: string }[] }> {
  const chart = await buildChart({
    id: 'errors',
    title: 'Goodput error against the packet engine',
    caption: 'Relative error of the fluid model and of the primary closed form against the median packet run; faded: outside the model\'s validity region. Clamped to [-100%, +200%].',
    spec: errorChart(rows),
  });
  const sections: Section[] = [
    {
      id: 'setup',
      title: 'Grid',
      html: `<p>${grid.variants.length} variants x loss {${grid.losses.join(', ')}} x base RTT {${grid.rttsS.map((r) => `${r * 1000} ms`).join(', ')}} on a ${grid.bandwidthBps / 1e6} Mbit/s bottleneck (access links ${10}x faster, drop-tail buffer of one BDP, receive window that never limits), ${grid.seeds} packet seeds per point (derived from seed ${grid.seed}), the fluid model once where it is deterministic, and once per packet seed with Poisson loss events where it has discrete loss events (hybrid models: the median is compared). Each run lasts long enough for ${grid.minLossEvents} loss events after its first slow start; both engines are measured from the same time after it. Models: ${escapeHtml(modelsDir ?? 'models/ (built in)')}.</p>`,
    },
    {
      id: 'agreement',
      title: 'Agreement per variant',
      html: `<p>Median and 90th percentile of |model - packet| / packet over the points inside each model's validity region; "inside" is the share of the grid in it. In brackets, the 5-95% range of the goodput figures when each point's packet seeds are drawn again with replacement (${SEED_RESAMPLES} times): how much of the figure is the packet seeds' sampling.</p>${tableHtml(
        ['variant', 'model', 'inside', 'goodput |err| median', 'goodput p90', 'cwnd |err| median', 'cwnd p90'],
        summary.map((s) => [VARIANT_FACTS[s.variant].title, s.model, `${s.inside}/${s.points} (${pct(s.insideShare)})`, withRange(s.medianAbsGoodputErr, s.medianAbsGoodputErrRange), withRange(s.p90AbsGoodputErr, s.p90AbsGoodputErrRange), pct(s.medianAbsCwndErr), pct(s.p90AbsCwndErr)]),
      )}`,
    },
    { id: 'errors', title: 'Errors over the grid', html: chartFigure(chart.page) },
    {
      id: 'points',
      title: 'Every point',
      html: `<p>Also in points.csv. Reasons after "~" are warnings (the point stays inside). "bimodal": the point's packet runs split into two modes (runs/agreement.ts, as the report detects them: a two-means split whose groups are further apart than either is wide, medians more than 20% apart), so its median lies between them.</p>${tableHtml(
        ['variant', 'loss', 'RTT', 'packet goodput', 'fluid', 'closed form', 'packet cwnd', 'fluid', 'closed form', 'fluid validity', 'closed-form validity'],
        rows.map((r) => [
          VARIANT_FACTS[r.variant].title, String(r.loss), `${r.rttS * 1000} ms`, `${(r.packetGoodputBps / 1e6).toPrecision(4)} Mbit/s${r.packetBimodal ? ' (bimodal)' : ''}`, signedPct(r.fluidGoodputErr), `${signedPct(r.closedGoodputErr)} (${r.closedForm})`,
          r.packetCwndSegments.toFixed(1), signedPct(r.fluidCwndErr), signedPct(r.closedCwndErr), r.fluidInside ? (r.fluidReasons ? `inside (${r.fluidReasons})` : 'inside') : r.fluidReasons, r.closedInside ? 'inside' : r.closedReasons,
        ]),
      )}`,
    },
  ];
  const html = renderPage({ title: 'cclab validate: fluid models and closed forms against the packet engine', sections, charts: [chart.page] });
  return { html, files: [chart.specFile, { path: 'points.csv', text: pointsCsv(rows) }, { path: 'summary.csv', text: summaryCsv(summary) }] };
}
