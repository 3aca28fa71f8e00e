import type { Scenario } from '../scenario/types.js';
import type { Engine, Variant } from '../variants.js';
import type { Axis, AxisValue } from './axes.js';
import { hashOf } from './hash.js';

/**
 * Engines whose result does not depend on the seed (the fluid models draw no random numbers): they
 * run one replication per point, since more would repeat the same computation; points.csv then
 * shows n = 1 and no interval for them.
 */
export const DETERMINISTIC_ENGINES: readonly Engine[] = ['fluid'];

/** Replications an engine runs at each point. */
export function repsFor(engine: Engine, reps: number): number {
  return DETERMINISTIC_ENGINES.includes(engine) ? 1 : reps;
}

/** One run of the grid. */
export interface RunSpec {
  /** Position in plan order: points (first axis outermost), then variant, engine, replication. */
  index: number;
  /**
   * `<pointId>-<variant>-<engine>-r<rep>`: depends only on the point's values, not on the grid it sits
   * in, so it survives extending a grid and matches across shards and machines.
   */
  runId: string;
  pointId: string;
  /** Axis values, in `plan.axes` order. */
  point: AxisValue[];
  variant: Variant;
  engine: Engine;
  rep: number;
  seed: number;
  scenario: Scenario;
  /** Fluid runs only: 'poisson' runs a hybrid model's loss events as a Poisson process seeded by `seed` (EngineOptions). */
  lossProcess?: 'poisson';
}

/** The point as a name → value record (runs.csv columns, seed and id derivation). */
export function pointRecord(axes: readonly Axis[], point: readonly AxisValue[]): Record<string, AxisValue> {
  return Object.fromEntries(axes.map((a, i) => [a.name, point[i]!]));
}

/** Stable id of a grid point: 10 hex digits of the hash of its named values. */
export function pointIdOf(axes: readonly Axis[], point: readonly AxisValue[]): string {
  return `p${hashOf(pointRecord(axes, point)).slice(0, 10)}`;
}

/**
 * Runs a sweep or a validate grid may have unless `--max-runs` raises the cap. Expanding 120,000 runs takes about 20 s
 * and 200 MB here; more is almost always a typo in a range count (`:log:10000` on two axes is 10^8).
 */
export const DEFAULT_MAX_RUNS = 100_000;
