import { InputError } from '../errors.js';

/** Part `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `--shard i/N` (1 <= i <= N). */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new InputError('--shard', `expects i/N with 1 <= i <= N (e.g. 2/8), got "${text}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) {
    throw new InputError('--shard', `expects i/N with 1 <= i <= N (1-based; Slurm: $SLURM_ARRAY_TASK_ID with --array=1-N), got "${text}"`);
  }
  return { index, count };
}

/**
 * Whether the run at plan position `runIndex` belongs to `shard`. Round-robin over plan order: the
 * assignment is a pure function of the plan, disjoint and covering, and neighbouring runs (similar
 * cost: same point, another replication) spread over shards, which balances their run times.
 */
export function inShard(runIndex: number, shard: Shard | undefined): boolean {
  return shard === undefined || runIndex % shard.count === shard.index - 1;
}

/** How many of `runs` runs (plan positions 0 .. runs - 1) fall in `shard`. */
export function shardSize(runs: number, shard: Shard): number {
  return runs >= shard.index ? Math.floor((runs - shard.index) / shard.count) + 1 : 0;
}
