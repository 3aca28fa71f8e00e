import { formatBps, formatMbps as mbps, formatNumber, formatPct } from '../compare/format.js';
import { flowPath, payloadFraction } from '../scenario/path.js';
import { isPresetName, presetLine, type PresetName } from '../scenario/presets.js';
import type { Scenario } from '../scenario/types.js';
import { VARIANT_FACTS, type Variant } from '../variants.js';
import { escapeHtml } from '../page/html.js';
import { NS3_VARIANT, ns3Goodput, referencePreset, REFERENCE_DURATION_S, seedStudyGoodput, usesSack, type Ns3Cell } from './reference.js';
import { caseKey, lineWinner, type LineWinner, type ReplicatedFigures } from './replicates.js';

/**
 * The seed study's question, which congestion control suits which line: its Table 2 beside ns-3's
 * medians on the same setup and cclab's medians with 95% intervals, the winner of each line where
 * the intervals separate, and a paragraph per line on why the three differ, from measured figures.
 */


const title = (v: Variant) => VARIANT_FACTS[v]?.title ?? v;

export interface LineFigures {
  scenario: Scenario;
  /** The preset whose references apply (undefined: the line differs from every preset). */
  preset?: string;
  sack: boolean;
  winner: LineWinner;
  rows: { variant: Variant; study?: number; ns3?: Ns3Cell; cclab?: ReplicatedFigures }[];
}

export function lineFigures(scenario: Scenario, variants: readonly Variant[], figures: ReadonlyMap<string, ReplicatedFigures>): LineFigures {
  const preset = referencePreset(scenario);
  const sack = usesSack(scenario);
  const rows = variants.map((variant) => {
    const row: LineFigures['rows'][number] = { variant };
    const cclab = figures.get(caseKey(scenario.name, variant));
    if (cclab) row.cclab = cclab;
    if (preset !== undefined) {
      const st = seedStudyGoodput(preset, variant);
      if (st !== undefined) row.study = st;
      const n = ns3Goodput(preset, variant, sack);
      if (n !== undefined) row.ns3 = n;
    }
    return row;
  });
  return { scenario, ...(preset !== undefined ? { preset } : {}), sack, winner: lineWinner(scenario.name, variants, figures), rows };
}

/** Coverage of the intervals shown, for captions: "97.9% (10 runs)". */
export function coverageText(lines: readonly LineFigures[]): string {
  const any = lines.flatMap((l) => l.rows).find((r) => r.cclab && Number.isFinite(r.cclab.goodput.low));
  if (!any) return 'one run per cell: no intervals';
  const g = any.cclab!.goodput;
  return `${(100 * g.coverage).toFixed(1)}% for ${g.n} runs`;
}

/** Table 2 with three references per line: the study, ns-3 (median and range of 10 runs), cclab (median and 95% interval). */
export function referenceTableHtml(lines: readonly LineFigures[], variants: readonly Variant[]): string {
  const head1 = `<tr><th class="label" rowspan="2">variant</th>${lines.map((l) => `<th class="group" colspan="3">${escapeHtml(l.scenario.name)}</th>`).join('')}</tr>`;
  const head2 = `<tr>${lines.map((l) => `<th class="first" title="the seed study's Table 2">study</th><th title="ns-3 today, median [min–max] of 10 runs, SACK ${l.sack ? 'on' : 'off'}">ns-3${l.sack ? ' SACK' : ''}</th><th title="cclab's packet engine: median [95% interval]">cclab</th>`).join('')}</tr>`;
  const body = variants.map((v) => {
    const cells = lines.map((l) => {
      const r = l.rows.find((x) => x.variant === v)!;
      const g = r.cclab?.goodput;
      const win = l.winner.separated && l.winner.best === v;
      const ci = g && Number.isFinite(g.low) ? `<span class="ci">[${mbps(g.low)}, ${mbps(g.high)}]</span>` : '';
      const ns3 = r.ns3 ? `${mbps(r.ns3.medianBps)}<span class="ci">[${mbps(r.ns3.minBps)}–${mbps(r.ns3.maxBps)}]</span>` : '–';
      return (
        `<td class="first">${r.study !== undefined ? mbps(r.study) : '–'}</td>` +
        `<td>${ns3}</td>` +
        `<td class="cclab${win ? ' winner' : ''}"${win ? ' title="highest median, interval above every other variant\'s"' : ''}>${g ? mbps(g.median) : '–'}${win ? '<span class="win" aria-label="winner">★</span>' : ''}${ci}</td>`
      );
    });
    return `<tr data-variant="${v}"><th class="label" scope="row">${escapeHtml(title(v))}</th>${cells.join('')}</tr>`;
  });
  return `<div class="table-wrap"><table class="goodput reference" id="reference-table"><caption>Goodput in Mbit/s</caption><thead>${head1}${head2}</thead><tbody>${body.join('')}</tbody></table></div>`;
}

/** "reno, cubic and westwood" */
function names(vs: readonly string[]): string {
  return vs.length <= 1 ? vs.join('') : `${vs.slice(0, -1).join(', ')} and ${vs.at(-1)}`;
}

function ranking(rows: { v: Variant; x: number }[]): string {
  return [...rows].sort((a, b) => b.x - a.x).map((r) => title(r.v)).join(' > ');
}

/**
 * One paragraph per line, every statement from a figure on the page: the tightest link and its cap,
 * cclab against ns-3 with the same SACK setting (and the measured timeouts where they differ most),
 * the study against today's ns-3 with SACK (the study's setting), the rankings and the winner.
 */
export function lineParagraph(l: LineFigures): string {
  const s = l.scenario;
  const out: string[] = [];
  const path = flowPath(s, 0);
  const capBps = path.tightest.bandwidthBps * payloadFraction(s) / s.flows.length;
  const measured = l.rows.filter((r) => r.cclab && Number.isFinite(r.cclab.goodput.median));
  if (path.tightest.role !== 'bottleneck') {
    const best = Math.max(...measured.map((r) => r.cclab!.goodput.median));
    out.push(
      `The ${formatBps(path.tightest.bandwidthBps)} ${path.tightest.role === 'access' ? 'access link' : 'receiver access link'}, not the ${formatBps(s.bottleneck.bandwidthBps)} bottleneck, is the tightest link: no flow can exceed ${mbps(capBps)} Mbit/s of goodput, and the best median here reaches ${Math.round((100 * best) / capBps)}% of it.`,
    );
  }
  if (l.preset === undefined) {
    out.push('This line is not one of the study\'s (its links, loss or queues differ from every preset), so there are no reference columns.');
  } else {
    const ns3 = measured.filter((r) => r.ns3);
    if (ns3.length > 0) {
      const gaps = ns3.map((r) => ({ v: r.variant, gap: r.cclab!.goodput.median / r.ns3!.medianBps - 1, r }));
      const close = gaps.filter((g) => Math.abs(g.gap) <= 0.15);
      const far = gaps.filter((g) => Math.abs(g.gap) > 0.15).sort((a, b) => Math.abs(b.gap) - Math.abs(a.gap));
      let t = `Against ns-3 with SACK ${l.sack ? 'on' : 'off'} (as cclab ran): `;
      t += close.length > 0 ? `${names(close.map((g) => `${title(g.v)} (${formatPct(g.gap, 0)})`))} within 15%` : 'no variant within 15%';
      if (far.length > 0) {
        t += `; ${names(far.map((g) => `${title(g.v)} ${formatPct(g.gap, 0)}`))}`;
        const w = far[0]!;
        const c = w.r.cclab!;
        const spread = w.r.ns3!.maxBps / Math.max(1, w.r.ns3!.minBps);
        t += ` (${title(w.v)}: cclab's median run has ${formatNumber(c.timeouts.median)} timeouts and ${formatNumber(c.fastRecoveries.median)} fast recoveries` +
          (spread > 1.5 ? `; ns-3's own 10 runs span ${mbps(w.r.ns3!.minBps)}–${mbps(w.r.ns3!.maxBps)} Mbit/s` : '') + ')';
      }
      out.push(t + '.');
    }
    const both = l.rows.filter((r) => r.study !== undefined && r.cclab && Number.isFinite(r.cclab.goodput.median));
    if (both.length > 0) {
      const ratios = both.map((r) => r.cclab!.goodput.median / r.study!);
      const lo = Math.min(...ratios);
      const hi = Math.max(...ratios);
      let t = `cclab's medians are ${formatNumber(lo, 2)}–${formatNumber(hi, 2)} × the study's values`;
      const sackOn = both.map((r) => ({ r, n: ns3Goodput(l.preset!, r.variant, true) })).filter((x) => x.n !== undefined);
      if (sackOn.length > 0) {
        const nr = sackOn.map((x) => x.n!.medianBps / x.r.study!);
        const agrees = Math.min(...nr) >= 0.8 && Math.max(...nr) <= 1.25;
        t += `; ns-3 today, with SACK on as the study ran it, gives ${formatNumber(Math.min(...nr), 2)}–${formatNumber(Math.max(...nr), 2)} × them on the same setup, so ${agrees ? 'today\'s ns-3 reproduces the study within 25% here' : 'the study\'s figures differ from today\'s ns-3 too (an older ns-3, one run per cell): part of the gap is not cclab\'s'}`;
      }
      out.push(t + '.');
      out.push(
        `Rankings: the study ${ranking(both.map((r) => ({ v: r.variant, x: r.study! })))}; cclab ${ranking(both.map((r) => ({ v: r.variant, x: r.cclab!.goodput.median })))}.`,
      );
    }
    if (s.durationS !== REFERENCE_DURATION_S) out.push(`The references are ${REFERENCE_DURATION_S} s runs; these are ${formatNumber(s.durationS)} s, so the first slow start weighs ${s.durationS < REFERENCE_DURATION_S ? 'more' : 'less'} here.`);
  }
  out.push(winnerSentence(l.winner));
  return `<p class="line-note" id="line-${escapeHtml(s.name)}"><strong>${escapeHtml(s.name)}.</strong> ${out.map(escapeHtml).join(' ')}</p>`;
}

/** "Westwood+ wins on lfn (…)", or why no variant is marked. */
export function winnerSentence(w: LineWinner): string {
  if (w.best === null) return `No winner on ${w.scenario}: ${w.reason}.`;
  if (w.separated) return `${title(w.best)} wins on ${w.scenario}: its 95% interval lies above every other variant's.`;
  if (w.leaders.length > 1) return `No single winner on ${w.scenario}: ${names(w.leaders.map(title))} have overlapping intervals (highest median: ${title(w.best)}).`;
  return `${title(w.best)} has the highest median on ${w.scenario}, not marked as a winner (${w.reason}).`;
}

/** Variants that have an ns-3 counterpart (Tahoe has none). */
export const NS3_VARIANTS = Object.keys(NS3_VARIANT) as Variant[];

/** A line on two setups: the recipe's scenario and the contrast's, with their figures. */
export interface SetupPair {
  main: LineFigures;
  other: LineFigures;
}

/** The contrast's lines beside the recipe's scenario of the same line (`lfn` beside `ns3-lfn`). */
export function setupPairs(lines: readonly LineFigures[], contrast: readonly LineFigures[]): SetupPair[] {
  const lineOf = (l: LineFigures) => (isPresetName(l.scenario.name) ? presetLine(l.scenario.name) : undefined);
  return contrast.flatMap((other) => {
    const main = lines.find((l) => lineOf(l) !== undefined && lineOf(l) === lineOf(other));
    return main ? [{ main, other }] : [];
  });
}

/** "normal (1 Gbit/s, 1 ms; access 10 Gbit/s, 0.1 ms)": the links that make a setup. */
function setupText(s: Scenario): string {
  const a = s.flows[0]!.access;
  const tight = flowPath(s, 0).tightest;
  return `${formatBps(s.bottleneck.bandwidthBps)} line, ${formatNumber(1000 * s.bottleneck.delayS)} ms, behind a ${formatBps(a.bandwidthBps)}, ${formatNumber(1000 * a.delayS)} ms access link: the ${tight.role === 'bottleneck' ? 'line' : 'access link'} is the bottleneck`;
}

/** Ranking by median packet goodput, best first. */
function rankingOf(l: LineFigures): Variant[] {
  return l.rows.filter((r) => r.cclab && Number.isFinite(r.cclab.goodput.median)).sort((a, b) => b.cclab!.goodput.median - a.cclab!.goodput.median).map((r) => r.variant);
}

/** Pairs of variants ordered differently by two rankings (a Kendall distance), of all pairs both rank. */
function swappedPairs(a: readonly Variant[], b: readonly Variant[]): { swapped: number; pairs: number } {
  const both = a.filter((v) => b.includes(v));
  let swapped = 0;
  let pairs = 0;
  for (let i = 0; i < both.length; i++) {
    for (let j = i + 1; j < both.length; j++) {
      pairs++;
      if (b.indexOf(both[i]!) > b.indexOf(both[j]!)) swapped++;
    }
  }
  return { swapped, pairs };
}

/** "of 100 s on the line's own", or "on the line's own (10 s on normal, 100 s on lfn and lossy)" when the contrast's durations differ (HTML). */
function ownRunsText(pairs: readonly SetupPair[]): string {
  const byDuration = new Map<number, string[]>();
  for (const p of pairs) byDuration.set(p.other.scenario.durationS, [...(byDuration.get(p.other.scenario.durationS) ?? []), p.other.scenario.name]);
  if (byDuration.size === 1) return `of ${formatNumber(pairs[0]!.other.scenario.durationS)} s on the line's own`;
  return `on the line's own (${[...byDuration].map(([d, ns]) => `${formatNumber(d)} s on ${escapeHtml(names(ns))}`).join(', ')})`;
}

/**
 * Why a line's own runs may be shorter, and what that does to their goodputs: every preset's
 * application stops 2.9 s before the end (ns-3's example), and goodput is over the whole run, so a
 * shorter run's goodputs are lower by that idle share; the rankings are what the setups compare.
 */
function shorterRunsNote(pairs: readonly SetupPair[], mainDurationS: number): string {
  const shorter = pairs.map((p) => p.other.scenario).filter((s) => s.durationS < mainDurationS);
  if (shorter.length === 0) return '';
  const idleS = (s: Scenario) => (s.flows[0]!.stopS === null ? 0 : Math.max(0, s.durationS - s.flows[0]!.stopS));
  const parts = shorter.map((s) => `${s.name} (${formatNumber(s.durationS)} s, ${Math.round((100 * idleS(s)) / s.durationS)}% of it idle)`);
  return (
    ` Shorter runs on ${names(parts)}: the line is in steady state well within them, and ${formatNumber(mainDurationS)} s runs of it cost more than all the rest of this page. ` +
    `The application stops ${formatNumber(idleS(shorter[0]!))} s before the end of every run, as in ns-3's example, and goodput counts the whole run, so their goodputs sit lower by that idle share than ${formatNumber(mainDurationS)} s runs' would: compare the rankings across setups, not the goodputs.`
  );
}

/**
 * The study's question asked twice: each line as ns-3's example ran it (behind its 10 Mbit/s access
 * link) and as the study describes it (its own bottleneck), cclab's packet medians with intervals on
 * both, each setup's ranking and winner, and whether the ranking survives.
 */
export function setupsHtml(pairs: readonly SetupPair[], variants: readonly Variant[], info: { mainDurationS: number }): string {
  if (pairs.length === 0) return '';
  const head1 = `<tr><th class="label" rowspan="2">variant</th>${pairs.map((p) => `<th class="group" colspan="2">${escapeHtml(presetLine(p.main.scenario.name as PresetName))}</th>`).join('')}</tr>`;
  const head2 = `<tr>${pairs.map((p) => `<th class="first" title="${escapeHtml(setupText(p.main.scenario))}">${escapeHtml(p.main.scenario.name)}</th><th title="${escapeHtml(setupText(p.other.scenario))}">${escapeHtml(p.other.scenario.name)}</th>`).join('')}</tr>`;
  const cell = (l: LineFigures, v: Variant, first: boolean) => {
    const g = l.rows.find((r) => r.variant === v)?.cclab?.goodput;
    const win = l.winner.separated && l.winner.best === v;
    const ci = g && Number.isFinite(g.low) ? `<span class="ci">[${mbps(g.low)}, ${mbps(g.high)}]</span>` : '';
    return `<td class="${first ? 'first ' : ''}cclab${win ? ' winner' : ''}">${g ? mbps(g.median) : '–'}${win ? '<span class="win" aria-label="winner">★</span>' : ''}${ci}</td>`;
  };
  const body = variants.map((v) => `<tr data-variant="${v}"><th class="label" scope="row">${escapeHtml(title(v))}</th>${pairs.map((p) => cell(p.main, v, true) + cell(p.other, v, false)).join('')}</tr>`);
  const n = (l: LineFigures) => l.rows.find((r) => r.cclab)?.cclab?.goodput.n ?? 0;
  const intro =
    `<h3 id="setups">Does the ranking survive a real bottleneck?</h3><p>The study ran its three lines on ns-3's example setup, where a 10 Mbit/s, 45 ms access link sits in front of every line: on normal and lfn that link, not the line, is the bottleneck. ` +
    `Here each line also runs as the study describes it, its own bottleneck (access link 10× the line's rate, 0.1 ms; queues by the same BDP rule). cclab's packet engine, goodput in Mbit/s: median and 95% interval of ${n(pairs[0]!.main)} runs of ${formatNumber(info.mainDurationS)} s on the example's setup, of ${n(pairs[0]!.other)} runs ${ownRunsText(pairs)}; the seeds are the same on both setups (common random numbers). ★: the setup's winner, where its interval lies above every other variant's.${escapeHtml(shorterRunsNote(pairs, info.mainDurationS))}</p>`;
  const table = `<div class="table-wrap"><table class="goodput reference" id="setups-table"><caption>Goodput in Mbit/s on both setups</caption><thead>${head1}${head2}</thead><tbody>${body.join('')}</tbody></table></div>`;
  const notes = pairs.map((p) => {
    const a = rankingOf(p.main);
    const b = rankingOf(p.other);
    const { swapped, pairs: all } = swappedPairs(a, b);
    const line = presetLine(p.main.scenario.name as PresetName);
    const same = a[0] === b[0];
    const verdict =
      swapped === 0
        ? 'the ranking survives unchanged'
        : `${swapped} of ${all} pairs of variants swap places${same ? `, ${title(a[0]!)} stays on top` : `, the top changes from ${title(a[0]!)} to ${title(b[0]!)}`}`;
    const winners = `${winnerSentence(p.main.winner)} ${winnerSentence(p.other.winner)}`;
    return `<p class="line-note" id="setups-${escapeHtml(line)}"><strong>${escapeHtml(line)}.</strong> ${escapeHtml(`On ns-3's example setup (${setupText(p.main.scenario)}) cclab ranks ${a.map(title).join(' > ')}; on the line's own bottleneck (${setupText(p.other.scenario)}) ${b.map(title).join(' > ')}: ${verdict}. ${winners}`)}</p>`;
  });
  return intro + table + notes.join('');
}
