import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { writeFileAtomic } from '../io/atomicWrite.js';
import { checkOutDir } from '../io/outDir.js';
import type { CompactRun } from '../runs/compact.js';
import { isCompactRun } from '../runs/compact.js';
import { runsCsv, pointsCsv } from './csv.js';
import type { RunRecord } from '../runs/execute.js';
import { planHash, type SweepPlan } from './grid.js';
import { checkManifest } from './manifestSchema.js';
import { aggregatePoints } from './points.js';
import type { Shard } from '../runs/shard.js';

/** File in every sweep output folder, written first: says the folder is ours to overwrite. */
export const SWEEP_MARKER = '.cclab-sweep';

/**
 * Throws InputError unless `outDir` is absent, empty, or a sweep's output (its marker, or the
 * sweep.json of a folder written before the marker existed): a sweep never mixes its files into
 * someone's unrelated folder (as `cclab report` refuses, src/report/atomicDir.ts).
 */
export function assertSweepOutDir(outDir: string, flag = '--out'): void {
  checkOutDir(outDir, flag);
  if (!existsSync(outDir)) return;
  const entries = readdirSync(outDir);
  if (entries.length > 0 && !entries.includes(SWEEP_MARKER) && !entries.includes('sweep.json')) {
    throw new InputError(flag, `'${outDir}' exists and is not a sweep output folder (no ${SWEEP_MARKER} or sweep.json in it); choose a new or empty folder`);
  }
}

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

/** runs.json entry: the machine-readable run results `cclab merge` reads back (no wall time). */
export interface StoredRun {
  runId: string;
  result: Omit<CompactRun, 'wallS'> & { wallS?: number };
}

/** timings.json entry: how long a run took (0 when it threw) and whether it came from the cache. */
export interface RunTiming {
  runId: string;
  wallS: number;
  cached: boolean;
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
  writeFileAtomic(join(outDir, SWEEP_MARKER), 'Written by cclab sweep/merge. Its files here are replaced by the next run into this folder.\n');
  writeFileAtomic(join(outDir, 'runs.csv'), runsCsv(plan.axes, records));
  writeFileAtomic(join(outDir, 'points.csv'), pointsCsv(plan.axes, points));
  // runs.json holds results only, so the same sweep gives the same bytes; wall times, which differ
  // on every run, go to timings.json.
  const stored: StoredRun[] = records.map((r) => {
    const { wallS: _wallS, ...result } = r.result;
    return { runId: r.spec.runId, result };
  });
  writeFileAtomic(join(outDir, 'runs.json'), JSON.stringify(stored));
  const timings: RunTiming[] = records.map((r) => ({ runId: r.spec.runId, wallS: r.result.wallS, cached: r.cached }));
  writeFileAtomic(join(outDir, 'timings.json'), JSON.stringify(timings));
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

/**
 * Reads an output folder's manifest and runs, checking their shape (sweep.json by its schema,
 * src/sweep/manifestSchema.ts). Wall times come from timings.json when it is there (folders written
 * before it existed kept them in runs.json).
 */
export function readSweepOutput(dir: string): { manifest: SweepManifest; runs: { runId: string; result: CompactRun }[] } {
  const mPath = join(dir, 'sweep.json');
  const rPath = join(dir, 'runs.json');
  const tPath = join(dir, 'timings.json');
  if (!existsSync(mPath) || !existsSync(rPath)) {
    throw new InputError(dir, 'is not a finished sweep output (no sweep.json/runs.json; did the sweep or shard complete?)');
  }
  const readJson = (p: string): unknown => {
    try {
      return JSON.parse(readFileSync(p, 'utf8'));
    } catch (e) {
      throw new InputError(p, `is unreadable (${(e as Error).message})`);
    }
  };
  const raw = readJson(mPath);
  checkManifest(raw, mPath);
  const manifest = raw as SweepManifest;
  const runs = readJson(rPath) as StoredRun[];
  const wall = new Map<string, number>();
  if (existsSync(tPath)) {
    const timings = readJson(tPath) as RunTiming[];
    if (!Array.isArray(timings) || !timings.every((t) => typeof t?.runId === 'string' && typeof t.wallS === 'number')) {
      throw new InputError(tPath, 'is not a list of {runId, wallS, cached}');
    }
    for (const t of timings) wall.set(t.runId, t.wallS);
  }
  const withWall = Array.isArray(runs) ? runs.map((r) => ({ runId: r?.runId, result: { ...r?.result, wallS: r?.result?.wallS ?? wall.get(r?.runId) ?? 0 } })) : [];
  if (!Array.isArray(runs) || !withWall.every((r) => typeof r.runId === 'string' && isCompactRun(r.result))) {
    throw new InputError(rPath, 'is not a list of {runId, result}');
  }
  return { manifest, runs: withWall as { runId: string; result: CompactRun }[] };
}
