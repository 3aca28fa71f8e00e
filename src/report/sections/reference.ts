import { toCsv } from '../../page/csv.js';
import { escapeHtml } from '../../page/html.js';
import type { ReportContext } from '../context.js';
import type { ReportRecipe } from '../recipe.js';
import type { ReplicatedFigures } from '../replicates.js';
import type { ModelAgreement } from '../../runs/agreement.js';
import { lineVerdicts, setupVerdictHtml } from '../agreement.js';
import { coverageText, lineParagraph, referenceTableHtml, setupPairs, setupsHtml, type LineFigures } from '../seedStudy.js';

/** The reference table (which variant suits which line), with the recipe's contrast setups (and their CSV). */
export function referenceHtml(ctx: ReportContext, contrastLines: readonly LineFigures[]): string {
  const { recipe, lines, variants } = ctx;
  const pairs = setupPairs(lines, contrastLines);
  const setups = setupsHtml(pairs, variants, { mainDurationS: recipe.durationS });
  // The fluid models on the contrast's setup, compared as on the main one (runs/agreement.ts).
  const verdicts = lineVerdicts(contrastLines, ctx.opts.contrast?.fluid ?? new Map());
  if (contrastLines.length > 0) {
    const verdictOf = (scenario: string, variant: string) => verdicts.find((v) => v.scenario === scenario && v.variant === variant)?.a;
    const rows = contrastLines.flatMap((l) => l.rows.map((r) => ({ ...setupRow(r.cclab, verdictOf(l.scenario.name, r.variant)), scenario: l.scenario.name, variant: r.variant })));
    ctx.files.set('contrast.csv', toCsv(rows, CONTRAST_COLUMNS));
  }
  return referenceIntro(recipe, lines) + referenceTableHtml(lines, variants) + lines.map(lineParagraph).join('') + setups + (pairs.length > 0 ? setupVerdictHtml(verdicts) : '');
}

const CONTRAST_COLUMNS = ['scenario', 'variant', 'runs', 'goodput_median_bps', 'goodput_low_bps', 'goodput_high_bps', 'coverage', 'fluid_runs', 'fluid_goodput_bps', 'fluid_error', 'fluid_agreement', 'packet_modes'] as const;

/** A contrast case's figures as a CSV row (blank where none), with the fluid model's verdict when it ran. */
function setupRow(f: ReplicatedFigures | undefined, a: ModelAgreement | undefined) {
  const g = f?.goodput;
  const m = a?.modes;
  return {
    runs: g?.n ?? 0, goodput_median_bps: g?.median, goodput_low_bps: g?.low, goodput_high_bps: g?.high, coverage: g?.coverage,
    fluid_runs: a?.fluid.n ?? 0, fluid_goodput_bps: a?.fluid.median, fluid_error: a?.error ?? undefined, fluid_agreement: a ? (a.criterion ?? '') : undefined,
    packet_modes: m ? `${m.lower.minBps}-${m.lower.maxBps}|${m.upper.minBps}-${m.upper.maxBps}` : undefined,
  };
}

/** What the reference table holds and how its intervals and winners are read. */
function referenceIntro(recipe: ReportRecipe, lines: readonly LineFigures[]): string {
  const reps = recipe.reps;
  return (
    `<p>The seed study compared the variants by their goodput on three lines (its Table 2). Here each line has three columns: <em>study</em>, the study's Table 2 as printed (ns-3 of 2019, one run per cell); <em>ns-3</em>, ns-3 today on the same setup, median and range of 10 runs of 100 s with the SACK setting cclab ran with; <em>cclab</em>, the packet-level simulation, ` +
    (reps > 1
      ? `median of ${reps} runs with seeds derived from seed ${recipe.seed} as a sweep derives them, and its 95% interval (order statistics, distribution-free: ${escapeHtml(coverageText(lines))}). ★ marks the line's winner, only where its interval lies above every other variant's.`
      : `one run (seed derived from ${recipe.seed}); with one run there are no intervals and no winner is marked: run with <code>--reps 10</code>.`) +
    ` The study's Table 1 heads its loss column "%" but its values (1e-4, 1e-3, 0.1) only reproduce its goodputs when read as probabilities, which is how the presets read them. Tahoe has no ns-3 counterpart today; NewReno was not in the study.</p>`
  );
}
