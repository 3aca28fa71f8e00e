import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../errors.js';
import { asUserIo, checkOutDir } from '../io/outDir.js';
import { formatBytes } from '../compare/format.js';
import { loadRecipe, recipeFromFlags, type ReportRecipe } from '../report/recipe.js';
import { parseDurationS, parseInteger } from '../units.js';

interface ReportFlags {
  recipe?: string;
  scenarios?: string;
  variants?: string;
  duration?: string;
  seed?: string;
  out?: string;
  name?: string;
  title?: string;
  charts?: string;
}

const list = (s: string | undefined) => (s === undefined ? undefined : s.split(',').map((x) => x.trim()).filter((x) => x !== ''));

/** Flags (over a recipe file, or over `reports/recipes/<name>.yaml` when it exists) to a recipe. */
export function recipeFromReportFlags(o: ReportFlags): ReportRecipe {
  let base: ReportRecipe | undefined;
  if (o.recipe) base = loadRecipe(o.recipe);
  else if (o.name && existsSync(`reports/recipes/${o.name}.yaml`)) base = loadRecipe(`reports/recipes/${o.name}.yaml`);
  let seed: number | undefined;
  if (o.seed !== undefined) {
    seed = parseInteger(o.seed, '--seed');
    if (seed < 0 || seed > 2 ** 32 - 1) throw new InputError('--seed', `must be a whole number in [0, 4294967295], got ${seed}`);
  }
  const flags: Parameters<typeof recipeFromFlags>[0] = {};
  if (o.name !== undefined) flags.name = o.name;
  if (o.title !== undefined) flags.title = o.title;
  if (o.scenarios !== undefined) flags.scenarios = list(o.scenarios)!;
  if (o.variants !== undefined) flags.variants = list(o.variants)!;
  if (o.charts !== undefined) flags.charts = list(o.charts)!;
  if (o.duration !== undefined) flags.durationS = parseDurationS(o.duration, '--duration');
  if (seed !== undefined) flags.seed = seed;
  return recipeFromFlags(flags, base);
}

/** `cclab report`: run a recipe's scenarios x variants with both engines and write the HTML report. */
export function register(program: Command): void {
  program
    .command('report')
    .description('run scenarios x variants with both engines and write a self-contained HTML report (DIR/index.html plus CSV/JSON data); without a recipe or flags: every preset x every variant, 100 s')
    .option('--recipe <file>', 'report recipe (.yaml or .json), e.g. reports/recipes/seed-study.yaml')
    .option('--scenarios <list>', 'comma-separated presets (normal, lfn, lossy) or scenario files')
    .option('--variants <list>', 'comma-separated variants: tahoe, reno, newreno, westwood, cubic')
    .option('--duration <time>', 'simulated time of every run, e.g. 20s')
    .option('--seed <n>', 'random seed of every run')
    .option('--charts <list>', 'sections to include: cwnd, queue, goodput, errors, equations')
    .option('--name <name>', 'report name (default output reports/<name>/; uses reports/recipes/<name>.yaml when it exists)')
    .option('--title <text>', 'page title')
    .option('--out <dir>', 'output directory (default reports/<name>)')
    .action(async (opts: ReportFlags) => {
      const recipe = recipeFromReportFlags(opts);
      const outDir = opts.out ?? `reports/${recipe.name}`;
      // The report is written as a sibling temp folder renamed into place: both must be writable.
      checkOutDir(outDir, '--out');
      checkOutDir(dirname(resolve(outDir)), '--out');
      const [{ writeReport }, { progressReporter }] = await Promise.all([import('../report/write.js'), import('./progress.js')]);
      const progress = progressReporter({ name: 'report', unit: 'steps' });
      let out;
      try {
        out = await asUserIo('--out', () => writeReport(recipe, outDir, { onProgress: (done, total, label) => progress.update({ done, total, label }) }));
      } finally {
        progress.stop();
      }
      for (const w of out.warnings) process.stderr.write(`cclab: warning: ${w}\n`);
      const rel = relative(process.cwd(), out.indexPath);
      const where = rel && !rel.startsWith('..') ? rel : out.indexPath;
      process.stdout.write(`wrote ${where} (${formatBytes(out.pageBytes)}, ${out.cases.length} scenario x variant pairs) in ${out.wallS.toFixed(1)} s\n`);
    });
}
