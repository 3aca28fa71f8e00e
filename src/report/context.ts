import type { ComparisonCase } from '../compare/run.js';
import type { Scenario } from '../scenario/types.js';
import type { Variant } from '../variants.js';
import { cclabVersion } from '../page/assets.js';
import { buildChart, type BuiltChart } from '../page/chartkit.js';
import { chartFigure } from '../page/html.js';
import { compactResult } from '../runs/compact.js';
import { chartCount } from './chartCounts.js';
import type { ModelDocSource } from './models.js';
import type { ReportRecipe } from './recipe.js';
import { caseKey, summarise, type ReplicatedFigures } from './replicates.js';
import { lineFigures, type LineFigures } from './seedStudy.js';
import type { StabilityPrep } from './stability.js';
import type { PrebuiltModels } from './sections/models.js';
import type { PrebuiltCwnd } from './sections/cwnd.js';
import { FlagNotes } from './tables.js';

export interface BuildOptions {
  /** Called after each chart is rendered. */
  onChart?: (done: number, total: number, label: string) => void;
  models?: ModelDocSource | null;
  /** The models folder the fluid runs read (default the repository's): where a rule's model is looked up (src/fluid/run/modelChoice.ts). */
  modelsDir?: string;
  /** Output directory as the user named it (for the rerun command). */
  outDir?: string;
  now?: Date;
  /** Replicated packet figures per case (caseKey); default: each case's own packet run. */
  replicates?: ReadonlyMap<string, ReplicatedFigures>;
  /** The stability section's run-independent part, computed while the replications ran (report/stability.ts). */
  stability?: StabilityPrep;
  /** The recipe's contrast: its scenarios, their replicated packet figures (caseKey) and, when the fluid engine ran, the goodputs of the fluid runs beside them (runs/agreement.ts). */
  contrast?: { scenarios: readonly Scenario[]; figures: ReadonlyMap<string, ReplicatedFigures>; fluid?: ReadonlyMap<string, readonly number[]> };
  /** Charts built ahead from the same requests (build.ts prebuildCharts), by {@link chartKey}: taken instead of building them again. */
  prebuilt?: ReadonlyMap<string, BuiltChart>;
  /** The models section made ahead (sections/models.ts modelsSection takes it when made from the same inputs). */
  prebuiltModels?: PrebuiltModels;
  /** The cwnd sections made ahead from `cases` (sections/cwnd.ts cwndSectionsOf takes them for the same charted runs). */
  prebuiltCwnd?: PrebuiltCwnd;
}

/** A chart request's identity: buildChart is a pure function of it. */
export const chartKey = (r: Parameters<typeof buildChart>[0]): string => JSON.stringify(r);

/** Renders a chart, counts it for progress and returns its figure's HTML. */
export type ChartAdder = (r: Parameters<typeof buildChart>[0]) => Promise<string>;

/** What every section builder of one report reads (and the lists they append to). */
export interface ReportContext {
  recipe: ReportRecipe;
  cases: readonly ComparisonCase[];
  opts: BuildOptions;
  warnings: string[];
  /** Relative path -> content. */
  files: Map<string, string>;
  charts: BuiltChart[];
  add: ChartAdder;
  /** Counts a chart built ahead as {@link add} counts one it builds, and returns its figure's HTML. */
  take: (c: BuiltChart) => string;
  version: string;
  scenarios: Scenario[];
  scenarioNames: string[];
  variants: Variant[];
  order: { scenarioOrder: string[]; variantOrder: Variant[] };
  /** Packet figures per case (caseKey): replicated, or the case's own run. */
  figures: Map<string, ReplicatedFigures>;
  lines: LineFigures[];
  /** The flag notes the goodput and comparison tables number. */
  notes: FlagNotes;
}

/** The context of one report: its scenarios and variants in page order, the packet figures per case, the chart counter. */
export function reportContext(recipe: ReportRecipe, cases: readonly ComparisonCase[], opts: BuildOptions): ReportContext {
  const warnings: string[] = [];
  const scenarios = [...new Map(cases.map((c) => [c.scenario.name, c.scenario])).values()];
  const scenarioNames = scenarios.map((s) => s.name);
  const variants = recipe.variants.filter((v) => cases.some((c) => c.comparison.variant === v));
  const figures = new Map<string, ReplicatedFigures>();
  for (const c of cases) {
    const key = caseKey(c.scenario.name, c.comparison.variant);
    figures.set(key, opts.replicates?.get(key) ?? summarise([c.packet.spec.seed], c.packet.status === 'ok' ? [compactResult(c.packet)] : []));
  }
  const lines: LineFigures[] = scenarios.map((s) => lineFigures(s, variants, figures));
  // What failed is marked on the page and also said on stderr, by case and reason.
  for (const c of cases) for (const f of c.comparison.flags) if (f.code === 'run-failed') warnings.push(`${c.scenario.name}/${c.comparison.variant}: ${f.message}`);
  const totalCharts = chartCount(recipe, cases.length);
  let doneCharts = 0;
  const charts: BuiltChart[] = [];
  const take = (c: BuiltChart): string => {
    charts.push(c);
    opts.onChart?.(++doneCharts, totalCharts, c.page.title);
    return chartFigure(c.page);
  };
  const add: ChartAdder = async (r) => take(opts.prebuilt?.get(chartKey(r)) ?? (await buildChart(r)));
  return {
    recipe, cases, opts, warnings, files: new Map(), charts, add, take, version: cclabVersion(),
    scenarios, scenarioNames, variants, order: { scenarioOrder: scenarioNames, variantOrder: [...variants] }, figures, lines, notes: new FlagNotes(),
  };
}
