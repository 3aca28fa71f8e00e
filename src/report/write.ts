import { relative, resolve } from 'node:path';
import { COMPARISON_LOSS_PROCESS, runComparison, type ComparisonCase, type ProgressFn } from '../compare/run.js';
import { loadClosedForms, loadEngines, prepareScenarioModels, type EngineSet } from '../engines.js';
import type { RunResult } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import { flowVariants } from '../scenario/flowCc.js';
import { hasEngine, type Engine, type Variant } from '../variants.js';
import { caseKey, fluidBeside, fluidBesideCount, replicateFluid, replicatePacket, reportSeed, summarise, type HybridCase } from './replicates.js';
import { randomLossEvents } from '../runs/modelRuns.js';
import { DEFAULT_ENGINE_MODULE, defaultWorkers } from '../runs/execute.js';
import { estimatedCost, RunPool } from '../runs/pool.js';
import { prepareStability, type StabilityPrep } from './stability.js';
import { compactResult } from '../runs/compact.js';
import { assertReplaceable, writeDirAtomic } from './atomicDir.js';
import { buildReport, chartCount, type BuildOptions } from './build.js';
import { defaultModelDocs, type ModelDocSource } from './models.js';
import { resolveContrast, resolveScenarios, type ReportRecipe } from './recipe.js';

export interface WriteReportOptions {
  /** `onProgress(done, total, label)`: engine runs, then charts, then the write. */
  onProgress?: ProgressFn;
  /** Engines (default: the real ones, with `modelsDir`). */
  engines?: EngineSet;
  /** Directory of fluid model files (default: the repository's models/). */
  modelsDir?: string;
  /** Run cache for the replications (shared with sweeps); default none. */
  cacheDir?: string | null;
  /** Worker threads for the replications (default: cores; 0 in this thread). */
  workers?: number;
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

/** A run of an engine the recipe leaves out: failed with that reason, so its columns show '–'. */
function notRun(engine: Engine, s: Scenario): RunResult {
  const zero = { goodputBps: NaN, throughputBps: NaN, meanCwndBytes: NaN, meanCwndSegments: NaN, retransmits: 0, timeouts: 0, fastRecoveries: 0, lossRate: NaN };
  return {
    engine, variant: s.variant, scenario: s.name, spec: s, durationS: s.durationS, mssBytes: s.mssBytes, status: 'failed', failure: `${NOT_RUN} (engines: the recipe leaves ${engine} out)`,
    summary: { ...zero, drops: { queue: 0, random: 0, ackRandom: 0, ackQueue: 0 } }, flows: [], queue: { packets: { t: [], v: [] } }, stats: { wallS: 0 },
  };
}
const NOT_RUN = 'not run';

/** What a report runs, and the steps its progress counts: engine runs, replications, contrast runs, charts, the write. */
interface ReportPlan {
  /** The recipe's scenarios, each seeded as replication 0. */
  scenarios: Scenario[];
  withPacket: boolean;
  withFluid: boolean;
  nCases: number;
  /** Charted engine runs. */
  runs: number;
  contrastScenarios: Scenario[];
  contrastRuns: number;
  /** Whether a case's fluid run goes once per packet seed with Poisson loss events (runs/modelRuns.ts); never without both engines. */
  hybrid: HybridCase;
  /** The hybrid cases' fluid runs beyond the charted one. */
  fluidReps: number;
  /** Replications beyond the charted run, contrast runs and the hybrid models' fluid runs included. */
  reps: number;
  total: number;
}

function planReport(recipe: ReportRecipe, opts: WriteReportOptions): ReportPlan {
  // The charted run of each case is replication 0: its seed is derived as every replication's is.
  const scenarios = resolveScenarios(recipe).map((s) => ({ ...s, seed: reportSeed(recipe.seed, s.name, 0) }));
  const withPacket = recipe.engines.includes('packet');
  const withFluid = recipe.engines.includes('fluid');
  const nCases = opts.cases?.length ?? scenarios.length * recipe.variants.length;
  const runs = opts.cases ? 0 : nCases * recipe.engines.length;
  const contrastScenarios = opts.cases || !withPacket ? [] : resolveContrast(recipe);
  const contrastPacketRuns = contrastScenarios.length * recipe.variants.length * (recipe.contrast?.reps ?? 0);
  // The one comparison method (runs/agreement.ts): a model with random loss events runs on every packet seed.
  const hybrid: HybridCase = withFluid && withPacket && !opts.cases && !opts.engines ? randomLossEvents(opts.modelsDir) : () => false;
  const fluidReps = scenarios.reduce((n, s) => n + recipe.variants.filter((v) => hybrid({ ...s, variant: v })).length, 0) * (recipe.reps - 1);
  // The contrast's fluid runs, as the main setup's (a hybrid case on every packet seed).
  const contrastFluidRuns = withFluid && !opts.engines ? fluidBesideCount(contrastScenarios, recipe.variants, hybrid, recipe.contrast?.reps ?? 0) : 0;
  const contrastRuns = contrastPacketRuns + contrastFluidRuns;
  const reps = opts.cases || !withPacket ? 0 : nCases * (recipe.reps - 1) + contrastRuns + fluidReps;
  const total = runs + reps + chartCount(recipe, nCases) + 1;
  return { scenarios, withPacket, withFluid, nCases, runs, contrastScenarios, contrastRuns, hybrid, fluidReps, reps, total };
}

/** The charted runs and the replications advance together: one count of both. */
interface RunCounter {
  traced: number;
  reps: number;
}

/**
 * The real engines of the charted runs: on the report's worker pool when it has one (ordered among
 * the replications by cost; the workers have the engines compiled already, this thread would compile
 * them a third time), else in this thread.
 */
async function chartedEngines(opts: WriteReportOptions, pool: RunPool | undefined): Promise<EngineSet> {
  if (!pool) return loadEngines({ modelsDir: opts.modelsDir, lossProcess: COMPARISON_LOSS_PROCESS });
  const common = { engineModule: DEFAULT_ENGINE_MODULE, ...(opts.modelsDir !== undefined ? { modelsDir: resolve(opts.modelsDir) } : {}) };
  const closedForms = await loadClosedForms();
  return {
    runPacket: (scenario) => pool.runFull({ ...common, engine: 'packet', scenario }, estimatedCost({ engine: 'packet', scenario })),
    // Hybrid models' loss events are a Poisson process seeded by the charted packet run's seed, as on every other seed.
    runFluid: (scenario) => pool.runFull({ ...common, engine: 'fluid', scenario, lossProcess: COMPARISON_LOSS_PROCESS }, estimatedCost({ engine: 'fluid', scenario })),
    closedForms,
  };
}

/**
 * Compiles the fluid models the report's runs need (the recipe's scenarios and its contrast) in this
 * process, before anything asks for one: planReport's randomLossEvents reads the compiled systems, and
 * a miss there, with no compiler loaded yet, compiled every model of the folder in a child process
 * (its own start-up and mathjs import: ~2.5 CPU-s more from an empty model cache, before any run).
 */
async function prepareModels(recipe: ReportRecipe, opts: WriteReportOptions): Promise<void> {
  if (!recipe.engines.includes('fluid') || opts.engines || opts.cases) return;
  const scenarios = [...resolveScenarios(recipe), ...(recipe.engines.includes('packet') ? resolveContrast(recipe) : [])];
  // Variants without a fluid model get "no model" cells (runComparison), not an error: they have no systems.
  const cases = scenarios.flatMap((s) => recipe.variants.map((variant): Scenario => ({ ...s, variant })));
  await prepareScenarioModels(cases.filter((s) => flowVariants(s).every((v) => hasEngine(v, 'fluid'))), { modelsDir: opts.modelsDir });
}

/** The engines of the charted runs (an engine the recipe leaves out answers "not run") and their progress. */
async function comparisonOptions(recipe: ReportRecipe, plan: ReportPlan, opts: WriteReportOptions, count: RunCounter, pool: RunPool | undefined): Promise<Parameters<typeof runComparison>[2]> {
  const { withPacket, withFluid, runs, nCases, total } = plan;
  const real = opts.engines ?? (opts.cases ? undefined : await chartedEngines(opts, pool));
  const runOpts: Parameters<typeof runComparison>[2] = { ...(pool && !opts.engines ? { concurrent: true } : {}) };
  const progress = opts.onProgress;
  if (progress) {
    runOpts.onProgress = (done, _t, label) => {
      count.traced = Math.round((done * runs) / (nCases * 2));
      progress(count.traced + count.reps, total, label);
    };
  }
  if (real) {
    runOpts.engines = {
      runPacket: withPacket ? real.runPacket : (s) => notRun('packet', s),
      runFluid: withFluid ? real.runFluid : (s) => notRun('fluid', s),
      closedForms: real.closedForms,
    };
  }
  return runOpts;
}

/** What every replication call of a report shares: cache, workers (one pool), models, injected engines (which run in this thread). */
function replicationOptions(opts: WriteReportOptions, pool: RunPool | undefined) {
  return {
    cacheDir: opts.cacheDir ?? null,
    ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
    ...(pool ? { pool } : {}),
    ...(opts.modelsDir !== undefined ? { modelsDir: resolve(opts.modelsDir) } : {}),
    ...(opts.engines ? { engines: opts.engines, workers: 0 } : {}),
  };
}

/** The worker pool of a report's replications, unless they run in this thread (injected engines, workers 0, nothing to replicate). */
function reportPool(plan: ReportPlan, opts: WriteReportOptions): RunPool | undefined {
  const workers = opts.workers ?? defaultWorkers();
  return workers > 0 && !opts.engines && plan.reps > 0 ? new RunPool(workers) : undefined;
}

type CaseRunsMap = Awaited<ReturnType<typeof replicateFluid>>;

/**
 * The report's runs beside the charted ones, started together on one pool (runs/pool.ts orders them
 * longest first): the packet replications and the hybrid models' fluid runs on their seeds, and the
 * contrast's packet and fluid runs. None reads another's results.
 */
interface Batches {
  packet?: Promise<CaseRunsMap>;
  fluid?: Promise<CaseRunsMap>;
  contrastPacket?: Promise<CaseRunsMap>;
  contrastFluid?: Promise<Map<string, number[]>>;
}

function startBatches(recipe: ReportRecipe, plan: ReportPlan, opts: WriteReportOptions, pool: RunPool | undefined, count: RunCounter): Batches {
  const base = { seed: recipe.seed, ...replicationOptions(opts, pool) };
  const progress = opts.onProgress;
  const done = { packet: 0, fluid: 0, contrastPacket: 0, contrastFluid: 0 };
  const track = (k: keyof typeof done, label: string) =>
    progress
      ? {
          onProgress: (d: number) => {
            done[k] = d;
            count.reps = done.packet + done.fluid + done.contrastPacket + done.contrastFluid;
            progress(count.traced + count.reps, plan.total, label);
          },
        }
      : {};
  const b: Batches = {};
  if (!opts.cases && plan.withPacket) {
    b.packet = replicatePacket(plan.scenarios, recipe.variants, { ...base, reps: recipe.reps, fromRep: 1, ...track('packet', 'replications') });
    if (plan.fluidReps > 0) b.fluid = replicateFluid(plan.scenarios, recipe.variants, plan.hybrid, { ...base, reps: recipe.reps, fromRep: 1, ...track('fluid', 'fluid runs on the packet seeds') });
  }
  if (plan.contrastScenarios.length > 0) {
    const reps = recipe.contrast!.reps;
    b.contrastPacket = replicatePacket(plan.contrastScenarios, recipe.variants, { ...base, reps, ...track('contrastPacket', 'contrast runs') });
    if (plan.withFluid && !opts.engines) b.contrastFluid = fluidBeside(plan.contrastScenarios, recipe.variants, plan.hybrid, { ...base, reps, ...track('contrastFluid', 'contrast fluid runs') });
  }
  // Awaited only after the charted runs: a failure meanwhile is not an unhandled rejection.
  for (const p of Object.values(b)) (p as Promise<unknown>).catch(() => {});
  return b;
}

/** The charted runs in this thread while the batches run on the workers; settles the batches if the charted runs fail. */
async function runCases(recipe: ReportRecipe, plan: ReportPlan, opts: WriteReportOptions, pool: RunPool | undefined): Promise<{ cases: ComparisonCase[]; batches: Batches }> {
  const count: RunCounter = { traced: 0, reps: 0 };
  const runOpts = await comparisonOptions(recipe, plan, opts, count, pool);
  // The fluid models are compiled (prepareModels, before planReport) before a worker needs them.
  const batches = startBatches(recipe, plan, opts, pool, count);
  let cases: ComparisonCase[];
  try {
    cases = opts.cases ?? (await runComparison(plan.scenarios, recipe.variants, runOpts));
  } catch (e) {
    // Settle the workers before reporting; a second, different failure is named beside the first.
    await Promise.all(Object.values(batches)).catch((e2: unknown) => {
      const why = e2 instanceof Error ? e2.message : String(e2);
      if (e instanceof Error && e2 !== e && why !== e.message) e.message += ` (the replications failed too: ${why})`;
    });
    throw e;
  }
  // An engine left out is not a failure: no "run failed" marks for it.
  cases = cases.map((c) => ({
    ...c,
    comparison: { ...c.comparison, flags: c.comparison.flags.filter((f) => !(f.code === 'run-failed' && f.subject !== 'closed-form' && (f.subject === 'fluid' ? c.fluid : c.packet).failure?.startsWith(NOT_RUN))) },
  }));
  return { cases, batches };
}

/** A hybrid model's goodputs on every packet seed: the charted run's, then the replications' (finished runs only). */
function withFluidRuns(cases: ComparisonCase[], fluidRest: CaseRunsMap): ComparisonCase[] {
  return cases.map((c) => {
    const more = fluidRest.get(caseKey(c.scenario.name, c.comparison.variant));
    if (!more || c.fluid.status !== 'ok') return c;
    const runs = [c.fluid.summary.goodputBps, ...more.runs.filter((r) => r.status === 'ok').map((r) => r.summary.goodputBps)];
    return { ...c, fluidGoodputsBps: runs };
  });
}

/** The contrast's figures (packet only, no charts) and its fluid runs' goodputs, once its batches finish. */
async function contrastOf(plan: ReportPlan, batches: Batches): Promise<BuildOptions['contrast']> {
  if (!batches.contrastPacket) return undefined;
  const figures = await batches.contrastPacket;
  const fluid = await batches.contrastFluid;
  return { scenarios: plan.contrastScenarios, figures: new Map([...figures].map(([k, r]) => [k, summarise(r.seeds, r.runs)])), ...(fluid ? { fluid } : {}) };
}

/** Every run of the report (the charted ones in this thread, the batches on one worker pool), settled. */
async function runAll(recipe: ReportRecipe, plan: ReportPlan, opts: WriteReportOptions): Promise<{ cases: ComparisonCase[]; rest: CaseRunsMap | undefined; contrast: BuildOptions['contrast']; stability: StabilityPrep }> {
  const pool = reportPool(plan, opts);
  try {
    const ran = await runCases(recipe, plan, opts, pool);
    // While the workers run the batches, this thread computes what the page needs of the scenarios alone.
    const stability = await prepareStability(ran.cases, recipe.charts.includes('stability'));
    const rest = await ran.batches.packet;
    const cases = withFluidRuns(ran.cases, (await ran.batches.fluid) ?? new Map());
    return { cases, rest, contrast: await contrastOf(plan, ran.batches), stability };
  } finally {
    await pool?.destroy();
  }
}

/**
 * Run the recipe's scenarios x variants with both engines, then write `outDir/index.html` and its data
 * (goodput.csv, tables as CSV and JSON, charts/*.vl.json, recipe.json) atomically: the directory is
 * replaced as a whole, so a crash leaves the previous report intact.
 */
export async function writeReport(recipe: ReportRecipe, outDir: string, opts: WriteReportOptions = {}): Promise<ReportOutput> {
  const t0 = performance.now();
  assertReplaceable(outDir); // fail before minutes of simulation, not after
  await prepareModels(recipe, opts);
  const plan = planReport(recipe, opts);
  const { runs, reps, total } = plan;
  const progress = opts.onProgress;
  const { cases, rest, contrast, stability } = await runAll(recipe, plan, opts);
  const replicates = rest
    ? new Map(
        cases.map((c) => {
          const key = caseKey(c.scenario.name, c.comparison.variant);
          const more = rest.get(key) ?? { seeds: [], runs: [] };
          return [key, summarise([c.packet.spec.seed, ...more.seeds], [compactResult(c.packet), ...more.runs])];
        }),
      )
    : undefined;

  const models = opts.models === undefined ? (recipe.charts.includes('equations') && plan.withFluid ? await defaultModelDocs(opts.modelsDir) : null) : opts.models;
  const shownOut = relative(process.cwd(), resolve(outDir)) || '.';
  const built = await buildReport(recipe, cases, {
    models,
    ...(opts.modelsDir !== undefined ? { modelsDir: opts.modelsDir } : {}),
    outDir: shownOut,
    ...(replicates ? { replicates } : {}),
    ...(contrast ? { contrast } : {}),
    stability,
    ...(opts.now ? { now: opts.now } : {}),
    ...(progress ? { onChart: (d: number, _t: number, label: string) => progress(runs + reps + d, total, `chart ${label}`) } : {}),
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
