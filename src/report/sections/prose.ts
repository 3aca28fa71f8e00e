import { formatBps, formatBytes, formatNumber, formatPct, formatSeconds } from '../../compare/format.js';
import type { ComparisonCase } from '../../compare/run.js';
import { TRANSIENT_METHOD } from '../../compare/transient.js';
import { VALIDITY } from '../../compare/validity.js';
import type { Scenario } from '../../scenario/types.js';
import { escapeHtml } from '../../page/html.js';
import { winnerSentence, type LineFigures } from '../seedStudy.js';
import { tableFlags } from '../tables.js';
import { agreementSentence, caseAgreements } from '../agreement.js';
import { renderLatex } from '../../page/math.js';
import type { ModelDoc } from '../models.js';
import type { ReportRecipe } from '../recipe.js';
import { VARIANT_FACTS, type Variant } from '../../variants.js';

/** Prose and parameter blocks of the comparison report (charts and tables are built elsewhere). */

const p = (text: string) => `<p>${text}</p>`;

/**
 * The findings in one paragraph, every number checkable on the page: each line's winner (or why there
 * is none), cclab against ns-3, and the fluid models against the simulation. The flagged count is the
 * number of scenario x variant pairs whose cells in the models table carry a mark (tableFlags, the
 * same list the marks come from).
 */
export function headline(cases: readonly ComparisonCase[], lines: readonly LineFigures[] = [], models?: string): string {
  const parts: string[] = [];
  if (lines.length > 0) parts.push(lines.map((l) => winnerSentence(l.winner)).join(' '));
  const gaps = lines.flatMap((l) => l.rows.filter((r) => r.ns3 && r.cclab && Number.isFinite(r.cclab.goodput.median)).map((r) => Math.abs(r.cclab!.goodput.median / r.ns3!.medianBps - 1)));
  if (gaps.length > 0) {
    const sorted = [...gaps].sort((a, b) => a - b);
    parts.push(`Against ns-3 on the same setup, cclab's median goodput is within 15% in ${gaps.filter((g) => g <= 0.15).length} of ${gaps.length} cells (median gap ${formatPct(sorted[Math.floor((sorted.length - 1) / 2)]!).replace('+', '')}).`);
  }
  // The models against the simulation, as the goodput table compares them (runs/agreement.ts).
  parts.push(models ?? agreementSentence(cases, caseAgreements(cases, new Map())));
  const trusted = cases.filter((c) => c.comparison.fluidTrusted && c.comparison.relErr.goodput !== null);
  if (trusted.length < cases.length) parts.push(`The fluid model is inside its validity in ${trusted.length} of ${cases.length} pairs.`);
  const marked = cases.filter((c) => {
    const f = tableFlags(c.comparison);
    return f.fluid.length + f.closed.length > 0;
  });
  const invalid = marked.filter((c) => {
    const f = tableFlags(c.comparison);
    return [...f.fluid, ...f.closed].some((x) => x.severity === 'invalid');
  }).length;
  parts.push(
    marked.length > 0
      ? `${marked.length} pair${marked.length > 1 ? 's carry' : ' carries'} numbered marks in the models table (${invalid} outside a model's validity); the notes under it say why.`
      : 'No pair carries a validity mark.',
  );
  return `<div class="summary" id="summary"><h2>Summary</h2>${p(parts.map(escapeHtml).join(' '))}</div>`;
}

export function goodputIntro(): string {
  return (
    p('Goodput is the payload delivered in order to the receiving application, × 8 over the measurement interval, as in the seed study\'s Table 2 (variants down, scenarios across), in Mbit/s. ' +
      '<em>packet</em> is cclab\'s packet-level simulation (the median of the replications), <em>fluid</em> the prediction of the variant\'s delay-differential fluid model (a model with random loss events, Tahoe\'s and CUBIC\'s, runs once per packet seed with Poisson loss events seeded by it, and shows its median and 95% interval as the packet column does; a deterministic model runs once), and <em>closed form</em> the most complete formula for the variant (Padhye et al.\'s full model for Reno and NewReno, which covers timeouts; the CUBIC response function; hover for its name; every formula is in <code>comparison.csv</code>). ' +
      'Errors are (model − packet) / packet, against that median. With several flows, goodputs are totals over the flows and a closed form (a one-flow formula) counts once per flow. Grey italic errors and numbered marks mean a model is outside its assumptions there: the error is shown, but it is not the model\'s fault.')
  );
}

export function errorsIntro(): string {
  return p(
    `Bars show each model's relative error against the packet-level simulation; faded bars are outside the model's validity. ` +
      `The table adds the agreement of the window traces: RMSE (in segments) and correlation of cwnd after resampling both engines on one time grid, ` +
      `over the whole run and over the steady state only. The steady state starts at the end of the first slow start, detected as the ${escapeHtml(TRANSIENT_METHOD.replace(/^end of the first slow start = /, ''))}.`,
  );
}

export function validityIntro(): string {
  return p(
    `Flags are raised when the packet run shows conditions the models do not describe: timeouts outnumbering fast recoveries ` +
      `(share above ${VALIDITY.maxTimeoutShare * 100}%), fewer than ${VALIDITY.minPacketsPerRtt} packets per RTT, goodput above ${VALIDITY.bandwidthShare * 100}% of the path's capacity or losses mostly from queue overflow (bandwidth limited), ` +
      `the window held at the receiver window, or fewer than ${VALIDITY.minLossEvents} loss reactions.`,
  );
}

export function cwndIntro(): string {
  return p(
    'Each chart overlays the congestion window (solid) and the slow-start threshold (dashed) of the packet-level simulation (blue) and of the fluid model (orange), in bytes as the seed study plots them (the radio buttons switch to segments); ' +
      'a dotted line marks the closed form\'s mean window and a green dashed line the start of the steady state the tables compare. Every chart of a line shares one y range, over the whole run, so the first slow start\'s peak is in view; ' +
      '"zoom to steady state" rescales it to the steady state. The panel below is the queue of the tightest link in packets. ' +
      'Drag to pan and scroll to zoom the time axis, double-click to reset; hover for values. The packet run shown is replication 0. Long traces are downsampled keeping each interval\'s minimum and maximum, so sawtooth peaks survive.',
  );
}

function lineTitle(s: Scenario): string {
  return `${formatBps(s.bottleneck.bandwidthBps).replace('bit/s', 'bps')} bottleneck, ${formatSeconds(s.bottleneck.delayS)} one-way, loss p = ${formatNumber(s.bottleneck.loss.rate)}`;
}

export function scenarioLine(s: Scenario): string {
  const a = s.flows[0]?.access;
  return p(
    `${escapeHtml(lineTitle(s))}; ${s.flows.length} flow${s.flows.length > 1 ? 's' : ''}` +
      (a ? ` behind a ${formatBps(a.bandwidthBps).replace('bit/s', 'bps')}, ${formatSeconds(a.delayS)} access link` : '') +
      `; ${s.bottleneck.queue.kind} queue of ${s.bottleneck.queue.limitPackets} packets; MSS ${s.mssBytes} B; ${formatSeconds(s.durationS)} simulated.`,
  );
}

/** Parameters of every scenario side by side (rows are parameters). */
export function scenarioTableHtml(scenarios: readonly Scenario[]): string {
  const rows: [string, (s: Scenario) => string][] = [
    ['bottleneck rate', (s) => formatBps(s.bottleneck.bandwidthBps)],
    ['bottleneck delay (one-way)', (s) => formatSeconds(s.bottleneck.delayS)],
    ['random loss p', (s) => `${formatNumber(s.bottleneck.loss.rate)} (${s.bottleneck.loss.direction === 'data' ? 'data only' : s.bottleneck.loss.ackStream === 'own' ? 'data and ACKs, each its own stream' : 'data and ACKs, one stream'})`],
    ['bottleneck queue', (s) => `${s.bottleneck.queue.kind}, ${s.bottleneck.queue.limitPackets} packets`],
    ['access link', (s) => (s.flows[0] ? `${formatBps(s.flows[0].access.bandwidthBps)}, ${formatSeconds(s.flows[0].access.delayS)}, ${s.flows[0].access.queuePackets} packets` : '–')],
    ['flows', (s) => String(s.flows.length)],
    ['MSS / headers', (s) => `${s.mssBytes} B / ${s.headerBytes} B`],
    ['initial window', (s) => `${s.tcp.initialCwndSegments} segments`],
    ['receive buffer', (s) => formatBytes(s.tcp.rcvBufBytes)],
    ['delayed ACK', (s) => (s.tcp.delAckCount > 1 ? `every ${s.tcp.delAckCount} segments, ${formatSeconds(s.tcp.delAckTimeoutS)}` : 'off')],
    ['min RTO', (s) => formatSeconds(s.tcp.minRtoS)],
    // Which implementation's choices the TCP follows where ns-3, Linux and the RFCs differ (a preset: ns-3's).
    ['TCP behaviour', (s) => (s.tcp.profile === undefined ? "cclab's own mix (no profile)" : `${s.tcp.profile} profile`)],
    ['duration / measured from', (s) => `${formatSeconds(s.durationS)} / ${formatSeconds(s.measureFromS)}`],
    ['seed', (s) => String(s.seed)],
  ];
  const head = `<tr><th class="label">parameter</th>${scenarios.map((s) => `<th>${escapeHtml(s.name)}</th>`).join('')}</tr>`;
  const body = rows.map(([k, f]) => `<tr><td class="label">${escapeHtml(k)}</td>${scenarios.map((s) => `<td>${escapeHtml(f(s))}</td>`).join('')}</tr>`).join('');
  return `<div class="table-wrap"><table class="scenarios"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}

/** Shell-quote an argument only when needed. */
function sh(x: string): string {
  return /^[\w@%+=:,./-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`;
}

/** The exact command that reproduces the report, from the recipe file or as flags. */
export function rerunCommands(recipe: ReportRecipe, outDir: string): string[] {
  const cmds: string[] = [];
  // The behaviour profile laid over every scenario and the contrast (a recipe's profile: or --profile).
  const profile = recipe.profile === undefined ? '' : ` --profile ${recipe.profile}`;
  if (recipe.source) cmds.push(`npx cclab report --recipe ${sh(recipe.source)}${profile} --out ${sh(outDir)}`);
  const allNamed = recipe.scenarios.every((s) => typeof s === 'string');
  if (allNamed) {
    cmds.push(
      `npx cclab report --name ${sh(recipe.name)} --scenarios ${recipe.scenarios.join(',')} --variants ${recipe.variants.join(',')} ` +
        `--duration ${recipe.durationS}s --seed ${recipe.seed}${profile} --out ${sh(outDir)}`,
    );
  }
  cmds.push(`npx cclab report --recipe ${sh(`${outDir}/recipe.json`)} --out ${sh(outDir)}`);
  return cmds;
}

export function rerunHtml(recipe: ReportRecipe, outDir: string, version: string, files: readonly string[]): string {
  return (
    p(`Written by cclab ${escapeHtml(version)} with seed ${recipe.seed}: the same command, seed and version give the same numbers. Any of these reproduces this report:`) +
    `<pre>${rerunCommands(recipe, outDir).map(escapeHtml).join('\n')}</pre>` +
    p(`<code>recipe.json</code> holds the resolved recipe with every scenario in full. Data beside this page, for pandas, R or the Vega editor: ${files.map((f) => `<a href="${escapeHtml(f)}"><code>${escapeHtml(f)}</code></a>`).join(', ')}.`)
  );
}

/** Equations of each fluid model used, rendered with KaTeX; errors in a formula are shown, not fatal. */
export function modelsHtml(docs: readonly ModelDoc[], warnings: string[]): string {
  if (docs.length === 0) return p('The fluid engine provided no model equations to show.');
  return docs
    .map((d) => {
      const eqs = d.equations
        .map((e) => {
          const r = renderLatex(e.latex);
          if (r.error) warnings.push(`model ${d.id}: ${r.error}`);
          return `<div class="equation">${e.label ? `<span class="muted">${escapeHtml(e.label)}</span>` : ''}${r.html}</div>`;
        })
        .join('');
      const syms = d.symbols?.length
        ? `<dl class="params">${d.symbols
            .map((s) => {
              const r = renderLatex(s.latex, false);
              if (r.error) warnings.push(`model ${d.id}, symbol ${s.latex}: ${r.error}`);
              return `<dt>${r.html}</dt><dd>${escapeHtml(s.meaning)}</dd>`;
            })
            .join('')}</dl>`
        : '';
      return `<h3 id="model-${escapeHtml(d.id)}">${escapeHtml(d.title)}</h3>${d.citation ? p(`<span class="muted">${escapeHtml(d.citation)}</span>`) : ''}${d.description ? p(escapeHtml(d.description)) : ''}${eqs}${syms}`;
    })
    .join('');
}

/** A variant's name as the page prints it (its title in VARIANT_FACTS). */
export function variantTitle(v: Variant): string {
  return VARIANT_FACTS[v]?.title ?? v;
}
