/**
 * The seed study's model verdicts alone (issue 21: "on each setup the fluid model agrees on at least
 * 13 of the 15 pairs"), without the page: the packet replications and the fluid runs beside them,
 * planned and compared as the report does (report/replicates.ts fluidBeside's plan, report/agreement.ts
 * lineVerdicts, runs/agreement.ts), for a folder of model files. Every run goes through the run
 * cache, so the packet runs are computed once and only the fluid runs of an edited model run again.
 *   npx tsx scripts/seedAgreement.ts [--models DIR] [--setup own|ns3|both] [--variants a,b] [--workers N] [--cache DIR] [--reps N] [--lines lfn,lossy] [--detail]
 * own: the recipe's contrast (each line its own bottleneck: normal 10 s, lfn and lossy 100 s, 6 seeds);
 * ns3: the recipe's scenarios (the ns-3 example's literal setup, 100 s, 10 seeds).
 * The presets run under ns-3's profile (as every preset); --profile NAME resolves them under another; --tcp k=v,... and --cc variant.knob=v,... set single choices.
 * --detail adds each pair's median timeouts, fast recoveries and mean cwnd (segments), packet and fluid, and every run's goodput by seed.
 */
import { resolve } from 'node:path';
import { lineVerdicts, type PairVerdict } from '../src/report/agreement.js';
import { loadRecipe, resolveContrast, resolveScenarios } from '../src/report/recipe.js';
import { caseKey, fluidBesideRuns, replicatePacket, summarise } from '../src/report/replicates.js';
import { lineFigures } from '../src/report/seedStudy.js';
import { criterionText } from '../src/runs/agreement.js';
import type { CompactRun } from '../src/runs/compact.js';
import { defaultWorkers } from '../src/runs/execute.js';
import { randomLossEvents } from '../src/runs/modelRuns.js';
import { RunPool } from '../src/runs/pool.js';
import { medianInterval } from '../src/runs/stats.js';
import { parseProfile } from '../src/scenario/resolveProfile.js';
import type { Scenario } from '../src/scenario/types.js';
import type { Variant } from '../src/variants.js';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const modelsDir = opt('--models') !== undefined ? resolve(opt('--models')!) : undefined;
const setup = opt('--setup') ?? 'own';
const cacheDir = resolve(opt('--cache') ?? '.cache/runs');
const workers = Number(opt('--workers') ?? defaultWorkers());
const detail = args.includes('--detail');
/** Replications instead of the recipe's (more seeds than the page runs, to tell seed noise from a model's bias). */
const repsArg = opt('--reps') !== undefined ? Number(opt('--reps')) : undefined;
const recipe = loadRecipe('reports/recipes/seed-study.yaml');
/** --profile NAME: the recipe's presets are resolved under it (ns-3's by default, as every preset), as `--profile` does. */
if (opt('--profile') !== undefined) recipe.profile = parseProfile(opt('--profile'), '--profile');
const variants = (opt('--variants')?.split(',') as Variant[] | undefined) ?? recipe.variants;
const hybrid = randomLossEvents(modelsDir);
/** Only these lines (normal, lfn, lossy), on either setup. */
const lines = opt('--lines')?.split(',');
/**
 * --tcp k=v,... sets `tcp` fields and --cc variant.knob=v,... ccDefaults knobs over the resolved
 * scenarios (one choice at a time, to find which moves a pair).
 */
const value = (v: string): unknown => (v === 'true' ? true : v === 'false' ? false : Number.isFinite(Number(v)) ? Number(v) : v);
const pairs = (o: string | undefined) => (o ? o.split(',').map((kv) => kv.split('=') as [string, string]) : []);
function adjust(s: Scenario): Scenario {
  for (const [k, v] of pairs(opt('--tcp'))) (s.tcp as unknown as Record<string, unknown>)[k] = value(v);
  for (const [k, v] of pairs(opt('--cc'))) {
    const [variant, knob] = k.split('.') as [Variant, string];
    s.ccDefaults = { ...s.ccDefaults, [variant]: { ...s.ccDefaults?.[variant], [knob]: Number(v) } };
  }
  return s;
}
const pick = (ss: Scenario[]) => (lines ? ss.filter((s) => lines.some((l) => s.name === l || s.name === `ns3-${l}`)) : ss).map(adjust);

const ok = (runs: readonly CompactRun[]) => runs.filter((r) => r.status === 'ok');
const med = (runs: readonly CompactRun[], f: (s: CompactRun['summary']) => number) => medianInterval(ok(runs).map((r) => f(r.summary))).median;
const fig = (runs: readonly CompactRun[]) => `timeouts ${med(runs, (s) => s.timeouts).toFixed(1)} recoveries ${med(runs, (s) => s.fastRecoveries).toFixed(1)} cwnd ${med(runs, (s) => s.meanCwndSegments).toFixed(2)}`;

async function run(name: string, scenarios: Scenario[], reps: number, pool: RunPool): Promise<PairVerdict[]> {
  const t0 = performance.now();
  const opts = { reps, seed: recipe.seed, cacheDir, pool, ...(modelsDir ? { modelsDir } : {}) };
  const [packet, fluid] = await Promise.all([replicatePacket(scenarios, variants, opts), fluidBesideRuns(scenarios, variants, hybrid, opts)]);
  const runsOf = (engine: 'packet' | 'fluid', k: string) => (engine === 'packet' ? packet : fluid).get(k)?.runs ?? [];
  const figures = new Map([...packet].map(([k, c]) => [k, summarise(c.seeds, c.runs)]));
  const goodputs = new Map([...fluid].map(([k, c]) => [k, ok(c.runs).map((r) => r.summary.goodputBps)]));
  const vs = lineVerdicts(scenarios.map((s) => lineFigures(s, variants, figures)), goodputs);
  console.log(`\n${name}: ${vs.filter((v) => v.a.agrees).length} of ${vs.length} pairs agree (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  const mb = (x: number) => (x / 1e6).toFixed(3);
  for (const v of vs) {
    const a = v.a;
    const pct = a.error === null ? '–' : `${a.error >= 0 ? '+' : ''}${(100 * a.error).toFixed(1)}%`;
    console.log(`${a.agrees ? 'ok  ' : 'MISS'} ${v.scenario.padEnd(10)} ${v.variant.padEnd(9)} fluid ${mb(a.fluid.median)} packet ${mb(a.packet.median)} [${mb(a.packet.low)}, ${mb(a.packet.high)}] ${pct.padStart(7)}  ${criterionText(a)}`);
    if (detail) {
      const k = caseKey(v.scenario, v.variant);
      console.log(`       packet ${fig(runsOf('packet', k))} | fluid ${fig(runsOf('fluid', k))}`);
      const each = (e: 'packet' | 'fluid') => runsOf(e, k).map((r) => mb(r.summary.goodputBps)).join(' ');
      console.log(`       runs by seed: packet ${each('packet')} | fluid ${each('fluid')}`);
    }
  }
  return vs;
}

const pool = new RunPool(Math.max(1, workers));
try {
  if (setup === 'ns3' || setup === 'both') await run('ns-3 example setup', pick(resolveScenarios(recipe)), repsArg ?? recipe.reps, pool);
  if (setup === 'own' || setup === 'both') await run('own bottlenecks', pick(resolveContrast(recipe)), repsArg ?? recipe.contrast!.reps, pool);
} finally {
  await pool.destroy();
}
