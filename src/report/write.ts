import { relative, resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { COMPARISON_LOSS_PROCESS, runComparison, type ComparisonCase, type ProgressFn } from '../compare/run.js';
import { loadClosedForms, loadEngines, prepareScenarioModels, type EngineSet } from '../engines.js';
import type { RunResult } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import { flowVariants } from '../scenario/flowCc.js';
import { hasEngine, type Engine, type Variant } from '../variants.js';
import { caseKey, fluidBeside, replicateFluid, replicatePacket, summarise } from './replicates.js';
import { DEFAULT_ENGINE_MODULE, defaultWorkers } from '../runs/execute.js';
import { estimatedCost, releasePrestarted, RunPool } from '../runs/pool.js';
import type { ExampleFluidRun, StabilityPrep } from './stability.js';
import { compactResult } from '../runs/compact.js';
import { assertReplaceable, writeDirAtomic } from './atomicDir.js';
import type { BuildOptions } from './context.js';
import type { BuiltChart } from '../page/chartkit.js';
import { defaultModelDocs, type ModelDocSource } from './models.js';
import type { PrebuiltModels } from './sections/models.js';
import type { PrebuiltCwnd } from './sections/cwnd.js';
import { resolveContrast, resolveScenarios, type ReportRecipe } from './recipe.js';
import { planPackets, planReport, progressTotal, RunCounter, type PacketPlan, type ReportPlan } from './reportPlan.js';

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

/**
 * The real engines of the charted runs: on the report's worker pool when it has one (ordered among
 * the replications by cost; the workers have the engines compiled already, this thread would compile
 * them a third time), else in this thread. On the pool a fluid run is handed over once `modelsReady`
 * settles (the models are compiled in this thread while the packet runs start).
 */
async function chartedEngines(opts: WriteReportOptions, pool: RunPool | undefined, modelsReady: Promise<unknown>): Promise<EngineSet> {
  if (!pool) return loadEngines({ modelsDir: opts.modelsDir, lossProcess: COMPARISON_LOSS_PROCESS });
  const common = { engineModule: DEFAULT_ENGINE_MODULE, ...(opts.modelsDir !== undefined ? { modelsDir: resolve(opts.modelsDir) } : {}) };
  const closedForms = await loadClosedForms();
  return {
    runPacket: (scenario) => pool.runFull({ ...common, engine: 'packet', scenario }, estimatedCost({ engine: 'packet', scenario })),
    // Hybrid models' loss events are a Poisson process seeded by the charted packet run's seed, as on every other seed.
    runFluid: async (scenario) => {
      await modelsReady;
      return pool.runFull({ ...common, engine: 'fluid', scenario, lossProcess: COMPARISON_LOSS_PROCESS }, estimatedCost({ engine: 'fluid', scenario }));
    },
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
async function comparisonOptions(plan: PacketPlan, opts: WriteReportOptions, count: RunCounter, pool: RunPool | undefined, modelsReady: Promise<unknown>): Promise<Parameters<typeof runComparison>[2]> {
  const { withPacket, withFluid, runs, nCases } = plan;
  const real = opts.engines ?? (opts.cases ? undefined : await chartedEngines(opts, pool, modelsReady));
  const runOpts: Parameters<typeof runComparison>[2] = { ...(pool && !opts.engines ? { concurrent: true } : {}) };
  const progress = count.onProgress;
  if (progress) {
    runOpts.onProgress = (done, _t, label) => {
      count.traced = Math.round((done * runs) / (nCases * 2));
      progress(count.traced + count.reps(), count.total, label);
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

/**
 * The worker pool of a report's runs, unless they run in this thread (injected engines, workers 0,
 * nothing to replicate); it takes the threads the binary started ahead (cli/prestart.ts), and without
 * a pool they are stopped now instead of at exit.
 */
function reportPool(plan: PacketPlan, opts: WriteReportOptions): RunPool | undefined {
  const workers = opts.workers ?? defaultWorkers();
  if (workers > 0 && !opts.engines && (plan.packetReps > 0 || plan.contrastScenarios.length > 0)) return new RunPool(workers);
  void releasePrestarted();
  return undefined;
}

/** The stability example's fluid runs on the pool, their systems compiled here first: the workers' fluid engine is compiled already (0.3 CPU-s instead of 0.8 here). */
const exampleOnPool = (pool: RunPool): ExampleFluidRun => async (scenario, params) => {
  await prepareScenarioModels([scenario]);
  return pool.runFull({ engineModule: DEFAULT_ENGINE_MODULE, engine: 'fluid', scenario, params }, estimatedCost({ engine: 'fluid', scenario }));
};

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

/** Awaited only after the charted runs: a failure meanwhile is not an unhandled rejection. */
function quiet<T>(p: T): T {
  (p as Promise<unknown> | undefined)?.catch(() => {});
  return p;
}

/** The packet replications and the contrast's packet runs: they need no fluid model, so they start before the models are compiled. */
function startPacketBatches(recipe: ReportRecipe, plan: PacketPlan, opts: WriteReportOptions, pool: RunPool | undefined, count: RunCounter): Batches {
  const base = { seed: recipe.seed, ...replicationOptions(opts, pool) };
  const b: Batches = {};
  if (!opts.cases && plan.withPacket) b.packet = quiet(replicatePacket(plan.scenarios, recipe.variants, { ...base, reps: recipe.reps, fromRep: 1, ...count.batch('packet', 'replications') }));
  if (plan.contrastScenarios.length > 0) b.contrastPacket = quiet(replicatePacket(plan.contrastScenarios, recipe.variants, { ...base, reps: recipe.contrast!.reps, ...count.batch('contrastPacket', 'contrast runs') }));
  return b;
}

/** The fluid runs beside the replications (hybrid cases) and the contrast's, once the plan knows which cases are hybrid. */
function startFluidBatches(recipe: ReportRecipe, plan: ReportPlan, opts: WriteReportOptions, pool: RunPool | undefined, count: RunCounter, b: Batches): void {
  const base = { seed: recipe.seed, ...replicationOptions(opts, pool) };
  if (!opts.cases && plan.withPacket && plan.fluidReps > 0) b.fluid = quiet(replicateFluid(plan.scenarios, recipe.variants, plan.hybrid, { ...base, reps: recipe.reps, fromRep: 1, ...count.batch('fluid', 'fluid runs on the packet seeds') }));
  if (plan.contrastScenarios.length > 0 && plan.withFluid && !opts.engines) {
    b.contrastFluid = quiet(fluidBeside(plan.contrastScenarios, recipe.variants, plan.hybrid, { ...base, reps: recipe.contrast!.reps, ...count.batch('contrastFluid', 'contrast fluid runs') }));
  }
}

/** The charted runs, or the failure of the first that failed once every batch has settled (a second, different failure named beside it). */
async function settled(cases: Promise<ComparisonCase[]>, batches: Batches): Promise<ComparisonCase[]> {
  try {
    return await cases;
  } catch (e) {
    await Promise.all(Object.values(batches)).catch((e2: unknown) => {
      const why = e2 instanceof Error ? e2.message : String(e2);
      if (e instanceof Error && e2 !== e && why !== e.message) e.message += ` (the replications failed too: ${why})`;
    });
    throw e;
  }
}

/** An engine left out is not a failure: no "run failed" marks for it. */
function withoutNotRun(cases: ComparisonCase[]): ComparisonCase[] {
  return cases.map((c) => ({
    ...c,
    comparison: { ...c.comparison, flags: c.comparison.flags.filter((f) => !(f.code === 'run-failed' && f.subject !== 'closed-form' && (f.subject === 'fluid' ? c.fluid : c.packet).failure?.startsWith(NOT_RUN))) },
  }));
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

/** The scenario of every case (the charted runs' scenarios, as runComparison makes them). */
function caseScenarios(plan: PacketPlan, recipe: ReportRecipe, opts: WriteReportOptions): Scenario[] {
  return opts.cases ? opts.cases.map((c) => c.scenario) : plan.scenarios.flatMap((base) => recipe.variants.map((variant): Scenario => ({ ...base, variant })));
}

interface Ran {
  plan: ReportPlan;
  cases: ComparisonCase[];
  rest: CaseRunsMap | undefined;
  contrast: BuildOptions['contrast'];
  stability: StabilityPrep;
  models: ModelDocSource | null;
  /** The cwnd section's charts and the models section, built while the workers ran (build.ts prebuildCharts). */
  prebuilt?: { charts: Map<string, BuiltChart>; cwnd: PrebuiltCwnd; models: PrebuiltModels };
}

/** The fluid models' equations for the page (run-independent): the recipe's own, the default ones when it shows equations, else none. */
async function modelDocs(recipe: ReportRecipe, plan: PacketPlan, opts: WriteReportOptions): Promise<ModelDocSource | null> {
  if (opts.models !== undefined) return opts.models;
  return recipe.charts.includes('equations') && plan.withFluid ? defaultModelDocs(opts.modelsDir) : null;
}

/**
 * Every run of the report, settled. With a worker pool the packet runs (charted ones, replications,
 * contrast) are handed to the workers first, since they need no fluid model; this thread then
 * compiles the models, hands over the fluid runs, and computes what the page needs of the scenarios
 * alone (the stability analyses) while the workers run. Without a pool the runs go one after another
 * in this thread, models first.
 */
async function runAll(recipe: ReportRecipe, opts: WriteReportOptions): Promise<Ran> {
  const packets = planPackets(recipe, opts);
  const pool = reportPool(packets, opts);
  try {
    if (!pool) await prepareModels(recipe, opts);
    const count = new RunCounter(opts.onProgress, progressTotal(recipe, packets, packets.packetReps));
    let modelsPrepared!: () => void;
    const modelsReady = new Promise<void>((r) => (modelsPrepared = r));
    const runOpts = await comparisonOptions(packets, opts, count, pool, modelsReady);
    const charted = quiet(opts.cases ? Promise.resolve(opts.cases) : runComparison(packets.scenarios, recipe.variants, runOpts));
    // A turn first, in which the pool hands the charted runs out: the replications' cache keys (hashing, ~0.05 CPU-s) are not on the wall time before them.
    if (pool) await nextTurn();
    const batches = startPacketBatches(recipe, packets, opts, pool, count);
    // This thread's own work meanwhile; the workers hold their next run so that they need not wait for it (RunPool.whileBusy).
    const busy = <T>(f: () => Promise<T>): Promise<T> => (pool ? pool.whileBusy(f) : f());
    const { plan, stability, models, ran, prebuilt } = await busy(async () => {
      try {
        if (pool) await prepareModels(recipe, opts);
      } finally {
        modelsPrepared();
      }
      const plan = await planReport(recipe, opts, packets);
      count.total = plan.total;
      startFluidBatches(recipe, plan, opts, pool, count, batches);
      // Loaded here, not at the top: the stability analyses and the page builder (mathjs, Vega, KaTeX) load while the workers run.
      const [{ prepareStability }, { prebuildCharts }] = await Promise.all([import('./stability.js'), import('./build.js')]);
      const stability = await prepareStability(caseScenarios(packets, recipe, opts), recipe.charts.includes('stability'), pool ? exampleOnPool(pool) : undefined);
      const models = await modelDocs(recipe, packets, opts);
      const ran = withoutNotRun(await settled(charted, batches));
      // The charted runs go first on the pool (RunPool.runFull): their charts are built while the other runs finish.
      const prebuilt = pool && recipe.charts.includes('cwnd') ? await prebuildCharts(recipe, ran, { models, stability, ...(opts.modelsDir !== undefined ? { modelsDir: opts.modelsDir } : {}) }) : undefined;
      return { plan, stability, models, ran, prebuilt };
    });
    const rest = await batches.packet;
    const cases = withFluidRuns(ran, (await batches.fluid) ?? new Map());
    return { plan, cases, rest, contrast: await contrastOf(plan, batches), stability, models, ...(prebuilt ? { prebuilt } : {}) };
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
  const { plan, cases, rest, contrast, stability, models, prebuilt } = await runAll(recipe, opts);
  const { runs, reps, total } = plan;
  const progress = opts.onProgress;
  const replicates = rest
    ? new Map(
        cases.map((c) => {
          const key = caseKey(c.scenario.name, c.comparison.variant);
          const more = rest.get(key) ?? { seeds: [], runs: [] };
          return [key, summarise([c.packet.spec.seed, ...more.seeds], [compactResult(c.packet), ...more.runs])];
        }),
      )
    : undefined;

  const shownOut = relative(process.cwd(), resolve(outDir)) || '.';
  const { buildReport } = await import('./build.js');
  const built = await buildReport(recipe, cases, {
    models,
    ...(opts.modelsDir !== undefined ? { modelsDir: opts.modelsDir } : {}),
    outDir: shownOut,
    ...(replicates ? { replicates } : {}),
    ...(contrast ? { contrast } : {}),
    stability,
    ...(prebuilt ? { prebuilt: prebuilt.charts, prebuiltCwnd: prebuilt.cwnd, prebuiltModels: prebuilt.models } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    ...(progress ? { onChart: (d: number, _t: number, label: string) => progress(runs + reps + d, total, `chart ${label}`) } : {}),
  });
  writeDirAtomic(outDir, built.files, opts.beforeCommit ? { beforeCommit: opts.beforeCommit } : {});
  progress?.(total, total, 'written');
  const dir = resolve(outDir);
  return {
    dir,
    indexPath: resolve(dir, 'index.html'),
    pageBytes: built.pageBytes,
    files: [...built.files.keys()].sort(),
    cases,
    warnings: built.warnings,
    wallS: (performance.now() - t0) / 1000,
  };
}
