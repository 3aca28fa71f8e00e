import { join } from 'node:path';
import { writeFileAtomic } from '../io/atomicWrite.js';
import { executeRuns, type ExecuteOptions, type RunRecord } from '../runs/execute.js';
import { inShard, type Shard } from '../runs/shard.js';
import { pointRows, summarise, type PointRow, type VariantSummary } from './analyse.js';
import { expandGrid, randomLossEvents, type ValidateGrid, type ValidatePoint } from './grid.js';
import { validateReport } from './report.js';

export interface ValidateOptions extends ExecuteOptions {
  grid: ValidateGrid;
  /** Output folder (index.html, points.csv, summary.csv); omit to write nothing. */
  outDir?: string;
  shard?: Shard;
}

export interface ValidateOutcome {
  points: ValidatePoint[];
  records: RunRecord[];
  /** Runs of the whole grid (all shards). */
  gridRuns: number;
  /** Null for a shard: the table needs every run (assemble with an unsharded run on the same cache). */
  rows: PointRow[] | null;
  summary: VariantSummary[] | null;
  /** CPU seconds the runs took when they ran (cached ones included), per engine. */
  wallS: { packet: number; fluid: number };
}

/**
 * `cclab validate`: run the grid with both engines through the sweep machinery (cache, workers,
 * shards), then tabulate the agreement. A shard only fills the cache; the unsharded command on the
 * same cache then runs nothing and writes the table.
 */
export async function runValidate(opts: ValidateOptions): Promise<ValidateOutcome> {
  const { points, runs } = expandGrid(opts.grid, randomLossEvents(opts.modelsDir));
  const mine = runs.filter((r) => inShard(r.index, opts.shard));
  const records = await executeRuns(mine, opts);
  const wallS = { packet: 0, fluid: 0 };
  for (const r of records) wallS[r.spec.engine] += r.result.wallS;
  if (opts.shard) return { points, records, gridRuns: runs.length, rows: null, summary: null, wallS };
  const rows = pointRows(points, records, opts.grid.minLossEvents);
  const summary = summarise(rows);
  if (opts.outDir !== undefined) {
    const page = await validateReport(opts.grid, rows, summary, opts.modelsDir);
    for (const f of page.files) writeFileAtomic(join(opts.outDir, f.path), f.text);
    writeFileAtomic(join(opts.outDir, 'index.html'), page.html);
  }
  return { points, records, gridRuns: runs.length, rows, summary, wallS };
}
