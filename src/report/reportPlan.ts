import type { ComparisonCase, ProgressFn } from '../compare/run.js';
import type { EngineSet } from '../engines.js';
import type { Scenario } from '../scenario/types.js';
import { chartCount } from './chartCounts.js';
import { resolveContrast, resolveScenarios, type ReportRecipe } from './recipe.js';
import { fluidBesideCount, reportSeed, type HybridCase } from './replicates.js';

/**
 * What a report runs and how its progress counts (write.ts runs the plan): the packet side first,
 * which needs no compiled fluid model, then the fluid runs beside it once the models say which cases
 * are hybrid.
 */

/** What of the report's options the plan reads: comparisons given (no runs), injected engines, the models' folder. */
export interface PlanInputs {
  cases?: readonly ComparisonCase[];
  engines?: EngineSet;
  modelsDir?: string;
}

/** What a report runs that needs no compiled fluid model: the scenarios and the packet runs. */
export interface PacketPlan {
  /** The recipe's scenarios, each seeded as replication 0. */
  scenarios: Scenario[];
  withPacket: boolean;
  withFluid: boolean;
  nCases: number;
  /** Charted engine runs. */
  runs: number;
  contrastScenarios: Scenario[];
  /** The contrast's packet runs. */
  contrastPacketRuns: number;
  /** Packet replications beyond the charted runs, the contrast's included. */
  packetReps: number;
}

/** What a report runs, and the steps its progress counts: engine runs, replications, contrast runs, charts, the write. */
export interface ReportPlan extends PacketPlan {
  contrastRuns: number;
  /** Whether a case's fluid run goes once per packet seed with Poisson loss events (runs/modelRuns.ts); never without both engines. */
  hybrid: HybridCase;
  /** The hybrid cases' fluid runs beyond the charted one. */
  fluidReps: number;
  /** Replications beyond the charted run, contrast runs and the hybrid models' fluid runs included. */
  reps: number;
  total: number;
}

export function planPackets(recipe: ReportRecipe, opts: PlanInputs): PacketPlan {
  // The charted run of each case is replication 0: its seed is derived as every replication's is.
  const scenarios = resolveScenarios(recipe).map((s) => ({ ...s, seed: reportSeed(recipe.seed, s.name, 0) }));
  const withPacket = recipe.engines.includes('packet');
  const withFluid = recipe.engines.includes('fluid');
  const nCases = opts.cases?.length ?? scenarios.length * recipe.variants.length;
  const runs = opts.cases ? 0 : nCases * recipe.engines.length;
  const contrastScenarios = opts.cases || !withPacket ? [] : resolveContrast(recipe);
  const contrastPacketRuns = contrastScenarios.length * recipe.variants.length * (recipe.contrast?.reps ?? 0);
  const packetReps = opts.cases || !withPacket ? 0 : nCases * (recipe.reps - 1) + contrastPacketRuns;
  return { scenarios, withPacket, withFluid, nCases, runs, contrastScenarios, contrastPacketRuns, packetReps };
}

/**
 * The whole plan: the packet side and the fluid runs beside it, which need the compiled models
 * (prepareModels) to know which cases are hybrid. runs/modelRuns.ts (the fluid engine's compiled
 * systems) loads here, not with this module: a report hands its first runs out before.
 */
export async function planReport(recipe: ReportRecipe, opts: PlanInputs, packets: PacketPlan): Promise<ReportPlan> {
  const { scenarios, withPacket, withFluid, nCases, contrastScenarios, contrastPacketRuns } = packets;
  const { randomLossEvents } = await import('../runs/modelRuns.js');
  // The one comparison method (runs/agreement.ts): a model with random loss events runs on every packet seed.
  const hybrid: HybridCase = withFluid && withPacket && !opts.cases && !opts.engines ? randomLossEvents(opts.modelsDir) : () => false;
  const fluidReps = scenarios.reduce((n, s) => n + recipe.variants.filter((v) => hybrid({ ...s, variant: v })).length, 0) * (recipe.reps - 1);
  // The contrast's fluid runs, as the main setup's (a hybrid case on every packet seed).
  const contrastFluidRuns = withFluid && !opts.engines ? fluidBesideCount(contrastScenarios, recipe.variants, hybrid, recipe.contrast?.reps ?? 0) : 0;
  const contrastRuns = contrastPacketRuns + contrastFluidRuns;
  const reps = opts.cases || !withPacket ? 0 : nCases * (recipe.reps - 1) + contrastRuns + fluidReps;
  return { ...packets, contrastRuns, hybrid, fluidReps, reps, total: progressTotal(recipe, packets, reps) };
}

/** The steps a report's progress counts: the charted runs, `reps` runs beside them, the charts and the write. */
export function progressTotal(recipe: ReportRecipe, plan: PacketPlan, reps: number): number {
  return plan.runs + reps + chartCount(recipe, plan.nCases) + 1;
}

/**
 * The report's progress: the charted runs and the replications advance together, one count of both,
 * out of a total that grows once the fluid runs are planned (after the models are compiled).
 */
export class RunCounter {
  traced = 0;
  private readonly done = { packet: 0, fluid: 0, contrastPacket: 0, contrastFluid: 0 };

  constructor(
    readonly onProgress: ProgressFn | undefined,
    public total: number,
  ) {}

  /** The progress option of one batch (`k`), or none without a progress callback. */
  batch(k: keyof RunCounter['done'], label: string): { onProgress?: (done: number) => void } {
    const progress = this.onProgress;
    if (!progress) return {};
    return {
      onProgress: (d: number) => {
        this.done[k] = d;
        progress(this.traced + this.reps(), this.total, label);
      },
    };
  }

  reps(): number {
    return this.done.packet + this.done.fluid + this.done.contrastPacket + this.done.contrastFluid;
  }
}
