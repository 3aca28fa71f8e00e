import { availableParallelism } from 'node:os';
import { COMMANDS } from './commands.js';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { addClusterOptions, checkClusterFlags, wantsCluster, type ClusterFlags } from './cluster.js';
import { InputError } from '../errors.js';
import { headlineAxis, setAxis, checkAxes, type Axis, type HeadlineAxis } from '../runs/axes.js';
import { checkPlan, checkPlanSize, planSize, validatePoints, type SweepPlan } from '../sweep/grid.js';
import { DEFAULT_MAX_RUNS } from '../runs/spec.js';
import { parseInteger } from '../units.js';
import { MODELLED_VARIANTS, VARIANTS } from '../variants.js';
import { PRESET_NAMES } from '../scenario/presets.js';
import { estimateLines, progressReporter } from './progress.js';
import { cliWarnings } from './warnings.js';
import { addLineOptions, unitWarnings, parseEngines, parseVariantList, scenarioFromOptions, type ScenarioFlags } from './scenarioOptions.js';

/**
 * `cclab sweep` and `cclab merge`. The sweep flags take ranges (`from..to:lin|log:count` or comma
 * lists); the base scenario comes from the shared scenario parser (--scenario and the non-swept
 * flags), so a sweep point is exactly the scenario `cclab simulate` would build.
 */

/** Line flags a sweep takes as ranges (axes) instead of one value. */
const SWEEP_AXIS_FLAGS = ['--loss', '--bandwidth', '--flows'] as const;

interface SweepFlags extends ClusterFlags, Omit<ScenarioFlags, 'loss' | 'bandwidth' | 'flows' | 'seed'> {
  variants: string;
  engines: string;
  loss?: string;
  rtt?: string;
  bandwidth?: string;
  flows?: string;
  buffer?: string;
  bufferBdp?: string;
  set?: string[];
  reps: string;
  seed: string;
  workers?: string;
  shard?: string;
  cache: string | false;
  out?: string;
  models?: string;
  report: boolean;
  quiet?: boolean;
  dryRun?: boolean;
  maxRuns: string;
}

/** `--max-runs`: the cap on a sweep's runs (grid.ts DEFAULT_MAX_RUNS unless raised). */
function parseMaxRuns(text: string): number {
  const n = parseInteger(text, '--max-runs');
  if (n < 1) throw new InputError('--max-runs', `must be a whole number >= 1, got ${n}`);
  return n;
}

const collect = (v: string, acc: string[] = []) => [...acc, v];

/** Most worker threads `--workers` accepts. */
const MAX_WORKERS = 256;

/** Builds the plan from the flags (exported for tests). */
export function planFromFlags(o: SweepFlags): SweepPlan {
  const engines = parseEngines(o.engines);
  const variants = parseVariantList(o.variants);
  const seed = parseInteger(o.seed, '--seed');
  // Every scenario flag but the axes (and the sweep's seed, from which each run's seed is derived).
  const { loss: _l, bandwidth: _b, flows: _f, seed: _s, ...line } = o;
  const base = scenarioFromOptions(line, variants[0]!);
  const axes: Axis[] = [];
  const headline: [HeadlineAxis, string | undefined][] = [
    ['loss', o.loss], ['rtt', o.rtt], ['bandwidth', o.bandwidth], ['flows', o.flows], ['buffer', o.buffer], ['bufferBdp', o.bufferBdp],
  ];
  for (const [key, text] of headline) if (text !== undefined) axes.push(headlineAxis(key, text));
  for (const s of o.set ?? []) axes.push(setAxis(base, s));
  checkAxes(base, axes);
  return { base, axes, variants, engines, reps: parseInteger(o.reps, '--reps'), seed };
}

/** The nominal bottleneck is not the tightest link at some grid point (e.g. --bandwidth above the access rate). */
function warnings(plan: SweepPlan): string[] {
  const bw = plan.axes.find((a) => a.name === 'bandwidthBps');
  if (!bw) return cliWarnings(plan.base);
  const top = Math.max(...bw.values.map(Number));
  return cliWarnings({ ...plan.base, bottleneck: { ...plan.base.bottleneck, bandwidthBps: top } });
}

export function register(program: Command): void {
  const sweep = program
    .command('sweep')
    .description(COMMANDS.sweep.description)
    .option('--variants <list>', `congestion controls (${VARIANTS.join(', ')}; default: those with a fluid model)`, MODELLED_VARIANTS.join(','))
    .option('--engines <list>', 'engines: packet, fluid', 'packet,fluid')
    .option('--loss <range>', 'bottleneck loss probability, e.g. 1e-5..1e-1:log:9, 1e-4,1e-3 or 0.1%,1% (default: not swept)')
    .option('--rtt <range>', "flow 0's base round-trip propagation delay, e.g. 10ms..400ms:log:8 (every link delay scaled by one factor) (default: not swept)")
    .option('--bandwidth <range>', 'bottleneck rate, e.g. 1Mbps..100Mbps:log:3 (default: not swept)')
    .option('--flows <range>', 'number of flows, e.g. 1,2,4 (default: not swept)')
    .option('--buffer <range>', 'bottleneck queue in packets, e.g. 10..1000:log:5 (default: not swept)')
    .option('--buffer-bdp <range>', 'bottleneck queue as a multiple of the BDP, e.g. 0.25..4:log:5 (default: not swept)')
    .option('--set <path=range>', 'sweep any scenario field by path, repeatable (e.g. tcp.minRtoS=200ms,1s; flows.*.access.delayS=5ms,50ms) (default: none)', collect)
    .option('--reps <n>', 'replications per point (distinct derived seeds; deterministic engines run once)', '5')
    .option('--seed <n>', 'sweep seed every run seed is derived from', '1')
    .option('--scenario <name|file>', `base scenario: preset (${PRESET_NAMES.join(', ')}) or a .json/.yaml file`, 'normal')
    .option('--duration <time>', "simulated time of each run, e.g. 20s (default: the scenario's; presets 100 s)")
    .option('--models <dir>', "folder of fluid model files (default: the repository's models/)")
    .option('--workers <n>', `worker threads (default: cores = ${availableParallelism()}; 0 = in this thread)`)
    .option('--shard <i/N>', 'run only the i-th of N disjoint parts (1-based), for job arrays; combine with cclab merge (default: every run)')
    .option('--cache <dir>', 'run cache folder (content-addressed, shared with report and validate)', '.cache/runs')
    .option('--no-cache', 'do not read or write the run cache')
    .option('--no-report', 'skip index.html')
    .option('--dry-run', 'print the number of runs, how many are cached and an estimated time, and exit (no --out needed)')
    .option('--max-runs <n>', 'refuse a sweep of more runs than this', String(DEFAULT_MAX_RUNS))
    .option('--quiet', 'no progress output')
    .option('--out <dir>', 'output folder, e.g. reports/loss-rtt (required unless --dry-run)');
  // The base scenario's flags, from the one parser every command shares (the axes above are ranges; the
  // base's delays and queues are what --rtt scales and --buffer replaces).
  addLineOptions(sweep, { except: SWEEP_AXIS_FLAGS });
  addClusterOptions(sweep, 'sweep').action(sweepAction);
  registerMerge(program);
}

/** What the sweep's flags resolve to beyond the plan. */
interface SweepSettings {
  shard: Shard | undefined;
  workers: number;
  maxRuns: number;
  cacheDir: string | null;
  modelsDir: string | undefined;
}

type Shard = ReturnType<typeof import('../runs/shard.js').parseShard>;

/** The flags beyond the plan, checked; with --out, the output and cache folders checked before any run. */
async function sweepSettings(o: SweepFlags, plan: SweepPlan): Promise<SweepSettings> {
  const { parseShard } = await import('../runs/shard.js');
  const shard = o.shard === undefined ? undefined : parseShard(o.shard);
  const workers = o.workers === undefined ? availableParallelism() : parseInteger(o.workers, '--workers');
  // Each worker is a thread with its own heap: thousands would exhaust memory before any run.
  if (workers < 0 || workers > MAX_WORKERS) throw new InputError('--workers', `must be a whole number in [0, ${MAX_WORKERS}], got ${workers}`);
  const maxRuns = parseMaxRuns(o.maxRuns);
  checkPlan(plan);
  checkPlanSize(plan, maxRuns);
  const cacheDir = o.cache === false ? null : resolve(o.cache);
  if (!o.dryRun) {
    if (o.out === undefined) throw new InputError('--out', 'is required (the output folder, e.g. reports/loss-rtt), unless --dry-run');
    // Where the results go must be usable before hours of runs (runSweep checks again).
    const [{ assertSweepOutDir }, { checkOutDir }] = await Promise.all([import('../sweep/output.js'), import('../io/outDir.js')]);
    assertSweepOutDir(o.out);
    if (o.cache !== false) checkOutDir(o.cache, '--cache');
  }
  return { shard, workers, maxRuns, cacheDir, modelsDir: o.models === undefined ? undefined : resolve(o.models) };
}

async function sweepAction(o: SweepFlags, cmd: Command): Promise<void> {
  checkClusterFlags(o);
  const plan = planFromFlags(o);
  const [settings, { engineCodeVersion }] = await Promise.all([sweepSettings(o, plan), import('../runs/codeVersion.js')]);
  // After every check: a refused sweep prints its one error line and nothing else.
  for (const w of [...unitWarnings({ ...o, bandwidth: undefined }), ...warnings(plan)]) process.stderr.write(`cclab: warning: ${w}\n`);
  const { modelsDir } = settings;
  if (plan.engines.includes('fluid')) {
    // Compile missing models here, once, before workers start (a broken file fails fast, by name).
    const [{ prepareFluidModels }, { flowVariants }] = await Promise.all([import('../engines.js'), import('../scenario/flowCc.js')]);
    await prepareFluidModels([...new Set([...plan.variants, ...flowVariants(plan.base)])], { modelsDir });
  }
  if (wantsCluster(o)) return (await import('./clusterJobs.js')).sweepOnCluster(o, cmd, plan);
  const codeVersion: CodeVersionFn = (e) => engineCodeVersion(e, undefined, { modelsDir });
  if (o.dryRun) return dryRun(o, plan, settings, codeVersion);
  return runAndReport(o, plan, settings, codeVersion);
}

type CodeVersionFn = (e: Parameters<typeof import('../runs/codeVersion.js').engineCodeVersion>[0]) => string;

/** --dry-run: the runs, how many are cached and an estimated time; every point is checked, one at a time, before any run is built. */
async function dryRun(o: SweepFlags, plan: SweepPlan, settings: SweepSettings, codeVersion: CodeVersionFn): Promise<void> {
  const { shard, workers, maxRuns, cacheDir } = settings;
  const [{ shardSize, inShard }, { expandPlan }, { estimateSweep }] = await Promise.all([import('../runs/shard.js'), import('../sweep/grid.js'), import('../sweep/estimate.js')]);
  validatePoints(plan);
  const { points, runs } = planSize(plan);
  const mine = shard ? shardSize(runs, shard) : runs;
  // The runs themselves (bounded by --max-runs, as a real sweep builds them) for the cache look-up.
  const parallel = Math.max(1, workers);
  const est = estimateSweep(expandPlan(plan, maxRuns).filter((r) => inShard(r.index, shard)), { cacheDir, workers: parallel, codeVersion });
  process.stdout.write(
    `${points} points x ${plan.variants.length} variants x ${plan.engines.join('+')} = ${runs} runs${shard ? `, ${mine} in shard ${o.shard}` : ''}\n` +
      estimateLines(est, cacheDir === null ? null : (o.cache as string), parallel),
  );
}

/** The sweep itself, with progress and a resumable Ctrl-C, then its one-line summary. */
async function runAndReport(o: SweepFlags, plan: SweepPlan, settings: SweepSettings, codeVersion: CodeVersionFn): Promise<void> {
  const out = o.out!;
  const [{ runSweep }, { sweepReportHtml }] = await Promise.all([import('../sweep/sweep.js'), import('../sweep/report.js')]);
  const progress = progressReporter({ name: 'sweep', quiet: o.quiet });
  // Ctrl-C: restore the terminal (the bar hides the cursor) and say how to resume; finished runs
  // are already in the cache, in-flight ones are simply lost.
  const onInterrupt = () => {
    progress.stop();
    process.stderr.write('\ncclab: interrupted; finished runs are cached, run the same command again to resume\n');
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  const t0 = performance.now();
  const { shard } = settings;
  const outcome = await runSweep(plan, {
    outDir: out,
    cacheDir: settings.cacheDir,
    workers: settings.workers,
    shard,
    maxRuns: settings.maxRuns,
    modelsDir: settings.modelsDir,
    codeVersion,
    report: o.report ? sweepReportHtml : undefined,
    onProgress: (p) => progress.update(p),
  }).finally(() => {
    progress.stop();
    process.off('SIGINT', onInterrupt);
  });
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  process.stdout.write(`sweep: ${outcome.records.length}${shard ? ` of ${outcome.gridRuns}` : ''} runs (${outcome.cached} cached, ${outcome.failed} failed) in ${secs} s -> ${out}\n`);
  // Runs that threw (worker crash, out of memory, an engine bug) are not cached and may succeed on
  // a re-run: exit 1 so a job array retries. Runs the engine itself reported as failed are results.
  const threw = outcome.records.filter((r) => r.result.failure?.startsWith('threw:')).length;
  if (threw > 0) {
    process.stderr.write(`cclab: ${threw} runs threw (see runs.csv, column failure); re-run to retry them\n`);
    process.exitCode = 1;
  }
}

function registerMerge(program: Command): void {
  program
    .command('merge')
    .description(COMMANDS.merge.description)
    .argument('<dirs...>', 'shard output folders')
    .requiredOption('--out <dir>', 'merged output folder')
    .option('--allow-partial', 'merge even when some runs are missing from every shard')
    .option('--no-report', 'skip index.html')
    .option('--max-runs <n>', 'refuse a sweep of more runs than this (as sweep --max-runs)', String(DEFAULT_MAX_RUNS))
    .action(async (dirs: string[], o: { out: string; allowPartial?: boolean; report: boolean; maxRuns: string }) => {
      const [{ mergeSweeps }, { sweepReportHtml }] = await Promise.all([import('../sweep/merge.js'), import('../sweep/report.js')]);
      const s = await mergeSweeps(dirs, o.out, { allowPartial: o.allowPartial, report: o.report ? sweepReportHtml : undefined, maxRuns: parseMaxRuns(o.maxRuns) });
      process.stdout.write(`merge: ${s.runs} runs from ${s.shards} folders${s.missing ? ` (${s.missing} missing)` : ''} -> ${o.out}\n`);
    });
}
