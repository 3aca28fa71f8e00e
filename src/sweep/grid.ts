import { getCongestionControl } from '../cc/registry.js';
import { InputError } from '../errors.js';
import type { Scenario } from '../scenario/types.js';
import { validateScenario } from '../scenario/check/validate.js';
import type { Engine, Variant } from '../variants.js';
import { scenarioAt, type Axis, type AxisValue } from '../runs/axes.js';
import { hashOf } from '../runs/hash.js';
import { deriveSeed } from '../runs/seed.js';
import { DEFAULT_MAX_RUNS, pointIdOf, pointRecord, repsFor, type RunSpec } from '../runs/spec.js';

/** Everything that defines a sweep; plain JSON (written to sweep.json, hashed to match shards). */
export interface SweepPlan {
  /** Scenario the grid varies; its `variant` and `seed` are replaced per run. */
  base: Scenario;
  axes: Axis[];
  variants: Variant[];
  engines: Engine[];
  /** Replications per grid point (and variant, engine). */
  reps: number;
  /** The one seed all run seeds are derived from. */
  seed: number;
}

/**
 * Swept `ccParams` keys the variant does not declare (e.g. CUBIC's `beta` for Reno): they are
 * dropped from that variant's scenarios, so sweeping a knob of one variant does not make the others
 * fail their parameter check. Reno's runs then differ across `beta` only by their seeds (and its
 * deterministic fluid runs are identical, so computed once).
 */
function foreignCcParams(axes: readonly Axis[], variant: Variant): string[] {
  const known = new Set(getCongestionControl(variant).params.map((p) => p.name));
  return axes.flatMap((a) => (a.path && /^ccParams\.[^.]+$/.test(a.path) ? [a.path.slice('ccParams.'.length)] : [])).filter((k) => !known.has(k));
}

/** The points of the grid one at a time (an odometer, first axis outermost): never all in memory. */
export function* eachPoint(axes: readonly Axis[]): Generator<AxisValue[]> {
  if (axes.some((a) => a.values.length === 0)) return;
  const idx = axes.map(() => 0);
  for (;;) {
    yield axes.map((a, i) => a.values[idx[i]!]!);
    let k = axes.length - 1;
    while (k >= 0 && ++idx[k]! === axes[k]!.values.length) idx[k--] = 0;
    if (k < 0) return;
  }
}

/** Cartesian product of the axes' values, first axis outermost. No axes = one empty point. */
export function gridPoints(axes: readonly Axis[]): AxisValue[][] {
  return [...eachPoint(axes)];
}

/** Flows the expanded grid may hold in all (each run keeps its own scenario): about 300 bytes each. */
export const MAX_GRID_FLOWS = 2_000_000;

/** The size of a plan, by arithmetic on its axes (nothing is expanded). */
export function planSize(plan: SweepPlan): { points: number; runs: number; flows: number } {
  const points = plan.axes.reduce((n, a) => n * a.values.length, 1);
  const perPoint = plan.variants.length * plan.engines.reduce((n, e) => n + repsFor(e, plan.reps), 0);
  const flowsAxis = plan.axes.find((a) => a.path === undefined && a.name === 'flows');
  const flowsPerCopy = flowsAxis
    ? (flowsAxis.values as number[]).reduce((n, v) => n + v, 0) * (points / flowsAxis.values.length)
    : plan.base.flows.length * points;
  return { points, runs: points * perPoint, flows: flowsPerCopy * perPoint };
}

/**
 * Refuses a plan whose expansion would not fit (checked before any point is built).
 * @param flag where the cap comes from, for the message (`--max-runs`).
 */
export function checkPlanSize(plan: SweepPlan, maxRuns: number, flag = '--max-runs'): void {
  const { points, runs, flows } = planSize(plan);
  const shape = `${plan.axes.map((a) => a.values.length).join(' x ') || '1'} points x ${plan.variants.length} variants x ${plan.engines.map((e) => `${repsFor(e, plan.reps)} ${e}`).join(' + ')} runs`;
  if (runs > maxRuns) {
    throw new InputError(flag, `is ${maxRuns}, but the sweep has ${runs} runs (${shape}); shrink a range or raise ${flag}`);
  }
  if (flows > MAX_GRID_FLOWS) {
    const swept = plan.axes.some((a) => a.path === undefined && a.name === 'flows');
    throw new InputError(swept ? '--flows' : '--scenario', `gives the sweep's ${runs} runs ${flows} flows in all, more than the ${MAX_GRID_FLOWS} a sweep can hold; use fewer flows or runs`);
  }
}

export function checkPlan(plan: SweepPlan): void {
  if (!Number.isInteger(plan.reps) || plan.reps < 1) throw new InputError('--reps', `must be a whole number >= 1, got ${plan.reps}`);
  if (plan.variants.length === 0) throw new InputError('--variants', 'needs at least one variant');
  if (plan.engines.length === 0) throw new InputError('--engines', 'needs at least one engine');
  if (!Number.isInteger(plan.seed) || plan.seed < 0) throw new InputError('--seed', `must be a whole number >= 0, got ${plan.seed}`);
  // A swept knob is dropped for the variants without it; one that no variant has would vanish whole.
  for (const a of plan.axes) {
    const key = a.path && /^ccParams\.[^.]+$/.test(a.path) ? a.path.slice('ccParams.'.length) : undefined;
    if (key === undefined) continue;
    if (!plan.variants.some((v) => getCongestionControl(v).params.some((p) => p.name === key))) {
      throw new InputError(a.flag, `sweeps ccParams.${key}, a parameter of none of ${plan.variants.join(', ')}`);
    }
  }
}

/**
 * Checks every point of the plan with every variant (validateScenario), one point at a time,
 * without building the runs: `--dry-run` calls this. The plan's size must have been checked.
 */
export function validatePoints(plan: SweepPlan): void {
  for (const point of eachPoint(plan.axes)) for (const variant of plan.variants) scenarioFor(plan, point, variant);
}

/** The scenario of one point and variant (foreign swept ccParams dropped), validated. */
function scenarioFor(plan: SweepPlan, point: readonly AxisValue[], variant: Variant): Scenario {
  const atPoint = scenarioAt(plan.base, plan.axes, point);
  const atVariant: Scenario = { ...atPoint, variant };
  for (const k of foreignCcParams(plan.axes, variant)) delete atVariant.ccParams[k];
  // Check each point before any run starts: a bad combination (say, flows that start after the
  // end) is a usage error to report now, not hundreds of failed runs later.
  const label = plan.axes.map((a, i) => `${a.name}=${String(point[i])}`).join(', ');
  return validateScenario(atVariant, `sweep point ${label || '(base)'}${plan.variants.length > 1 ? ` (${variant})` : ''}`);
}

/**
 * Expands the plan into its runs, in plan order, after checking its size against `maxRuns`.
 * Invalid points surface here as InputError (validateScenario).
 */
export function expandPlan(plan: SweepPlan, maxRuns = DEFAULT_MAX_RUNS): RunSpec[] {
  checkPlan(plan);
  checkPlanSize(plan, maxRuns);
  const runs: RunSpec[] = [];
  for (const point of eachPoint(plan.axes)) {
    const rec = pointRecord(plan.axes, point);
    const pointId = pointIdOf(plan.axes, point);
    for (const variant of plan.variants) {
      const atVariant = scenarioFor(plan, point, variant);
      for (const engine of plan.engines) {
        for (let rep = 0; rep < repsFor(engine, plan.reps); rep++) {
          const seed = deriveSeed(plan.seed, rec, rep);
          const scenario: Scenario = { ...structuredClone(atVariant), seed };
          runs.push({ index: runs.length, runId: `${pointId}-${variant}-${engine}-r${rep}`, pointId, point, variant, engine, rep, seed, scenario });
        }
      }
    }
  }
  return runs;
}

/** Identity of a plan: shards can be merged only when their plan hashes agree. */
export function planHash(plan: SweepPlan): string {
  return hashOf(plan).slice(0, 16);
}
