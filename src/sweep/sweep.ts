import { executeRuns, type ExecuteOptions, type RunRecord } from '../runs/execute.js';
import { expandPlan, type SweepPlan } from './grid.js';
import { asUserIo, checkOutDir } from '../io/outDir.js';
import { assertSweepOutDir, writeSweepOutputs, type ReportWriter } from './output.js';
import { inShard, type Shard } from '../runs/shard.js';

export interface SweepOptions extends ExecuteOptions {
  /** Output folder (runs.csv, points.csv, runs.json, sweep.json, index.html). */
  outDir: string;
  shard?: Shard;
  /** Report page writer; omit to skip index.html. */
  report?: ReportWriter;
  /** Cap on the grid's runs (default DEFAULT_MAX_RUNS): checked before the grid is expanded. */
  maxRuns?: number;
}

export interface SweepOutcome {
  records: RunRecord[];
  /** Runs in the whole grid (all shards). */
  gridRuns: number;
  cached: number;
  failed: number;
}

/**
 * Runs a sweep end to end: expand the plan, keep this shard's runs, execute them (cache, workers),
 * write the outputs. Re-running the same command after an interruption recomputes only what the
 * cache lacks; extending a grid recomputes only the new points.
 */
export async function runSweep(plan: SweepPlan, opts: SweepOptions): Promise<SweepOutcome> {
  const all = expandPlan(plan, opts.maxRuns);
  // Before any run: where the results go must be usable (hours of runs, then an error, is no good).
  assertSweepOutDir(opts.outDir);
  if (opts.cacheDir !== null) checkOutDir(opts.cacheDir, '--cache');
  const mine = all.filter((r) => inShard(r.index, opts.shard));
  const records = await executeRuns(mine, opts);
  await asUserIo('--out', () => writeSweepOutputs(opts.outDir, plan, records, opts.shard ?? null, opts.report));
  return {
    records,
    gridRuns: all.length,
    cached: records.filter((r) => r.cached).length,
    failed: records.filter((r) => r.result.status === 'failed').length,
  };
}
