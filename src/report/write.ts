import { relative, resolve } from 'node:path';
import { runComparison, type ComparisonCase, type ProgressFn } from '../compare/run.js';
import type { EngineSet } from '../engines.js';
import { assertReplaceable, writeDirAtomic } from './atomicDir.js';
import { buildReport, chartCount } from './build.js';
import { defaultModelDocs, type ModelDocSource } from './models.js';
import { resolveScenarios, type ReportRecipe } from './recipe.js';

export interface WriteReportOptions {
  /** `onProgress(done, total, label)`: engine runs, then charts, then the write. */
  onProgress?: ProgressFn;
  /** Engines (default: the real ones). */
  engines?: EngineSet;
  /** Comparisons already computed (skips the engines). */
  cases?: ComparisonCase[];
  /** Fluid model equations (default: the fluid engine's; null for none). */
  models?: ModelDocSource | null;
  now?: Date;
  /** Test hook: called with the complete temp directory just before it replaces `outDir`. */
  beforeCommit?: (tmpDir: string) => void;
}

export interface ReportOutput {
  dir: string;
  indexPath: string;
  /** Size of index.html in bytes. */
  pageBytes: number;
  files: string[];
  cases: ComparisonCase[];
  /** Non-fatal problems (e.g. a formula KaTeX could not parse). */
  warnings: string[];
  wallS: number;
}

/**
 * Run the recipe's scenarios x variants with both engines, then write `outDir/index.html` and its data
 * (goodput.csv, tables as CSV and JSON, charts/*.vl.json, recipe.json) atomically: the directory is
 * replaced as a whole, so a crash leaves the previous report intact.
 */
export async function writeReport(recipe: ReportRecipe, outDir: string, opts: WriteReportOptions = {}): Promise<ReportOutput> {
  const t0 = performance.now();
  assertReplaceable(outDir); // fail before minutes of simulation, not after
  const scenarios = resolveScenarios(recipe);
  const runs = opts.cases ? 0 : scenarios.length * recipe.variants.length * 2;
  const nCases = opts.cases?.length ?? scenarios.length * recipe.variants.length;
  const total = runs + chartCount(recipe, nCases) + 1;
  const progress = opts.onProgress;

  const runOpts: Parameters<typeof runComparison>[2] = {};
  if (progress) runOpts.onProgress = (done, _t, label) => progress(done, total, label);
  if (opts.engines) runOpts.engines = opts.engines;
  const cases = opts.cases ?? (await runComparison(scenarios, recipe.variants, runOpts));

  const models = opts.models === undefined ? await defaultModelDocs() : opts.models;
  const shownOut = relative(process.cwd(), resolve(outDir)) || '.';
  const built = await buildReport(recipe, cases, {
    models,
    outDir: shownOut,
    ...(opts.now ? { now: opts.now } : {}),
    ...(progress ? { onChart: (d: number, _t: number, label: string) => progress(runs + d, total, `chart ${label}`) } : {}),
  });
  writeDirAtomic(outDir, built.files, opts.beforeCommit ? { beforeCommit: opts.beforeCommit } : {});
  progress?.(total, total, 'written');
  const dir = resolve(outDir);
  return {
    dir,
    indexPath: resolve(dir, 'index.html'),
    pageBytes: Buffer.byteLength(built.html),
    files: [...built.files.keys()].sort(),
    cases,
    warnings: built.warnings,
    wallS: (performance.now() - t0) / 1000,
  };
}
