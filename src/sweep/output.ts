import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { writeFileAtomic } from '../io/atomicWrite.js';
import type { CompactRun } from './compact.js';
import { isCompactRun } from './compact.js';
import { runsCsv, pointsCsv } from './csv.js';
import type { RunRecord } from './execute.js';
import { planHash, type SweepPlan } from './grid.js';
import { aggregatePoints } from './points.js';
import type { Shard } from './shard.js';

/** Format tag of sweep.json, checked by `cclab merge`. */
export const SWEEP_FORMAT = 'cclab-sweep/1';

/** sweep.json: what produced an output folder, so it can be merged, re-run or extended. */
export interface SweepManifest {
  format: typeof SWEEP_FORMAT;
  planHash: string;
  plan: SweepPlan;
  shard: Shard | null;
  /** Runs in this folder (the shard's part or the whole grid). */
  runs: number;
  failed: number;
}

/** runs.json entry: the machine-readable run results `cclab merge` reads back. */
export interface StoredRun {
  runId: string;
  result: CompactRun;
}

/** The report page and the files it links to (paths relative to the output folder). */
export interface ReportPage {
  html: string;
  files: { path: string; text: string }[];
}

/** Builds the report page; injected so this module does not depend on the chart code (and tests can skip it). */
export type ReportWriter = (plan: SweepPlan, records: readonly RunRecord[]) => Promise<ReportPage>;

/**
 * Writes runs.csv, points.csv, runs.json, sweep.json and index.html into `outDir`, each atomically.
 * `records` must be in plan order. sweep.json is written last: its presence marks a complete folder.
 */
export async function writeSweepOutputs(
  outDir: string,
  plan: SweepPlan,
  records: readonly RunRecord[],
  shard: Shard | null,
  report?: ReportWriter,
): Promise<void> {
  const points = aggregatePoints(records);
  writeFileAtomic(join(outDir, 'runs.csv'), runsCsv(plan.axes, records));
  writeFileAtomic(join(outDir, 'points.csv'), pointsCsv(plan.axes, points));
  const stored: StoredRun[] = records.map((r) => ({ runId: r.spec.runId, result: r.result }));
  writeFileAtomic(join(outDir, 'runs.json'), JSON.stringify(stored));
  if (report) {
    const page = await report(plan, records);
    for (const f of page.files) writeFileAtomic(join(outDir, f.path), f.text);
    writeFileAtomic(join(outDir, 'index.html'), page.html);
  }
  const manifest: SweepManifest = {
    format: SWEEP_FORMAT,
    planHash: planHash(plan),
    plan,
    shard,
    runs: records.length,
    failed: records.filter((r) => r.result.status === 'failed').length,
  };
  writeFileAtomic(join(outDir, 'sweep.json'), JSON.stringify(manifest, null, 1) + '\n');
}

/** Reads an output folder's manifest and runs, checking their shape. */
export function readSweepOutput(dir: string): { manifest: SweepManifest; runs: StoredRun[] } {
  const mPath = join(dir, 'sweep.json');
  const rPath = join(dir, 'runs.json');
  if (!existsSync(mPath) || !existsSync(rPath)) {
    throw new InputError(dir, 'is not a finished sweep output (no sweep.json/runs.json; did the sweep or shard complete?)');
  }
  let manifest: SweepManifest;
  let runs: StoredRun[];
  try {
    manifest = JSON.parse(readFileSync(mPath, 'utf8')) as SweepManifest;
    runs = JSON.parse(readFileSync(rPath, 'utf8')) as StoredRun[];
  } catch (e) {
    throw new InputError(dir, `has unreadable sweep.json/runs.json (${(e as Error).message})`);
  }
  if (manifest.format !== SWEEP_FORMAT) throw new InputError(join(dir, 'sweep.json'), `has format ${String(manifest.format)}, expected ${SWEEP_FORMAT}`);
  if (!Array.isArray(runs) || !runs.every((r) => typeof r?.runId === 'string' && isCompactRun(r.result))) {
    throw new InputError(rPath, 'is not a list of {runId, result}');
  }
  return { manifest, runs };
}
