import { escapeHtml } from '../report/html.js';
import { formatRate } from '../units.js';
import type { ElasticitySummary } from './analysis.js';
import { LOSS_LIMITED_FRACTION } from './analysis.js';
import type { RunRecord } from './execute.js';
import { repsFor, type SweepPlan } from './grid.js';
import { propagationRttS } from '../scenario/path.js';

/** HTML text blocks of the sweep report (tables and explanations). */

const fmt = (x: number | null, digits = 3) => (x === null || !Number.isFinite(x) ? '–' : x.toFixed(digits));

function axisValues(values: readonly unknown[]): string {
  const txt = values.map((v) => (typeof v === 'number' ? String(Number(v.toPrecision(4))) : String(v)));
  return txt.length > 8 ? `${txt.slice(0, 3).join(', ')}, …, ${txt.slice(-2).join(', ')} (${txt.length} values)` : txt.join(', ');
}

export function setupHtml(plan: SweepPlan, records: readonly RunRecord[]): string {
  const b = plan.base;
  const axes = plan.axes
    .map((a) => `<tr><td class="label"><code>${escapeHtml(a.flag)}</code></td><td class="label">${escapeHtml(a.label)}</td><td class="label">${escapeHtml(axisValues(a.values))}</td></tr>`)
    .join('');
  const reps = plan.engines.map((e) => `${e}: ${repsFor(e, plan.reps)}`).join(', ');
  const failed = records.filter((r) => r.result.status === 'failed').length;
  return `<div class="table-wrap"><table><thead><tr><th class="label">flag</th><th class="label">axis</th><th class="label">values</th></tr></thead><tbody>${axes || '<tr><td class="label" colspan="3">no swept axis</td></tr>'}</tbody></table></div>
<dl class="params">
<dt>variants</dt><dd>${escapeHtml(plan.variants.join(', '))}</dd>
<dt>engines</dt><dd>${escapeHtml(plan.engines.join(', '))}</dd>
<dt>replications</dt><dd>${escapeHtml(reps)} (seeds derived from sweep seed ${plan.seed})</dd>
<dt>base scenario</dt><dd>${escapeHtml(b.name)}: bottleneck ${escapeHtml(formatRate(b.bottleneck.bandwidthBps))}, base RTT ${fmt(propagationRttS(b) * 1000, 1)} ms, loss ${b.bottleneck.loss.rate}, queue ${b.bottleneck.queue.limitPackets} packets, ${b.flows.length} flow(s), ${b.durationS} s simulated, MSS ${b.mssBytes} B</dd>
<dt>runs</dt><dd>${records.length}${failed ? `, <strong>${failed} failed</strong> (see below; excluded from statistics)` : ''}</dd>
</dl>`;
}

/** Elasticities per variant and engine against theory. */
export function elasticityTable(rows: readonly ElasticitySummary[]): string {
  if (rows.length === 0) return '<p class="muted">Nothing to fit.</p>';
  const key = (r: ElasticitySummary) => `${r.variant}\0${r.engine}\0${r.slice}`;
  const groups = new Map<string, { loss?: ElasticitySummary; rtt?: ElasticitySummary }>();
  for (const r of rows) groups.set(key(r), { ...groups.get(key(r)), [r.wrt]: r });
  const cell = (e?: ElasticitySummary) => {
    if (!e) return '<td class="first">–</td><td>–</td><td>–</td>';
    const off = e.median !== null && Math.abs(e.median - e.theory) > 0.15 ? ' style="color:var(--warn)"' : '';
    const range = e.min !== null && e.lines > 1 ? ` <span class="muted">[${fmt(e.min, 2)}, ${fmt(e.max, 2)}]</span>` : '';
    return `<td class="first"${off}>${fmt(e.median)}${range}</td><td>${fmt(e.theory, 2)}</td><td>${e.lines}</td>`;
  };
  const body = [...groups.values()].map((g) => {
    const r = (g.loss ?? g.rtt)!;
    return `<tr><td class="label">${escapeHtml(r.variant)}</td><td class="label">${escapeHtml(r.engine)}</td>${r.slice ? `<td class="label">${escapeHtml(r.slice)}</td>` : ''}${cell(g.loss)}${cell(g.rtt)}<td class="label muted">${escapeHtml(r.theorySource)}</td></tr>`;
  });
  const hasSlice = rows.some((r) => r.slice !== '');
  return `<p>Elasticities of goodput: <em>d ln G / d ln p</em> fitted along each RTT line of the grid and <em>d ln G / d ln RTT</em> along each loss line
(least squares on logs, points with goodput below ${LOSS_LIMITED_FRACTION * 100}% of capacity only, for CUBIC only points in its cubic region by the response function,
lines with at least 3 such points); the table gives the median over lines and their range.
Values more than 0.15 from theory are highlighted.</p>
<div class="table-wrap"><table><thead><tr><th class="label" rowspan="2">variant</th><th class="label" rowspan="2">engine</th>${hasSlice ? '<th class="label" rowspan="2">slice</th>' : ''}
<th class="group" colspan="3">d ln G / d ln p</th><th class="group" colspan="3">d ln G / d ln RTT</th><th class="label" rowspan="2">theory</th></tr>
<tr><th class="first">fitted</th><th>theory</th><th>lines</th><th class="first">fitted</th><th>theory</th><th>lines</th></tr></thead>
<tbody>${body.join('')}</tbody></table></div>`;
}

export function methodHtml(): string {
  return `<ul>
<li><strong>RTT.</strong> <code>--rtt</code> sets flow 0's base round-trip propagation delay, 2 × (access + bottleneck + receiver access one-way delays), by scaling every link delay by one factor: each link keeps its share of the path delay and other flows keep their RTT ratio to flow 0. Queueing delay comes on top.</li>
<li><strong>Replications.</strong> Each replication's seed is derived from the sweep seed and the grid point (sha256), the same for every variant and engine at that point (common random numbers). The fluid models are deterministic and run once per point.</li>
<li><strong>Intervals.</strong> mean ± t<sub>0.975, n−1</sub> · sd / √n (Student t, jstat); failed runs are excluded and counted in points.csv.</li>
<li><strong>Cache.</strong> Each run is stored under the sha256 of its canonical scenario, engine, seed and engine code version; re-running or extending a sweep reuses finished runs.</li>
</ul>`;
}

export function failuresHtml(records: readonly RunRecord[]): string {
  const failed = records.filter((r) => r.result.status === 'failed');
  if (failed.length === 0) return '';
  const items = failed.slice(0, 50).map((r) => `<li><code>${escapeHtml(r.spec.runId)}</code>: ${escapeHtml(r.result.failure ?? 'failed')}</li>`);
  return `<ul>${items.join('')}</ul>${failed.length > 50 ? `<p class="muted">and ${failed.length - 50} more (runs.csv, column failure).</p>` : ''}`;
}
