import { InputError } from '../errors.js';
import type { RunRecord } from '../runs/execute.js';
import { join } from 'node:path';
import { expandPlan, type SweepPlan } from './grid.js';
import type { RunSpec } from '../runs/spec.js';
import { asUserIo } from '../io/outDir.js';
import { assertSweepOutDir, readSweepOutput, writeSweepOutputs, type ReportWriter } from './output.js';

export interface MergeSummary {
  runs: number;
  shards: number;
  missing: number;
}

/**
 * Combines shard output folders into one folder identical to an unsharded run of the same plan:
 * every folder must come from the same plan (same plan hash); runs are put back in plan order.
 * A run present in two folders must agree (shards may overlap when one was re-run); a run missing
 * from every folder is an error unless `allowPartial`, which leaves it out (points.csv then has
 * fewer replications there).
 */
export async function mergeSweeps(dirs: readonly string[], outDir: string, opts: { allowPartial?: boolean; report?: ReportWriter; maxRuns?: number } = {}): Promise<MergeSummary> {
  if (dirs.length === 0) throw new InputError('merge', 'needs at least one shard folder');
  assertSweepOutDir(outDir);
  let plan: SweepPlan | undefined;
  let hash = '';
  const byId = new Map<string, RunRecord['result']>();
  const shardsSeen = new Set<string>();
  for (const dir of dirs) {
    const { manifest, runs } = readSweepOutput(dir);
    if (plan === undefined) {
      plan = manifest.plan;
      hash = manifest.planHash;
    } else if (manifest.planHash !== hash) {
      throw new InputError(dir, `comes from another sweep (plan ${manifest.planHash}, expected ${hash}): shards must share every sweep flag`);
    }
    shardsSeen.add(manifest.shard ? `${manifest.shard.index}/${manifest.shard.count}` : 'all');
    for (const r of runs) {
      const prev = byId.get(r.runId);
      if (prev && JSON.stringify(prev.summary) !== JSON.stringify(r.result.summary)) {
        throw new InputError(dir, `disagrees with another folder on run ${r.runId}`);
      }
      byId.set(r.runId, r.result);
    }
  }
  const specs = expandPlanFrom(plan!, join(dirs[0]!, 'sweep.json'), opts.maxRuns);
  const records: RunRecord[] = [];
  const missing: string[] = [];
  for (const spec of specs) {
    const result = byId.get(spec.runId);
    if (result) records.push({ spec, result, cached: false });
    else missing.push(spec.runId);
  }
  if (missing.length > 0 && !opts.allowPartial) {
    throw new InputError('merge', `is missing ${missing.length} of ${specs.length} runs (e.g. ${missing[0]}); shards seen: ${[...shardsSeen].sort().join(', ')}; use --allow-partial to merge anyway`);
  }
  await asUserIo('--out', () => writeSweepOutputs(outDir, plan!, records, null, opts.report));
  return { runs: records.length, shards: dirs.length, missing: missing.length };
}

/**
 * The runs of a plan read from `source` (a sweep.json): a problem with the plan is reported against
 * the file's field (`plan.axes[0] (loss)`), not the flag that would have set it on a command line.
 */
function expandPlanFrom(plan: SweepPlan, source: string, maxRuns?: number): RunSpec[] {
  try {
    return expandPlan(plan, maxRuns);
  } catch (e) {
    if (!(e instanceof InputError) || e.field === '--max-runs') throw e;
    const i = plan.axes.findIndex((a) => a.flag === e.field);
    const field = i >= 0 ? `plan.axes[${i}] (${plan.axes[i]!.name})` : e.field.startsWith('--') ? 'plan' : `plan: ${e.source ? `${e.source}: ` : ''}${e.field}`;
    throw new InputError(field, e.problem, source);
  }
}
