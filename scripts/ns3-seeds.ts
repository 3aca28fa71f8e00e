/**
 * One ns-3 agreement cell as two samples of runs instead of two medians: cclab's goodput over n seeds
 * beside ns-3's 10 runs (reference/ns3/goodput.csv with SACK, goodput-500s.csv without), so that a
 * miss can be told apart from the sampling error of ns-3's median of 10 (which cannot be re-drawn).
 *
 *   npx tsx scripts/ns3-seeds.ts lossy westwood [--mode sack|nosack] [--seeds 100]
 *
 * Prints both samples' quartiles; the common-language effect size P(a cclab run > an ns-3 run)
 * (Mann-Whitney U / (n m): 0.5 = same distribution); the share of cclab runs below ns-3's slowest and
 * above its fastest run; and, by resampling 10 of the cclab runs 20 000 times (seeded, so the output is
 * fixed), how often a median of 10 cclab runs lands within the cell's tolerance of ns-3's median,
 * i.e. how often the agreement test would pass if cclab's runs were what they are and ns-3 had drawn
 * its 10 from them.
 */
import { quantile } from 'simple-statistics';
import { rngStream } from '../src/engine/rng.js';
import { LINE_NAMES, type LineName } from '../src/scenario/presets.js';
import { MODE_DURATION_S, NS3_NAME, ns3Median, ns3RunsBps, runCell, TOLERANCE, type Mode } from '../test/packet/ns3-agreement.js';
import { median } from '../test/packet/helpers.js';

const RESAMPLES = 20_000;
const NS3_RUNS = 10;

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}

/** P(x > y) over all pairs, ties counted half (Mann-Whitney U / (n m)). */
function probGreater(xs: number[], ys: number[]): number {
  let u = 0;
  for (const x of xs) for (const y of ys) u += x > y ? 1 : x === y ? 0.5 : 0;
  return u / (xs.length * ys.length);
}

/** Share of medians of k draws (with replacement) from xs inside [lo, hi]. */
function resampledMedianShare(xs: number[], k: number, lo: number, hi: number): number {
  const uniform = rngStream(1, 'ns3-seeds');
  let inside = 0;
  const draw: number[] = new Array<number>(k);
  for (let r = 0; r < RESAMPLES; r++) {
    for (let i = 0; i < k; i++) draw[i] = xs[Math.floor(uniform() * xs.length)]!;
    const m = median(draw);
    if (m >= lo && m <= hi) inside++;
  }
  return inside / RESAMPLES;
}

const kbps = (bps: number): string => (bps / 1e3).toFixed(1);
const quartiles = (xs: number[]): string => [0.25, 0.5, 0.75].map((q) => kbps(quantile(xs, q))).join(' / ');

const [preset, variant] = process.argv.slice(2) as [LineName, keyof typeof NS3_NAME];
const mode = flag('mode', 'sack') as Mode;
const seeds = Number(flag('seeds', '100'));
if (!(LINE_NAMES as readonly string[]).includes(preset) || !(variant in NS3_NAME) || !['sack', 'nosack'].includes(mode) || !(seeds >= 1)) {
  console.error('usage: npx tsx scripts/ns3-seeds.ts <normal|lfn|lossy> <newreno|reno|westwood|cubic> [--mode sack|nosack] [--seeds n>=1]');
  process.exit(2);
}
const ns3 = ns3RunsBps(preset, NS3_NAME[variant], mode);
const ns3Med = ns3Median(preset, NS3_NAME[variant], mode);
const cclab = runCell(preset, variant, mode, {}, seeds).goodputsBps;
const tol = TOLERANCE[preset];
const [lo, hi] = [Math.min(...ns3), Math.max(...ns3)];

console.log(`${preset}/${variant}, ${mode === 'sack' ? 'SACK on' : 'SACK off'}, ${MODE_DURATION_S[mode]} s, ns3 profile; goodput kbit/s`);
console.log(`  ns-3 ${ns3.length} runs: quartiles ${quartiles(ns3)}, range ${kbps(lo)}-${kbps(hi)}`);
console.log(`  cclab ${seeds} seeds: quartiles ${quartiles(cclab)}, range ${kbps(Math.min(...cclab))}-${kbps(Math.max(...cclab))}; median of seeds 1-10 ${kbps(median(cclab.slice(0, 10)))}`);
console.log(`  P(cclab run > ns-3 run) ${probGreater(cclab, ns3).toFixed(3)}; cclab runs below ns-3's slowest ${((cclab.filter((x) => x < lo).length / seeds) * 100).toFixed(0)}%, above its fastest ${((cclab.filter((x) => x > hi).length / seeds) * 100).toFixed(0)}%`);
console.log(
  `  a median of ${NS3_RUNS} cclab runs within ${tol * 100}% of ns-3's median (${kbps(ns3Med)}): ` +
    `${(resampledMedianShare(cclab, NS3_RUNS, ns3Med * (1 - tol), ns3Med * (1 + tol)) * 100).toFixed(1)}% of ${RESAMPLES} resamples`,
);
