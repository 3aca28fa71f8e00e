import { AGREEMENT_TOLERANCE, BIMODAL, criterionText, modelAgreement, type ModelAgreement } from '../runs/agreement.js';
import { formatMbps as mbps, formatPct } from '../compare/format.js';
import type { ComparisonCase } from '../compare/run.js';
import { escapeHtml } from '../page/html.js';
import { VARIANT_FACTS } from '../variants.js';
import { caseKey, type ReplicatedFigures } from './replicates.js';
import type { LineFigures } from './seedStudy.js';

/** Each case's verdict, by caseKey. */
export type Agreements = ReadonlyMap<string, ModelAgreement>;

/**
 * The report's side of the one comparison method (runs/agreement.ts): each case's verdict from its
 * packet replications and its fluid runs, the fluid cell with its interval and criterion, the
 * bimodal cases' modes, and the summary's count.
 */

/** A case's verdict: its packet runs (the replications, else the charted run) against its fluid runs. */
export function caseAgreement(c: ComparisonCase, figures?: ReplicatedFigures): ModelAgreement {
  const packet =
    figures && figures.goodput.n > 0
      ? figures.runs.filter((r) => r.status === 'ok').map((r) => r.summary.goodputBps)
      : c.packet.status === 'ok'
        ? [c.packet.summary.goodputBps]
        : [];
  const fluid = c.comparison.fluid.status === 'ok' ? (c.fluidGoodputsBps ?? [c.comparison.fluid.goodputBps]) : [];
  return modelAgreement(packet, fluid);
}

/** Every case's verdict, by caseKey (the figures are the packet replications, by the same key). */
export function caseAgreements(cases: readonly ComparisonCase[], figures: ReadonlyMap<string, ReplicatedFigures>): Map<string, ModelAgreement> {
  return new Map(cases.map((c) => {
    const key = caseKey(c.comparison.scenario, c.comparison.variant);
    return [key, caseAgreement(c, figures.get(key))];
  }));
}

/** The mark beside a fluid cell: ✓ within the tolerance, ◐ inside a bimodal interval, nothing when it disagrees. */
export function criterionMark(a: ModelAgreement): string {
  if (a.criterion === null) return '';
  const sym = a.criterion === 'within-tolerance' ? '✓' : '◐';
  return `<span class="agree" title="${escapeHtml(criterionText(a))}">${sym}</span>`;
}

/** The fluid runs' interval as "[0.81, 1.10]" when there are several runs, else ''. */
function fluidInterval(a: ModelAgreement): string {
  return a.fluid.n > 1 && Number.isFinite(a.fluid.low) ? `[${mbps(a.fluid.low)}, ${mbps(a.fluid.high)}]` : '';
}

/** The fluid median with its interval when it has several runs ("0.97 [0.81, 1.10]"). */
export function fluidFigureHtml(a: ModelAgreement): string {
  const ci = fluidInterval(a);
  return `${mbps(a.fluid.median)}${ci ? `<span class="ci">${ci}</span>` : ''}`;
}

/** How many verdicts with both figures agree, by criterion. */
function criterionCounts(as: readonly ModelAgreement[]): { n: number; within: number; bimodal: number } {
  const n = as.filter((a) => a.error !== null);
  return { n: n.length, within: n.filter((a) => a.criterion === 'within-tolerance').length, bimodal: n.filter((a) => a.criterion === 'inside-bimodal-interval').length };
}

const title = (v: string) => VARIANT_FACTS[v as keyof typeof VARIANT_FACTS]?.title ?? v;

/** One sentence per case whose packet runs are bimodal: both modes, and which the model predicts. */
export function bimodalNotesHtml(cases: readonly ComparisonCase[], agreements: Agreements): string {
  const items = cases.flatMap((c) => {
    const a = agreements.get(caseKey(c.comparison.scenario, c.comparison.variant));
    if (!a?.modes) return [];
    const m = a.modes;
    const mode = (name: string, x: typeof m.lower) => `${name} mode ${mbps(x.minBps)}–${mbps(x.maxBps)} Mbit/s (${x.runs} runs, median ${mbps(x.median)})`;
    const model = a.fluid.n > 0 ? `the fluid model's ${mbps(a.fluid.median)} ${a.predictsMode ? `predicts the ${a.predictsMode} mode` : 'predicts neither mode'}, ${formatPct(a.error)} from the median between them (${criterionText(a)})` : 'no fluid figure';
    return [`<li id="bimodal-${escapeHtml(c.comparison.scenario)}-${escapeHtml(c.comparison.variant)}"><strong>${escapeHtml(title(c.comparison.variant))} on ${escapeHtml(c.comparison.scenario)}</strong>: ${escapeHtml(`${mode('lower', m.lower)}, ${mode('upper', m.upper)}, the gap between them ${m.gapRatio === Infinity ? 'wider than either (both are points)' : `${m.gapRatio.toFixed(1)}× the wider one's width`}; ${model}.`)}</li>`];
  });
  const how =
    `Bimodal packet runs are found on the sorted run goodputs: the split into a lower and an upper group that minimises the within-group sum of squares (each of at least ${BIMODAL.minModeRuns} runs, ${BIMODAL.minRuns} runs or more in all) counts as two modes when the empty stretch between the groups is wider than either group (two clumps further apart than each is wide) and their medians differ by more than ${100 * BIMODAL.minModeSeparation}% of the overall median. ` +
    `There one error against a median between the modes says little: the model agrees if it lies within ${100 * AGREEMENT_TOLERANCE}% of the median (✓) or inside the runs' 95% interval (◐), and the note says which mode, if either, it predicts (within ${100 * AGREEMENT_TOLERANCE}% of the mode's median or inside its range).`;
  return `<p class="muted" id="bimodal-method">${escapeHtml(how)}</p>${items.length > 0 ? `<ul class="bimodal">${items.join('')}</ul>` : '<p class="muted">No case\'s packet runs are bimodal.</p>'}`;
}

/**
 * The summary's sentence on the models: how many pairs agree and by which criterion, the median
 * |error|, and how the fluid runs were made.
 */
export function agreementSentence(cases: readonly ComparisonCase[], agreements: Agreements): string {
  const rows = cases.map((c) => ({ c, a: agreements.get(caseKey(c.comparison.scenario, c.comparison.variant)) })).filter((r): r is { c: ComparisonCase; a: ModelAgreement } => r.a !== undefined && r.a.error !== null);
  if (rows.length === 0) return 'No pair has both a packet and a fluid figure.';
  const { within, bimodal } = criterionCounts(rows.map((r) => r.a));
  const abs = rows.map((r) => Math.abs(r.a.error!)).sort((a, b) => a - b);
  const median = abs[Math.floor((abs.length - 1) / 2)]!;
  const hybrid = [...new Set(cases.filter((c) => (c.fluidGoodputsBps?.length ?? 0) > 1).map((c) => title(c.comparison.variant)))];
  const misses = rows.filter((r) => !r.a.agrees).map((r) => `${r.c.comparison.scenario} ${title(r.c.comparison.variant)} ${formatPct(r.a.error, 0)}`);
  return (
    `The fluid model agrees with the simulation in ${within + bimodal} of ${rows.length} pairs: ${within} within ${100 * AGREEMENT_TOLERANCE}% of the packet median (✓), ${bimodal} inside the 95% interval of bimodal packet runs (◐); median |error| ${formatPct(median).replace('+', '')}` +
    (misses.length > 0 ? `; misses: ${misses.join(', ')}.` : '.') +
    (hybrid.length > 0 ? ` ${hybrid.join(' and ')} ${hybrid.length > 1 ? 'have' : 'has'} random loss events in ${hybrid.length > 1 ? 'their models' : 'its model'}: one fluid run per packet seed, Poisson loss events seeded by it, their median compared.` : '')
  );
}

/** One pair of a setup whose packet figures are line figures (the recipe's contrast), with its verdict. */
export interface PairVerdict {
  scenario: string;
  variant: string;
  a: ModelAgreement;
}

/** The verdicts of a contrast setup: its lines' packet replications against the fluid runs beside them (caseKey). */
export function lineVerdicts(lines: readonly LineFigures[], fluid: ReadonlyMap<string, readonly number[]>): PairVerdict[] {
  return lines.flatMap((l) =>
    l.rows.flatMap((r) => {
      const f = fluid.get(caseKey(l.scenario.name, r.variant));
      if (!r.cclab || !f) return [];
      const packet = r.cclab.runs.filter((x) => x.status === 'ok').map((x) => x.summary.goodputBps);
      return [{ scenario: l.scenario.name, variant: r.variant, a: modelAgreement(packet, f) }];
    }),
  );
}

/** "9 of 15 pairs (7 within 10%, 2 inside a bimodal interval)" for a setup's verdicts. */
export function verdictCount(vs: readonly PairVerdict[]): string {
  const { n, within, bimodal } = criterionCounts(vs.map((v) => v.a));
  return `${within + bimodal} of ${n} pairs (${within} within ${100 * AGREEMENT_TOLERANCE}% of the packet median, ${bimodal} inside the 95% interval of bimodal packet runs)`;
}

/**
 * The fluid model on the contrast's setup, pair by pair: its median (with the interval of its runs),
 * its error against the packet median and the criterion it met, or that it misses.
 */
export function setupVerdictHtml(vs: readonly PairVerdict[]): string {
  if (vs.length === 0) return '';
  const items = vs.map((v) => {
    const a = v.a;
    const ci = fluidInterval(a) ? ` ${fluidInterval(a)}` : '';
    const modes = a.modes ? `; packet runs bimodal: ${mbps(a.modes.lower.minBps)}–${mbps(a.modes.lower.maxBps)} and ${mbps(a.modes.upper.minBps)}–${mbps(a.modes.upper.maxBps)}` : '';
    return `<li data-scenario="${escapeHtml(v.scenario)}" data-variant="${escapeHtml(v.variant)}">${escapeHtml(`${v.scenario} ${title(v.variant)}: fluid ${mbps(a.fluid.median)}${ci} against the packet median ${mbps(a.packet.median)} Mbit/s, ${formatPct(a.error)}: ${criterionText(a)}${modes}`)}${criterionMark(a)}</li>`;
  });
  return `<p id="setups-models">${escapeHtml(`The fluid models on the lines' own bottlenecks, compared as on the example's setup (a model with random loss events on every packet seed): they agree in ${verdictCount(vs)}.`)}</p><ul class="verdicts">${items.join('')}</ul>`;
}
