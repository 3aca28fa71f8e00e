import { join, resolve } from 'node:path';
import { COMMANDS } from './commands.js';
import type { Command } from 'commander';
import { flowVariants } from '../scenario/flowCc.js';
import { EXIT_RUN_FAILED } from '../errors.js';
import { asUserIo, checkOutDir } from '../io/outDir.js';
import { bbrShare } from '../compare/bbrShare.js';
import { formatBps, formatNumber, formatPct, modelCell } from '../compare/format.js';
import type { ComparisonCase } from '../compare/run.js';
import type { Comparison } from '../compare/types.js';
import { closedFormFlags, primaryClosed } from '../report/tables.js';
import { DEFAULT_VARIANT, hasEngine, VARIANTS } from '../variants.js';
import { warnAbout } from './warnings.js';
import { addScenarioOptions, parseVariantList, scenarioFromOptions, type ScenarioFlags } from './scenarioOptions.js';

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()).join('\n');
}

/** The `cclab compare` table: one row per variant, flags as numbered notes under it. */
export function formatComparisonTable(comparisons: readonly Comparison[]): string {
  const notes: string[] = [];
  // Closed-form notes only of the formula the column shows (the report's rule): on lossy the column is
  // PFTK, and Mathis' validity is not its.
  const shown = (c: Comparison) => {
    const cf = primaryClosed(c);
    const own = new Set(closedFormFlags(c, cf));
    return c.flags.filter((f) => f.subject !== 'closed-form' || own.has(f));
  };
  const mark = (c: Comparison) =>
    shown(c)
      .filter((f) => f.severity !== 'info')
      .map((f) => {
        const text = `${f.subject}: ${f.message}`;
        let i = notes.indexOf(text);
        if (i < 0) i = notes.push(text) - 1;
        return `[${i + 1}]`;
      })
      .join('');
  const head = ['scenario', 'variant', 'packet', 'fluid', 'error', 'closed form', 'error', 'cwnd pkt', 'cwnd fluid', 'error', 'RMSE steady', 'corr steady', 'flags'];
  const rows = comparisons.map((c) => {
    const cf = primaryClosed(c);
    return [
      c.scenario,
      c.variant,
      formatBps(c.packet.status === 'ok' ? c.packet.goodputBps : null),
      modelCell(c.fluid, formatBps(c.fluid.goodputBps)),
      formatPct(c.relErr.goodput),
      cf ? `${formatBps(cf.goodputBpsAllFlows)} (${cf.formula})` : '–',
      formatPct(cf?.goodputRelErr),
      formatNumber(c.packet.meanCwndSegments),
      modelCell(c.fluid, formatNumber(c.fluid.meanCwndSegments)),
      formatPct(c.relErr.meanCwnd),
      c.steadyFit ? `${formatNumber(c.steadyFit.rmseSegments)} seg` : '–',
      formatNumber(c.steadyFit?.correlation, 2),
      mark(c),
    ];
  });
  const lines = [pad([head, ...rows])];
  lines.push('', 'goodput with its unit in each cell (bit/s, kbit/s, Mbit/s, Gbit/s); errors are (model - packet) / packet (a model with random loss events, Tahoe\'s or CUBIC\'s, runs with Poisson loss events seeded by the packet run\'s seed, as report and validate run it on every seed); cwnd in segments (time-averaged); closed form: the formula in brackets, its notes only; "no model": the fluid engine has no model of a flow\'s variant yet.');
  const shares = comparisons.flatMap((c) => shareLine(c));
  if (shares.length > 0) lines.push('', ...shares);
  if (notes.length > 0) lines.push('', ...notes.map((n, i) => `[${i + 1}] ${n}`));
  return lines.join('\n');
}

/** BBR's share of the link against loss-based flows: packet, fluid and Ware et al.'s forms (invalid ones marked). */
function shareLine(c: Comparison): string[] {
  const b = bbrShare(c);
  if (!b || b.forms.length === 0) return [];
  const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
  const forms = b.forms.map((f) => `${f.formula} ${pct(f.share)}${f.valid ? '' : ' (outside its assumptions)'}`).join(', ');
  const fluid = modelCell(c.fluid, pct(b.fluid));
  return [`BBR's share of the link (${b.bbrFlows} bbr flow${b.bbrFlows > 1 ? 's' : ''}, ${c.scenario}): packet ${pct(b.packet)}, fluid ${fluid}, ${forms}`];
}

interface CompareFlags extends ScenarioFlags {
  variants?: string;
  json?: boolean;
  out?: string;
  models?: string;
}

/** `--out DIR`: the comparisons as JSON and tidy CSV (the report's columns), and the table as text. */
async function writeCompareOutputs(dir: string, cases: readonly ComparisonCase[], table: string): Promise<void> {
  const [{ writeFileAtomic }, { toCsv }, t] = await Promise.all([import('../io/atomicWrite.js'), import('../page/csv.js'), import('../report/tables.js')]);
  writeFileAtomic(join(dir, 'comparison.json'), JSON.stringify(cases.map((c) => c.comparison), null, 1) + '\n');
  writeFileAtomic(join(dir, 'comparison.csv'), toCsv(t.comparisonRows(cases), t.COMPARISON_COLUMNS));
  writeFileAtomic(join(dir, 'goodput.csv'), toCsv(t.goodputRows(cases), t.GOODPUT_COLUMNS));
  writeFileAtomic(join(dir, 'comparison.txt'), table + '\n');
}

/** `cclab compare`: both engines on one scenario for several variants; a table or `--json`. */
export function register(program: Command): void {
  const cmd = program.command('compare').description(COMMANDS.compare.description);
  addScenarioOptions(cmd)
    .option('--variants <list>', `comma-separated variants: ${VARIANTS.join(', ')} (default: the scenario file's variant, else ${DEFAULT_VARIANT})`)
    .option('--json', 'print the comparisons as JSON (one array)')
    .option('--out <dir>', 'also write comparison.json, comparison.csv, goodput.csv and comparison.txt (the table) to DIR (default: none, nothing written)')
    .option('--models <dir>', "folder of fluid model files (default: the repository's models/)")
    .action(async (opts: CompareFlags) => {
      // Build every scenario before running anything: a bad flag fails fast.
      const scenarios = opts.variants === undefined ? [scenarioFromOptions(opts)] : parseVariantList(opts.variants).map((v) => scenarioFromOptions(opts, v));
      const variants = scenarios.map((s) => s.variant);
      if (opts.out) checkOutDir(opts.out, '--out');
      warnAbout(scenarios.slice(0, 1), opts);
      const modelsDir = opts.models === undefined ? undefined : resolve(opts.models);
      const [{ runComparison, COMPARISON_LOSS_PROCESS }, { loadEngines, prepareFluidModels }] = await Promise.all([import('../compare/run.js'), import('../engines.js')]);
      // Variants without a fluid model get a "no model" column (VariantFacts.engines), not an error.
      await prepareFluidModels([...new Set(scenarios.flatMap((s) => flowVariants(s)))].filter((v) => hasEngine(v, 'fluid')), { modelsDir });
      const engines = await loadEngines({ modelsDir, lossProcess: COMPARISON_LOSS_PROCESS });
      const cases: ComparisonCase[] = [];
      for (let i = 0; i < variants.length; i++) cases.push(...(await runComparison([scenarios[i]!], [variants[i]!], { engines })));
      const comparisons = cases.map((c) => c.comparison);
      const table = formatComparisonTable(comparisons);
      if (opts.out) await asUserIo('--out', () => writeCompareOutputs(opts.out!, cases, table));
      process.stdout.write((opts.json ? JSON.stringify(comparisons, null, 1) : table) + '\n');
      const failed = comparisons.filter((c) => c.packet.status === 'failed' || c.fluid.status === 'failed');
      if (failed.length > 0) {
        process.stderr.write(`cclab: error: run failed: ${failed.map((c) => c.variant).join(', ')} (see the table's status and notes)\n`);
        process.exitCode = EXIT_RUN_FAILED;
      }
    });
}
