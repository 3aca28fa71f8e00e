import { existsSync } from 'node:fs';
import { COMMANDS } from './commands.js';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../errors.js';
import { asUserIo, checkOutDir } from '../io/outDir.js';
import { formatBytes } from '../compare/format.js';
import { PACKAGE_ROOT } from '../io/packageRoot.js';
import { loadRecipe, MAX_REPORT_REPS, recipeFromFlags, resolveScenarios, type ReportRecipe } from '../report/recipe.js';
import { parseDurationS, parseInteger } from '../units.js';
import { ENGINES, VARIANTS } from '../variants.js';
import { PRESET_NAMES } from '../scenario/presets.js';
import { addLineOptions, hasLineFlags, parseEngines, scenarioWithFlags, splitList, type ScenarioFlags } from './scenarioOptions.js';
import { warnAbout } from './warnings.js';

interface ReportFlags extends Omit<ScenarioFlags, 'scenario' | 'duration' | 'seed'> {
  recipe?: string;
  scenarios?: string;
  variants?: string;
  duration?: string;
  seed?: string;
  out?: string;
  name?: string;
  title?: string;
  charts?: string;
  reps?: string;
  engines?: string;
  models?: string;
  cache?: string | false;
  workers?: string;
  quiet?: boolean;
}

/** `reports/recipes/<name>.yaml` in the working directory, else the one shipped with cclab. */
function namedRecipe(name: string): string | undefined {
  return [join('reports', 'recipes', `${name}.yaml`), join(PACKAGE_ROOT, 'reports', 'recipes', `${name}.yaml`)].find((p) => existsSync(p));
}

const list = (s: string | undefined, flag: string) => (s === undefined ? undefined : splitList(s, flag));

/** Flags (over a recipe file, or over `reports/recipes/<name>.yaml` when it exists) to a recipe. */
export function recipeFromReportFlags(o: ReportFlags): ReportRecipe {
  let base: ReportRecipe | undefined;
  if (o.recipe) base = loadRecipe(o.recipe);
  else if (o.name && namedRecipe(o.name)) base = loadRecipe(namedRecipe(o.name)!);
  let seed: number | undefined;
  if (o.seed !== undefined) {
    seed = parseInteger(o.seed, '--seed');
    if (seed < 0 || seed > 2 ** 32 - 1) throw new InputError('--seed', `must be a whole number in [0, 4294967295], got ${seed}`);
  }
  const flags: Parameters<typeof recipeFromFlags>[0] = {};
  if (o.name !== undefined) flags.name = o.name;
  if (o.title !== undefined) flags.title = o.title;
  if (o.scenarios !== undefined) flags.scenarios = list(o.scenarios, '--scenarios')!;
  if (o.variants !== undefined) flags.variants = list(o.variants, '--variants')!;
  if (o.charts !== undefined) flags.charts = list(o.charts, '--charts')!;
  if (o.duration !== undefined) flags.durationS = parseDurationS(o.duration, '--duration');
  if (seed !== undefined) flags.seed = seed;
  if (o.reps !== undefined) {
    flags.reps = parseInteger(o.reps, '--reps');
    if (flags.reps < 1 || flags.reps > MAX_REPORT_REPS) throw new InputError('--reps', `must be a whole number in [1, ${MAX_REPORT_REPS}], got ${flags.reps}`);
  }
  if (o.engines !== undefined) flags.engines = parseEngines(o.engines);
  // The profile reaches the contrast too (the recipe's lines on the other setup), not only the scenarios.
  if (o.profile !== undefined) flags.profile = o.profile;
  const recipe = recipeFromFlags(flags, base);
  // The line flags (--loss, --bandwidth, ...) apply to every scenario of the recipe.
  if (hasLineFlags(o)) {
    recipe.scenarios = recipe.scenarios.map((s) => {
      const r = scenarioWithFlags(s, o, recipe.variants[0]);
      return { ...r, durationS: recipe.durationS, seed: recipe.seed };
    });
  }
  return recipe;
}

/** `cclab report`: run a recipe's scenarios x variants with both engines and write the HTML report. */
export function register(program: Command): void {
  const cmd = program
    .command('report')
    .description(COMMANDS.report.description)
    .option('--recipe <file>', 'report recipe (.yaml or .json), e.g. reports/recipes/seed-study.yaml; default: reports/recipes/<name>.yaml when it exists, else the flags alone')
    .option('--scenarios <list>', `comma-separated presets (${PRESET_NAMES.join(', ')}) or scenario files (default: normal, lfn, lossy)`)
    .option('--variants <list>', `comma-separated variants: ${VARIANTS.join(', ')} (default: the recipe's, else every variant)`)
    .option('--engines <list>', `engines to run: ${ENGINES.join(', ')} (default both)`)
    .option('--reps <n>', `replications of every packet run (seeds derived from --seed as in sweeps; tables show medians with 95% intervals), 1..${MAX_REPORT_REPS} (default: the recipe's, else 1)`)
    .option('--duration <time>', "simulated time of every run, e.g. 20s (default: the recipe's, else 100s)")
    .option('--seed <n>', "seed every run seed is derived from (default: the recipe's, else 1)")
    .option('--models <dir>', "folder of fluid model files (default: the repository's models/)")
    .option('--charts <list>', "sections to include: cwnd, queue, goodput, errors, equations, stability (Hollot et al.'s RED example, ~3 s), competition (per-flow charts of multi-flow scenarios), buffers (one flow's goodput, queue delay and loss across buffer sizes), shares (a variant's share against loss-based flows across buffer sizes), delay (each flow's goodput against its mean and p99 queueing delay, and the fluid model against the packet engine on both), transfers (short transfers' completion times beside a bulk flow) (default: the recipe's, else all but delay and transfers)")
    .option('--name <name>', 'report name (default output reports/<name>/; uses reports/recipes/<name>.yaml when it exists)')
    .option('--title <text>', "page title (default: the recipe's, else 'cclab report: <name>')")
    .option('--out <dir>', 'output folder (default: reports/<name>)')
    .option('--cache <dir>', 'run cache of the replications (content-addressed, shared with sweeps)', '.cache/runs')
    .option('--no-cache', 'do not read or write the run cache')
    .option('--workers <n>', 'worker threads for the replications (default: cores; 0 = in this thread)')
    .option('--quiet', 'no progress output');
  addLineOptions(cmd)
    .action(async (opts: ReportFlags) => {
      const recipe = recipeFromReportFlags(opts);
      const outDir = opts.out ?? `reports/${recipe.name}`;
      // The report is written as a sibling temp folder renamed into place: both must be writable.
      checkOutDir(outDir, '--out');
      checkOutDir(dirname(resolve(outDir)), '--out');
      // The cache holds the replications (runs 2..reps of every case).
      if (recipe.reps > 1 && opts.cache !== false) checkOutDir(opts.cache ?? '.cache/runs', '--cache');
      const modelsDir = opts.models === undefined ? undefined : resolve(opts.models);
      const workers = opts.workers === undefined ? undefined : parseInteger(opts.workers, '--workers');
      if (workers !== undefined && (workers < 0 || workers > 256)) throw new InputError('--workers', `must be a whole number in [0, 256], got ${workers}`);
      // After every check: a refused report prints its one error line and no warning before it.
      warnAbout(resolveScenarios(recipe), opts);
      const [{ writeReport }, { progressReporter }] = await Promise.all([import('../report/write.js'), import('./progress.js')]);
      const progress = progressReporter({ name: 'report', unit: 'steps', quiet: opts.quiet });
      let out;
      try {
        out = await asUserIo('--out', () =>
          writeReport(recipe, outDir, {
            modelsDir,
            cacheDir: opts.cache === false ? null : resolve(opts.cache ?? '.cache/runs'),
            ...(workers !== undefined ? { workers } : {}),
            onProgress: (done, total, label) => progress.update({ done, total, label }),
          }),
        );
      } finally {
        progress.stop();
      }
      for (const w of out.warnings) process.stderr.write(`cclab: warning: ${w}\n`);
      // The path as the user typed it (or the default reports/<name>).
      process.stdout.write(`wrote ${join(outDir, 'index.html')} (${formatBytes(out.pageBytes)}, ${out.cases.length} scenario x variant pairs) in ${out.wallS.toFixed(1)} s\n`);
    });
}
