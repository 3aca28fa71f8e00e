import { escapeHtml } from '../page/html.js';
import { formatRate } from '../units.js';
import type { ElasticitySummary, ReportRow, WinnerRow } from './analysis.js';
import { LOSS_LIMITED_FRACTION } from './analysis.js';
import type { RunRecord } from '../runs/execute.js';
import type { SweepPlan } from './grid.js';
import { repsFor } from '../runs/spec.js';
import { flowPath, propagationRttS } from '../scenario/path.js';
import { VALIDITY } from '../compare/validity.js';

/** HTML text blocks of the sweep report (tables and explanations). */

const fmt = (x: number | null, digits = 3) => (x === null || !Number.isFinite(x) ? '–' : x.toFixed(digits));

/** An axis's values as a reader writes them: RTTs in ms, numbers to 4 significant digits. */
function axisValues(values: readonly unknown[], name = ''): string {
  const num = (v: number) => (name === 'rttS' ? `${Number((v * 1000).toPrecision(4))} ms` : String(Number(v.toPrecision(4))));
  const txt = values.map((v) => (typeof v === 'number' ? num(v) : String(v)));
  return txt.length > 8 ? `${txt.slice(0, 3).join(', ')}, …, ${txt.slice(-2).join(', ')} (${txt.length} values)` : txt.join(', ');
}

const ROLE_NAMES = { access: "sender's access link", bottleneck: 'bottleneck', receiverAccess: "receiver's access link" } as const;

/** Every link of flow 0's path in the base scenario with its rate and one-way delay; the slowest (binding) one marked. */
function linksText(plan: SweepPlan): string {
  const path = flowPath(plan.base, 0);
  const swept = plan.axes.some((a) => a.name === 'rttS') ? ' (before --rtt scales the delays)' : '';
  return path.links
    .map((l, i) => `${escapeHtml(ROLE_NAMES[l.role])} ${escapeHtml(formatRate(l.bandwidthBps))}, ${Number((l.delayS * 1000).toPrecision(3))} ms${i === path.tightestIndex ? ' <strong>(binding: the slowest link)</strong>' : ''}`)
    .join('; ') + swept;
}

export function setupHtml(plan: SweepPlan, records: readonly RunRecord[]): string {
  const b = plan.base;
  const axes = plan.axes
    .map((a) => `<tr><td class="label"><code>${escapeHtml(a.flag)}</code></td><td class="label">${escapeHtml(a.name === 'rttS' ? a.label.replace(/ \(s\)$/, ' (ms)') : a.label)}</td><td class="label">${escapeHtml(axisValues(a.values, a.name))}</td></tr>`)
    .join('');
  const reps = plan.engines.map((e) => `${e}: ${repsFor(e, plan.reps)}`).join(', ');
  const failed = records.filter((r) => r.result.status === 'failed').length;
  return `<div class="table-wrap"><table><thead><tr><th class="label">flag</th><th class="label">axis</th><th class="label">values</th></tr></thead><tbody>${axes || '<tr><td class="label" colspan="3">no swept axis</td></tr>'}</tbody></table></div>
<dl class="params">
<dt>variants</dt><dd>${escapeHtml(plan.variants.join(', '))}</dd>
<dt>engines</dt><dd>${escapeHtml(plan.engines.join(', '))}</dd>
<dt>replications</dt><dd>${escapeHtml(reps)} (seeds derived from sweep seed ${plan.seed})</dd>
<dt>base scenario</dt><dd>${escapeHtml(b.name)}: base RTT ${Number((propagationRttS(b) * 1000).toPrecision(3))} ms, loss ${b.bottleneck.loss.rate}, queue ${b.bottleneck.queue.limitPackets} packets, ${b.flows.length} flow(s), ${b.durationS} s simulated, MSS ${b.mssBytes} B</dd>
<dt>links (flow 0)</dt><dd>${linksText(plan)}</dd>
<dt>runs</dt><dd>${records.length}${failed ? `, <strong>${failed} failed</strong> (see below; excluded from statistics)` : ''}</dd>
</dl>`;
}

/** Why a fit has no value: no line of the grid had 3 points in the region the theory describes. */
function emptyReason(e: ElasticitySummary): string {
  const region = e.variant === 'cubic' ? "CUBIC's cubic region (by the response function) below" : 'the loss-limited region, goodput below';
  return `no ${e.wrt === 'loss' ? 'RTT' : 'loss'} line has 3 points in ${region} ${LOSS_LIMITED_FRACTION * 100}% of capacity`;
}

/** Elasticities per variant and engine against theory. */
export function elasticityTable(rows: readonly ElasticitySummary[]): string {
  if (rows.length === 0) return '<p class="muted">Nothing to fit.</p>';
  const key = (r: ElasticitySummary) => `${r.variant}\0${r.engine}\0${r.slice}`;
  const groups = new Map<string, { loss?: ElasticitySummary; rtt?: ElasticitySummary }>();
  for (const r of rows) groups.set(key(r), { ...groups.get(key(r)), [r.wrt]: r });
  const cell = (e?: ElasticitySummary) => {
    if (!e) return '<td class="first" title="axis not swept">– <span class="muted">(axis not swept)</span></td><td>–</td><td>–</td>';
    const off = e.median !== null && Math.abs(e.median - e.theory) > 0.15 ? ' style="color:var(--warn)"' : '';
    const range = e.min !== null && e.lines > 1 ? ` <span class="muted">[${fmt(e.min, 2)}, ${fmt(e.max, 2)}]</span>` : '';
    const why = e.median === null ? ` <span class="muted">(${escapeHtml(emptyReason(e))})</span>` : '';
    return `<td class="first"${off}>${fmt(e.median)}${range}${why}</td><td>${fmt(e.theory, 2)}</td><td>${e.lines}</td>`;
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
<li><strong>Intervals.</strong> mean ± t<sub>0.975, n−1</sub> · sd / √n (Student t, jstat) over the n replications of a point; failed runs are excluded and counted in points.csv. With n = 2, t<sub>0.975, 1</sub> = 12.7: such an interval is honest but spans most of the axis; use <code>--reps 5</code> or more for intervals that can separate the variants.</li>
<li><strong>Cache.</strong> Each run is stored under the sha256 of its canonical scenario, engine, seed and engine code version; re-running or extending a sweep reuses finished runs.</li>
</ul>`;
}

export function failuresHtml(records: readonly RunRecord[]): string {
  const failed = records.filter((r) => r.result.status === 'failed');
  if (failed.length === 0) return '';
  const items = failed.slice(0, 50).map((r) => `<li><code>${escapeHtml(r.spec.runId)}</code>: ${escapeHtml(r.result.failure ?? 'failed')}</li>`);
  return `<ul>${items.join('')}</ul>${failed.length > 50 ? `<p class="muted">and ${failed.length - 50} more (runs.csv, column failure).</p>` : ''}`;
}

/**
 * The findings on top of the page, every number checkable below: the grid, the link that caps it,
 * how many cells are outside the models' assumptions and why, how close the prediction is where they
 * hold, and which variant wins where the intervals separate.
 */
export function sweepSummary(plan: SweepPlan, rows: readonly ReportRow[], simEngine: string, hasFluid: boolean, wins: readonly WinnerRow[], warnings: readonly string[]): string {
  const parts: string[] = [];
  const points = new Set(rows.map((r) => r.pointId)).size;
  parts.push(`${points} grid point${points === 1 ? '' : 's'} × ${plan.variants.length} variant${plan.variants.length === 1 ? '' : 's'}, ${plan.engines.join(' and ')} engine${plan.engines.length > 1 ? 's' : ''}, ${plan.reps} replication${plan.reps === 1 ? '' : 's'} of each stochastic run.`);
  for (const w of warnings) parts.push(`Note: ${w} (every cell of this sweep).`);
  const sim = rows.filter((r) => r.engine === simEngine);
  const marked = sim.filter((r) => r.validity.length > 0);
  if (sim.length > 0) {
    const count = (code: string) => sim.filter((r) => r.validity.some((f) => f.code === code)).length;
    const why = [['timeouts', 'T, timeouts dominate'], ['link', 'C, capacity-limited'], ['window', `W, fewer than ${VALIDITY.minPacketsPerRtt} packets per RTT`], ['failed', 'F, failed runs']]
      .map(([c, t]) => [count(c!), t] as const).filter(([n]) => n > 0).map(([n, t]) => `${n} ${t}`);
    parts.push(marked.length > 0 ? `${marked.length} of ${sim.length} simulated cells are outside the models' assumptions (${why.join('; ')}); their marks are on every map.` : `All ${sim.length} simulated cells are inside the models' assumptions.`);
  }
  if (hasFluid) {
    const fluid = new Map(rows.filter((r) => r.engine === 'fluid').map((r) => [`${r.pointId}\0${r.variant}`, r.goodputBps]));
    const per = plan.variants.map((v) => {
      const errs = sim.filter((r) => r.variant === v && r.validity.length === 0 && r.goodputBps > 0)
        .map((r) => { const f = fluid.get(`${r.pointId}\0${r.variant}`); return f === undefined ? NaN : Math.abs(f / r.goodputBps - 1); })
        .filter(Number.isFinite).sort((a, b) => a - b);
      if (errs.length === 0) return `${v}: no valid cell`;
      return `${v} ${Math.round(100 * errs[Math.floor((errs.length - 1) / 2)]!)}% (${errs.filter((e) => e <= 0.2).length} of ${errs.length} cells within 20%)`;
    });
    parts.push(`Fluid model against the ${simEngine} engine where its assumptions hold, median absolute goodput error: ${per.join(', ')}.`);
  }
  const simWins = wins.filter((w) => w.engine === simEngine);
  if (plan.variants.length > 1 && simWins.length > 0) {
    const clear = simWins.filter((w) => !w.overlap);
    const by = plan.variants.map((v) => [v, clear.filter((w) => w.winner === v).length] as const).filter(([, n]) => n > 0).map(([v, n]) => `${v} ${n}`);
    parts.push(`Clear wins (95% intervals apart) in the ${simEngine} engine: ${by.length ? by.join(', ') : 'none'}; ${simWins.length - clear.length} of ${simWins.length} cells have no clear winner.`);
  }
  return `<div class="summary" id="summary"><h2>Summary</h2><p>${parts.map(escapeHtml).join(' ')}</p></div>`;
}
