import { modelSystems } from '../fluid/compiler/systemCache.js';
import { drawsLossEvents } from '../fluid/run/runFluid.js';
import type { Scenario } from '../scenario/types.js';
import { flowVariants } from '../scenario/flowCc.js';
import { hasEngine } from '../variants.js';

/**
 * Which fluid runs stand beside a set of packet runs, for every command that compares the two
 * (report, compare, validate: src/runs/agreement.ts says how they are compared). A model whose
 * loss events are discrete and random (a hybrid model that draws its thresholds with expdraw():
 * Tahoe, CUBIC) runs once per packet seed with its loss events a Poisson process seeded by that
 * seed, so its runs vary as the packet runs do and their medians are compared; a deterministic model
 * (mean-field, or a hybrid one whose events are clocks and timers: BBR) runs once. At their expected
 * times (periodic loss events) CUBIC's model came out 10-13% below the packet engine over validate's
 * loss-limited points: a sawtooth whose every period is the mean period is not the mean sawtooth.
 */

/**
 * Whether the fluid run of a scenario (with its variant) has random discrete loss events, so that the
 * comparisons run it once per packet seed: a predicate per scenario, because the model that stands
 * for a flow depends on the scenario (src/fluid/run/modelChoice.ts: Reno alone on an active queue
 * runs its hybrid lone-flow model, elsewhere its mean-field one) and FQ-CoDel's per-flow queues keep
 * periodic events. report, compare and validate all decide through this one function. A scenario the
 * fluid engine cannot run (a variant without a model, a finite transfer) is deterministic here: its
 * one fluid run fails and says why.
 */
export function randomLossEvents(modelsDir?: string): (scenario: Scenario) => boolean {
  const models = modelSystems(modelsDir);
  // A report asks about each case several times (plan, replications, contrast); the seed decides nothing here.
  const known = new Map<string, boolean>();
  return (scenario) => {
    if (!flowVariants(scenario).every((v) => hasEngine(v, 'fluid'))) return false;
    const key = JSON.stringify({ ...scenario, seed: 0 });
    let draws = known.get(key);
    if (draws === undefined) known.set(key, (draws = drawsLossEvents(scenario, { models })));
    return draws;
  };
}

/** One fluid run beside packet runs: its replication, seed, and whether its loss events are Poisson. */
export interface FluidRunPlan {
  rep: number;
  seed: number;
  lossProcess?: 'poisson';
}

/**
 * The fluid runs beside packet runs on `seeds`: one per seed with Poisson loss events for a hybrid
 * model, else one (seeded `deterministicSeed`: the engine ignores it, and the run cache keys it as 0).
 */
export function fluidRunPlan(hybrid: boolean, seeds: readonly number[], deterministicSeed = 1): FluidRunPlan[] {
  if (hybrid) return seeds.map((seed, rep) => ({ rep, seed, lossProcess: 'poisson' as const }));
  return [{ rep: 0, seed: deterministicSeed }];
}
