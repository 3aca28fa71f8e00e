import { existsSync, statSync } from 'node:fs';
import { COMMANDS } from './commands.js';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { addClusterOptions, checkClusterFlags, wantsCluster, type ClusterFlags } from './cluster.js';
import { InputError } from '../errors.js';
import { parseRange } from '../runs/range.js';
import { parseInteger, parseRateBps } from '../units.js';
import { fluidVariants, MODELLED_VARIANTS } from '../variants.js';
import type { ValidateGrid } from '../validate/grid.js';
import { progressReporter } from './progress.js';
import { parseVariantList } from './scenarioOptions.js';

/** The grid (src/validate/grid.ts's DEFAULT_GRID, which test/validate/cli.test.ts checks against these). */
const DEFAULTS = { losses: [1e-5, 1e-4, 1e-3, 1e-2, 5e-2], rttsMs: [10, 30, 100, 300], seeds: 5, seed: 1, bandwidthMbps: 100, minLossEvents: 20 } as const;
/** Worker threads have a heap each: thousands would exhaust memory before any run. */
const MAX_WORKERS = 256;

interface ValidateFlags extends ClusterFlags {
  variants: string;
  loss: string;
  rtt: string;
  reps?: string;
  /** The old name of --reps (hidden): validate called its replications seeds, sweep and report reps. */
  seeds?: string;
  seed: string;
  bandwidth: string;
  minLossEvents: string;
  models?: string;
  workers?: string;
  shard?: string;
  cache: string | false;
  out: string;
  quiet?: boolean;
  dryRun?: boolean;
}

/** The grid from the flags (exported for tests). */
export function gridFromFlags(o: ValidateFlags): ValidateGrid {
  if (o.reps !== undefined && o.seeds !== undefined) throw new InputError('--reps', 'and --seeds (its old name) are both given: give --reps only');
  const repsFlag = o.seeds !== undefined ? '--seeds' : '--reps';
  const seeds = parseInteger(o.reps ?? o.seeds ?? String(DEFAULTS.seeds), repsFlag);
  if (seeds < 1 || seeds > 1000) throw new InputError(repsFlag, `must be a whole number in [1, 1000], got ${seeds}`);
  const losses = parseRange('--loss', o.loss, 'number');
  for (const p of losses) if (!(p > 0 && p < 1)) throw new InputError('--loss', `values must be in (0, 1), got ${p}`);
  const rttsS = parseRange('--rtt', o.rtt, 'duration');
  for (const r of rttsS) if (!(r > 0 && r <= 10)) throw new InputError('--rtt', `values must be in (0, 10] s, got ${r}`);
  const bandwidthBps = parseRateBps(o.bandwidth, '--bandwidth');
  if (!(bandwidthBps >= 1e3 && bandwidthBps <= 1e11)) throw new InputError('--bandwidth', `must be in [1 kbit/s, 100 Gbit/s], got ${o.bandwidth}`);
  const minLossEvents = parseInteger(o.minLossEvents, '--min-loss-events');
  if (minLossEvents < 1 || minLossEvents > 10_000) throw new InputError('--min-loss-events', `must be a whole number in [1, 10000], got ${minLossEvents}`);
  const seed = parseInteger(o.seed, '--seed');
  if (seed < 0 || seed > 2 ** 32 - 1) throw new InputError('--seed', `must be a whole number in [0, 4294967295], got ${seed}`);
  const variants = parseVariantList(o.variants);
  // Validation compares the fluid model with the packet engine: a variant without a model cannot take part.
  const unmodelled = variants.find((v) => !fluidVariants().includes(v));
  if (unmodelled !== undefined) throw new InputError('--variants', `must name variants with a fluid model (${fluidVariants().join(', ')}), got '${unmodelled}'`);
  return { variants, losses, rttsS, seeds, seed, bandwidthBps, minLossEvents };
}

export function register(program: Command): void {
  const d = DEFAULTS;
  const validate = program
    .command('validate')
    .description(COMMANDS.validate.description)
    .option('--variants <list>', 'congestion controls (those with a fluid model)', MODELLED_VARIANTS.join(','))
    .option('--loss <range>', 'random loss rates', d.losses.join(','))
    .option('--rtt <range>', 'base RTTs', d.rttsMs.map((r) => `${r}ms`).join(','))
    .option('--reps <n>', `replications: packet runs per point, distinct derived seeds (a deterministic fluid model runs once, a hybrid one once per replication with Poisson losses) (default: ${d.seeds})`)
    .addOption(new Option('--seeds <n>', 'old name of --reps').hideHelp())
    .option('--seed <n>', 'seed the run seeds are derived from', String(d.seed))
    .option('--bandwidth <rate>', 'bottleneck rate (access links 10x faster)', `${d.bandwidthMbps}Mbps`)
    .option('--min-loss-events <n>', 'loss events each run must see after its first slow start', String(d.minLossEvents))
    .option('--models <dir>', "folder of fluid model files to validate (default: the repository's models/)")
    .option('--workers <n>', `worker threads (default: cores = ${availableParallelism()}; 0 = in this thread)`)
    .option('--shard <i/N>', 'run only the i-th of N parts into the cache; then run without --shard (same --cache) for the table (default: every run)')
    .option('--cache <dir>', 'run cache folder (content-addressed, shared with sweep and report)', '.cache/runs')
    .option('--no-cache', 'do not read or write the run cache')
    .option('--out <dir>', 'output folder: index.html, points.csv, summary.csv', 'reports/validate')
    .option('--dry-run', 'print the grid size and the simulated time, and exit')
    .option('--quiet', 'no progress bar');
  addClusterOptions(validate, 'validation grid').action(validateAction);
}

/** The flags beyond the grid, checked; without --dry-run, the output and cache folders checked before the models compile. */
async function validateSettings(o: ValidateFlags): Promise<{ shard: ReturnType<typeof import('../runs/shard.js').parseShard> | undefined; workers: number; modelsDir: string | undefined }> {
  const { parseShard } = await import('../runs/shard.js');
  const shard = o.shard === undefined ? undefined : parseShard(o.shard);
  const workers = o.workers === undefined ? availableParallelism() : parseInteger(o.workers, '--workers');
  if (workers < 0 || workers > MAX_WORKERS) throw new InputError('--workers', `must be a whole number in [0, ${MAX_WORKERS}], got ${workers}`);
  let modelsDir: string | undefined;
  if (o.models !== undefined) {
    modelsDir = resolve(o.models);
    if (!existsSync(modelsDir) || !statSync(modelsDir).isDirectory()) throw new InputError('--models', `must be a folder of *.model.yaml files, got '${o.models}'`);
  }
  if (!o.dryRun) {
    // Where the results go must be usable before the models compile and the runs (exit 2 naming the path, at once).
    const { checkOutDir } = await import('../io/outDir.js');
    if (!shard) checkOutDir(o.out, '--out');
    if (o.cache !== false) checkOutDir(o.cache, '--cache');
  }
  return { shard, workers, modelsDir };
}

async function validateAction(o: ValidateFlags, cmd: Command): Promise<void> {
  checkClusterFlags(o);
  const grid = gridFromFlags(o);
  const { shard, workers, modelsDir } = await validateSettings(o);
  // Before the models compile: a 10^8-run grid is refused at once. After the folder checks, because
  // validate/grid.js loads the model compiler (mathjs, ~2 s): a bad --out is refused in well under a second.
  (await import('../validate/grid.js')).checkGridSize(grid);
  // Compile (and check) the models once, before workers start: a broken file fails fast, by name.
  const { prepareFluidModels } = await import('../engines.js');
  await prepareFluidModels(grid.variants, { modelsDir });
  if (o.dryRun) return validateDryRun(o, grid, workers, modelsDir);
  if (wantsCluster(o)) return (await import('./clusterJobs.js')).validateOnCluster(o, cmd, grid, modelsDir);
  const { runValidate, summaryText, flaggedText } = await import('../validate/index.js');
  const progress = progressReporter({ name: 'validate', quiet: o.quiet });
  const t0 = performance.now();
  const outcome = await runValidate({
    grid,
    outDir: shard ? undefined : o.out,
    shard,
    cacheDir: o.cache === false ? null : resolve(o.cache),
    workers,
    ...(modelsDir === undefined ? {} : { modelsDir }),
    onProgress: (p) => progress.update(p),
  }).finally(() => progress.stop());
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  const cached = outcome.records.filter((r) => r.cached).length;
  const cpu = `runs took ${outcome.wallS.packet.toFixed(1)} s packet, ${outcome.wallS.fluid.toFixed(1)} s fluid of CPU when computed`;
  if (!outcome.summary || !outcome.rows) {
    process.stdout.write(`validate: shard ${o.shard}: ${outcome.records.length} of ${outcome.gridRuns} runs (${cached} cached) in ${secs} s; ${cpu}\n`);
    return;
  }
  process.stdout.write(`${summaryText(outcome.summary)}\n\n`);
  const flagged = flaggedText(outcome.rows);
  if (flagged) process.stdout.write(`outside the validity regions:\n${flagged}\n\n`);
  process.stdout.write(`validate: ${outcome.records.length} runs (${cached} cached) in ${secs} s; ${cpu} -> ${o.out}\n`);
  const threw = outcome.records.filter((r) => r.result.failure?.startsWith('threw:')).length;
  if (threw > 0) {
    process.stderr.write(`cclab: ${threw} runs threw (see points.csv); re-run to retry them\n`);
    process.exitCode = 1;
  }
}

/** --dry-run: as sweep --dry-run says it: grid points (not points x variants), the simulated time, the cache, an estimated time. */
async function validateDryRun(o: ValidateFlags, grid: ValidateGrid, workers: number, modelsDir: string | undefined): Promise<void> {
  const { expandGrid, randomLossEvents } = await import('../validate/grid.js');
  const { points, runs } = expandGrid(grid, randomLossEvents(modelsDir));
  const simS = runs.reduce((a, r) => a + r.scenario.durationS, 0);
  // Variants with a fluid run per packet seed somewhere on the grid (random loss events there).
  const hybrid = [...new Set(runs.filter((r) => r.engine === 'fluid' && r.lossProcess === 'poisson').map((r) => r.variant))];
  const fluidRuns = hybrid.length === 0 ? '1 fluid' : `1 fluid, ${grid.seeds} for ${hybrid.join(', ')}`;
  const [{ estimateSweep }, { engineCodeVersion }, { estimateLines }] = await Promise.all([import('../sweep/estimate.js'), import('../runs/codeVersion.js'), import('./progress.js')]);
  const cacheDir = o.cache === false ? null : resolve(o.cache);
  const parallel = Math.max(1, workers);
  const est = estimateSweep(runs, { cacheDir, workers: parallel, codeVersion: (e) => engineCodeVersion(e, undefined, { modelsDir }) });
  const gridPoints = grid.losses.length * grid.rttsS.length;
  process.stdout.write(
    `${gridPoints} points (${grid.losses.length} losses x ${grid.rttsS.length} RTTs) x ${grid.variants.length} variants x (${grid.seeds} packet + ${fluidRuns}) = ${runs.length} runs, ${simS.toFixed(0)} s simulated\n` +
      estimateLines(est, o.cache === false ? null : o.cache, parallel),
  );
}
