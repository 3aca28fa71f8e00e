import { median } from 'simple-statistics';
import { formatMbps as fmtMbps, formatPct } from '../compare/format.js';
import type { ComparisonCase } from '../compare/run.js';
import { chartId, type ChartRequest } from '../page/chartkit.js';
import { toCsv } from '../page/csv.js';
import { escapeHtml, type Section } from '../page/html.js';
import { VARIANT_FACTS, type Variant } from '../variants.js';
import { agreementRows, DELAY_LIMIT, flowPoints, GOODPUT_LIMIT, hasTransfer, queueTitle, transferPoints, type AgreementRow, type FlowPoint, type TransferPoint } from './aqmData.js';
import { delayChart, transferChart } from './aqmCharts.js';

/**
 * The bufferbloat study's sections (recipe charts `delay` and `transfers`, reports/recipes/aqm.yaml):
 * goodput against mean and 99th-percentile queueing delay per flow, the fluid model against the
 * packet engine on both, and short transfers' completion times beside a bulk flow. Figures from
 * src/report/aqmData.ts, charts from src/report/aqmCharts.ts; CSV beside the page.
 */

type AddChart = (r: ChartRequest) => Promise<string>;

const title = (v: string): string => VARIANT_FACTS[v as Variant]?.title ?? v;
const fmtMs = (s: number | null): string => (s === null ? '–' : (s * 1e3).toPrecision(3));
const fmtPct = (x: number | null): string => formatPct(x, 0);

/** Discipline and variant orders as the recipe lists them. */
function orders(cases: readonly ComparisonCase[]): { queues: string[]; variants: Variant[] } {
  return { queues: [...new Set(cases.map((c) => queueTitle(c.scenario)))], variants: [...new Set(cases.map((c) => c.comparison.variant))] };
}

/** A table with one header row of variant groups over `sub` columns each. */
function groupedTable(cls: string, labels: string[], variants: readonly Variant[], sub: string[], rows: string[], tail: string[] = []): string {
  const top = `<tr>${labels.map(() => '<th></th>').join('')}${variants.map((v) => `<th class="group" colspan="${sub.length}">${escapeHtml(title(v))}</th>`).join('')}${tail.map((t) => `<th class="group">${escapeHtml(t)}</th>`).join('')}</tr>`;
  const second = `<tr>${labels.map((l) => `<th class="label">${escapeHtml(l)}</th>`).join('')}${variants.map(() => sub.map((s, i) => `<th${i === 0 ? ' class="first"' : ''}>${escapeHtml(s)}</th>`).join('')).join('')}${tail.map(() => '<th></th>').join('')}</tr>`;
  return `<div class="table-wrap"><table class="${cls}"><thead>${top}${second}</thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/** Per flow: goodput, mean and p99 delay under each variant. */
function flowTable(points: readonly FlowPoint[], variants: readonly Variant[]): string {
  const keys = [...new Set(points.map((p) => `${p.scenario}|${p.flow}`))];
  const rows = keys.map((k) => {
    const mine = points.filter((p) => `${p.scenario}|${p.flow}` === k);
    const p0 = mine[0]!;
    const cells = variants.map((v) => {
      const p = mine.find((x) => x.variant === v);
      return p ? `<td class="first">${fmtMbps(p.goodputBps)}</td><td>${fmtMs(p.meanDelayS)}</td><td>${fmtMs(p.p99DelayS)}</td>` : '<td class="first">–</td><td>–</td><td>–</td>';
    });
    return `<tr><td class="label">${escapeHtml(p0.queue)}</td><td class="label">${p0.ecn ? 'on' : 'off'}</td><td>${p0.flow}</td>${cells.join('')}</tr>`;
  });
  return groupedTable('aqm-flows', ['queue', 'ECN', 'flow'], variants, ['Mbit/s', 'mean ms', 'p99 ms'], rows);
}

const FLOW_COLUMNS = ['scenario', 'queue', 'ecn', 'variant', 'flow', 'goodput_bps', 'queue_delay_mean_s', 'queue_delay_p99_s'] as const;

async function delaySection(cases: readonly ComparisonCase[], add: AddChart, files: Map<string, string>): Promise<Section | null> {
  const points = flowPoints(cases);
  if (points.length === 0) return null;
  const { queues, variants } = orders(cases.filter((c) => !hasTransfer(c.scenario)));
  files.set('flows.csv', toCsv(points.map((p) => ({ scenario: p.scenario, queue: p.queue, ecn: p.ecn, variant: p.variant, flow: p.flow, goodput_bps: p.goodputBps, queue_delay_mean_s: p.meanDelayS, queue_delay_p99_s: p.p99DelayS })), FLOW_COLUMNS));
  let html =
    '<p>Each bulk flow\'s goodput against the queueing delay its own packets met at the bottleneck (sojourn: arrival at the queue to the start of transmission, over the measured interval), from the packet engine: the mean and the 99th percentile (log bins 2% wide). ' +
    'A large drop-tail buffer buys no goodput with its delay; an AQM holds the delay near its target (CoDel 5 ms, PIE 15 ms) at nearly the same goodput; ECN replaces the drops by marks. Data: <code>flows.csv</code>.</p>';
  html += await add({
    id: chartId('aqm-delay'),
    title: 'Goodput against queueing delay, per flow',
    caption: 'One panel per variant; each flow is a filled point at its mean queueing delay joined to an open point at its 99th percentile (log scale); colour by queue discipline, shape by ECN.',
    spec: delayChart(points, queues, variants),
    staticSpec: delayChart(points, queues, variants, false),
  });
  return { id: 'delay-section', title: 'Goodput against queueing delay, per flow', html: html + flowTable(points, variants) };
}

/** Packet against fluid, per bulk case: mean queue delay and goodput with their errors. */
function agreementTable(rows: readonly AgreementRow[], variants: readonly Variant[]): string {
  const scen = [...new Set(rows.map((r) => r.scenario))];
  const body = scen.map((name) => {
    const mine = rows.filter((r) => r.scenario === name);
    const r0 = mine[0]!;
    const cells = variants.map((v) => {
      const r = mine.find((x) => x.variant === v);
      if (!r) return '<td class="first">–</td><td>–</td><td>–</td>';
      const goodputs = `packet ${fmtMbps(r.packetGoodputBps)}, fluid ${fmtMbps(r.fluidGoodputBps)} Mbit/s`;
      if (r.fluidDelayS === null) {
        return `<td class="first">${fmtMs(r.packetDelayS)} → –</td><td title="${goodputs}">–</td><td class="untrusted" title="${escapeHtml(r.fluidFailure ?? '')}">no fluid</td>`;
      }
      return `<td class="first">${fmtMs(r.packetDelayS)} → ${fmtMs(r.fluidDelayS)} <span class="muted">(${fmtPct(r.delayErr)})</span></td><td title="${goodputs}">${fmtPct(r.goodputErr)}</td><td>${r.within ? '✓' : '✗'}</td>`;
    });
    return `<tr><td class="label">${escapeHtml(r0.queue)}</td><td class="label">${r0.ecn ? 'on' : 'off'}</td>${cells.join('')}</tr>`;
  });
  return groupedTable('aqm-agreement', ['queue', 'ECN'], variants, ['delay ms: packet → fluid', 'goodput', 'within'], body);
}

const AGREEMENT_COLUMNS = ['scenario', 'queue', 'ecn', 'variant', 'packet_delay_s', 'fluid_delay_s', 'delay_err', 'packet_goodput_bps', 'fluid_goodput_bps', 'goodput_err', 'within', 'fluid_failure'] as const;

function agreementSection(cases: readonly ComparisonCase[], files: Map<string, string>): Section | null {
  const rows = agreementRows(cases);
  if (rows.length === 0) return null;
  const { variants } = orders(cases.filter((c) => !hasTransfer(c.scenario)));
  files.set('agreement.csv', toCsv(rows.map((r) => ({ scenario: r.scenario, queue: r.queue, ecn: r.ecn, variant: r.variant, packet_delay_s: r.packetDelayS, fluid_delay_s: r.fluidDelayS, delay_err: r.delayErr, packet_goodput_bps: r.packetGoodputBps, fluid_goodput_bps: r.fluidGoodputBps, goodput_err: r.goodputErr, within: r.within, fluid_failure: r.fluidFailure })), AGREEMENT_COLUMNS));
  const modelled = rows.filter((r) => r.within !== null);
  const ok = modelled.filter((r) => r.within).length;
  const missing = [...new Set(rows.filter((r) => r.within === null).map((r) => r.fluidFailure ?? ''))];
  const html =
    `<p>Where the variant and the queue discipline have a fluid model, its mean queueing delay (per packet the queue admits, the mean of q/C over the measured interval) and its goodput against the packet engine's (the per-packet mean sojourn at the bottleneck): within ${100 * DELAY_LIMIT}% on the delay and ${100 * GOODPUT_LIMIT}% on the goodput (issue 20's limits) in <strong>${ok} of ${modelled.length}</strong> cases with a model. ` +
    'Errors are (fluid − packet) / packet (hover a goodput error for both goodputs). The disciplines\' models and the cases they miss, with why, are in <code>models/README.md</code> ("Queue disciplines"). Data: <code>agreement.csv</code>.</p>' +
    (missing.length > 0 ? `<p class="muted">No fluid figures (“no fluid”, hover for the reason): ${missing.map(escapeHtml).join('; ')}.</p>` : '');
  return { id: 'agreement-section', title: 'Packet against fluid: queueing delay and goodput', html: html + agreementTable(rows, variants) };
}

/** Per discipline: the transfers' median completion time [min, max] under each variant, the bulk flow's goodput, the queue's p99, and why the fluid column is empty. */
function transferTable(points: readonly TransferPoint[], queues: readonly string[], variants: readonly Variant[]): string {
  const rows = queues.map((q) => {
    const mine = points.filter((p) => p.queue === q);
    const cells = variants.map((v) => {
      const p = mine.find((x) => x.variant === v);
      if (!p) return '<td class="first">–</td><td>–</td><td>–</td>';
      if (p.packetFailure !== null) return `<td class="first untrusted" colspan="3" title="${escapeHtml(p.packetFailure)}">packet run failed (hover)</td>`;
      const done = p.transfers.flatMap((t) => (t.completionS === null ? [] : [t.completionS]));
      const unfinished = p.transfers.length - done.length;
      const m = done.length > 0 ? median(done) : null;
      const range = done.length > 1 ? ` <span class="muted">[${Math.min(...done).toFixed(2)}, ${Math.max(...done).toFixed(2)}]</span>` : '';
      const fct = m === null ? 'none finished' : `${m.toFixed(3)}${range}${unfinished > 0 ? ` <span class="untrusted">${unfinished} unfinished</span>` : ''}`;
      return `<td class="first">${fct}</td><td>${fmtMbps(p.bulkGoodputBps)}</td><td>${fmtMs(p.p99DelayS)}</td>`;
    });
    const fluid = mine.find((p) => p.fluidFailure !== null);
    const fluidCell = fluid ? `<td class="label untrusted" title="${escapeHtml(fluid.fluidFailure!)}">refused: finite transfers</td>` : '<td class="label">–</td>';
    return `<tr><td class="label">${escapeHtml(q)}</td>${cells.join('')}${fluidCell}</tr>`;
  });
  return groupedTable('aqm-transfers', ['queue'], variants, ['completion s', 'bulk Mbit/s', 'queue p99 ms'], rows, ['fluid model']);
}

const TRANSFER_COLUMNS = ['scenario', 'queue', 'variant', 'transfer_variant', 'bulk_variant', 'start_s', 'bytes', 'completion_s', 'rtt_s', 'bulk_goodput_bps', 'queue_delay_mean_s', 'queue_delay_p99_s', 'fluid'] as const;

async function transferSection(cases: readonly ComparisonCase[], add: AddChart, files: Map<string, string>): Promise<Section | null> {
  const points = transferPoints(cases);
  if (points.length === 0) return null;
  const { queues, variants } = orders(cases.filter((c) => hasTransfer(c.scenario)));
  files.set('transfers.csv', toCsv(points.flatMap((p) => p.transfers.map((t) => ({ scenario: p.scenario, queue: p.queue, variant: p.variant, transfer_variant: p.transferVariant, bulk_variant: p.bulkVariant, start_s: t.startS, bytes: t.bytes, completion_s: t.completionS, rtt_s: p.rttS, bulk_goodput_bps: p.bulkGoodputBps, queue_delay_mean_s: p.meanDelayS, queue_delay_p99_s: p.p99DelayS, fluid: p.fluidFailure ?? 'ok' }))), TRANSFER_COLUMNS));
  const p0 = points[0]!;
  const sizes = [...new Set(points.flatMap((p) => p.transfers.map((t) => t.bytes)))];
  const bulk = [...new Set(points.map((p) => p.bulkVariant))].map(title).join(', ');
  let html =
    `<p>A short transfer (${sizes.map((b) => `${(b / 1e3).toFixed(0)} kB`).join(', ')}; ${p0.transfers.length} of them, starting at ${p0.transfers.map((t) => t.startS).join(', ')} s, one at a time) beside a saturating ${escapeHtml(bulk)} bulk flow, behind each queue: its completion time, from the application's start to the receiver's in-order delivery of the last byte (packet engine, <code>FlowSummary.transfer</code>); the propagation RTT is ${(p0.rttS * 1e3).toFixed(0)} ms. ` +
    'Behind a large drop-tail buffer the short flow waits behind the bulk flow\'s standing queue in every round of its slow start; an AQM keeps that queue short; FQ-CoDel gives the short flow its own queue, served first while it is new (RFC 8290 new-flows list). ' +
    `The fluid engine refuses finite transfers (its models are of bulk flows), so its column says so. Data: <code>transfers.csv</code>.</p>`;
  html += await add({
    id: chartId('aqm-transfers'),
    title: 'Short-flow completion time beside a bulk flow',
    caption: 'Completion time of each short transfer (points, log scale) and the median per queue and variant (tick); colour by the short flow\'s variant.',
    spec: transferChart(points, queues, variants),
    staticSpec: transferChart(points, queues, variants, false),
  });
  return { id: 'transfers-section', title: 'A short flow beside a bulk flow', html: html + transferTable(points, queues, variants) };
}

/** The bufferbloat sections a recipe asks for (`delay`: goodput against delay and packet against fluid; `transfers`: short flows), those with data. */
export async function aqmSections(cases: readonly ComparisonCase[], kinds: readonly string[], add: AddChart, files: Map<string, string>): Promise<Section[]> {
  const out: (Section | null)[] = [];
  if (kinds.includes('delay')) out.push(await delaySection(cases, add, files), agreementSection(cases, files));
  if (kinds.includes('transfers')) out.push(await transferSection(cases, add, files));
  return out.filter((s): s is Section => s !== null);
}

/** CSV files the sections may write (for the rerun list). */
export const AQM_FILES = ['flows.csv', 'agreement.csv', 'transfers.csv'] as const;
