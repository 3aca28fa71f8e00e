import { loadModels } from '../fluid/compiler/modelSet.js';
import type { Variant } from '../variants.js';

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
 * The variants among `variants` whose fluid model has random discrete loss events (`form: hybrid`
 * with `expdraw()`).
 */
export function hybridVariants(variants: readonly Variant[], modelsDir?: string): Set<Variant> {
  const set = loadModels(modelsDir);
  // A hybrid model that draws no loss threshold (expdraw(): BBR's, whose events are its clocks and
  // timers) is deterministic: one run serves every seed.
  const draws = (v: Variant): boolean => Object.values(set.system(v).source).some((code) => code.includes('past.draw()'));
  return new Set(variants.filter((v) => set.flows.get(v)?.form === 'hybrid' && draws(v)));
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
