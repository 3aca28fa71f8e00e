/**
 * Issue 24's targets in one table (figures, not pass/fail): each case measured `--runs` times (the
 * issue: median of 5, on a quiet machine), every point in its own process (one point's heap and JIT
 * state do not reach the next, and a process's speed is bimodal on this VM), the runs of all cases
 * interleaved (run 1 of every case, then run 2, ...) so that the machine's drift falls on all alike.
 * Printed per target: the median, every run's figure, the median as a ratio to the in-process
 * reference (bench/reference.ts, timed around each point), and whether the median meets the target.
 * Ratios between two variants or disciplines are taken run by run from reference-normalised rates
 * (each point's own reference), then their median.
 *
 * - large case: `ns3-normal`, 10 Gbit/s / 0.1 ms access, no random loss, SACK on, 20 s (bench/floor.ts
 *   largeScenario): >= 8 M events per CPU-s, recording the summary only (what the run layer's compact
 *   runs record) and, shown beside it, recording every series (what a report's charted run records);
 * - 1000 CUBIC flows on the 1 Gbit/s / 10 ms dumbbell (bench/flows.ts), 100 s, summary: >= 4 M events
 *   per CPU-s and peak RSS <= 1 GiB;
 * - BBR and BBRv3 (paced) against CUBIC, on the large case and with 100 flows (bench/bbr.ts's cases,
 *   10 s): >= 0.7x;
 * - CoDel and FQ-CoDel against drop-tail with 1 and 100 flows (bench/qdisc.ts's case, 10 s): >= 0.7x;
 * - `npm start` (the seed study) from an empty run and model cache: <= 10 s wall on 2 cores (its
 *   output and run cache go to a temporary folder; .cache/models, the compiled models, is emptied).
 *
 * `npm run bench -- targets`, or standalone:
 * `node --import tsx --import ./bench/dist.mjs bench/targets.ts [--runs 5] [--only large,flows,bbr,qdisc,start]`
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from 'simple-statistics';
import { secondsToNs } from '../src/engine/simulator.js';
import { buildPacketModel } from '../src/packet/run.js';
import { presetScenario } from '../src/scenario/presets.js';
import type { Scenario } from '../src/scenario/types.js';
import type { Variant } from '../src/variants.js';
import { childNodeArgs } from './child.js';
import { largeScenario } from './floor.js';
import { manyFlowsScenario } from './flows.js';
import { qdiscScenario } from './qdisc.js';
import { withReference } from './reference.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One point: a packet run in its own process (see {@link measurePoint}). */
interface PointSpec {
  case: 'large' | 'flows' | 'qdisc';
  variant?: Variant;
  flows?: number;
  durationS: number;
  record?: 'all' | 'summary';
  queue?: string;
}

interface Point {
  events: number;
  cpuS: number;
  peakRssMiB: number;
  /** The in-process reference's rate around the run (bench/reference.ts). */
  refRate: number;
}

function scenarioOf(p: PointSpec): Scenario {
  if (p.case === 'large') {
    if (p.variant === undefined || p.variant === 'reno') return largeScenario(p.durationS);
    const s = presetScenario('ns3-normal', p.variant, { durationS: p.durationS, accessBps: 10e9, accessDelayS: 1e-4 });
    s.bottleneck.loss.rate = 0;
    return s;
  }
  if (p.case === 'qdisc') return qdiscScenario(p.queue ?? 'droptail', p.flows ?? 1, p.durationS);
  const s = manyFlowsScenario(p.flows ?? 1, p.durationS);
  s.variant = p.variant ?? 'cubic';
  return s;
}

/** Runs one point in this process: model built and run between two reference timings. */
function measurePoint(p: PointSpec): Point {
  const { value, refRate } = withReference(() => {
    const s = scenarioOf(p);
    const c0 = process.cpuUsage();
    const m = buildPacketModel(s, { record: p.record ?? 'all' });
    m.sim.run(secondsToNs(s.durationS));
    const c = process.cpuUsage(c0);
    return { events: m.sim.events, cpuS: (c.user + c.system) / 1e6 };
  });
  return { ...value, peakRssMiB: process.resourceUsage().maxRSS / 1024, refRate };
}

function inChild(p: PointSpec): Point {
  const self = fileURLToPath(import.meta.url);
  const out = execFileSync(process.execPath, [...childNodeArgs(), self, '--point', JSON.stringify(p)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out) as Point;
}

/** CPU seconds of this process's waited-for children (utime + stime of /proc/self/stat's cutime, cstime), NaN off Linux. */
function childrenCpuS(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // USER_HZ
  } catch {
    return NaN;
  }
}

/** `npm start`'s command from an empty cache: wall seconds and CPU seconds of the process and its threads. */
function measureStart(): { wallS: number; cpuS: number } {
  const dir = mkdtempSync(join(tmpdir(), 'cclab-targets-'));
  try {
    rmSync(join(ROOT, '.cache', 'models'), { recursive: true, force: true });
    const cpu0 = childrenCpuS();
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['bin/cclab.js', 'report', '--name', 'seed-study', '--out', join(dir, 'out'), '--cache', join(dir, 'runs'), '--quiet'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const wallS = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`cclab report exited with ${r.status}`);
    return { wallS, cpuS: childrenCpuS() - cpu0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const normalised = (p: Point): number => p.events / p.cpuS / p.refRate;

/** A target's line: label, median and every run, the median's ratio to the reference, met or not. */
function line(label: string, values: number[], unit: string, digits: number, met: boolean | null, extra = ''): string {
  const f = (x: number): string => x.toFixed(digits);
  return `${label.padEnd(46)} ${`${f(median(values))}${unit}`.padStart(10)}  (${values.map(f).join(' / ')})${extra}  ${met === null ? '' : met ? 'met' : 'NOT met'}`;
}

type Case = { name: string; run: () => void; report: () => void };

/** `targetM`: events per CPU-s in millions, null for a figure shown beside a target. */
function rateCase(name: string, label: string, spec: PointSpec, targetM: number | null, rssMiB?: number): Case {
  const points: Point[] = [];
  return {
    name,
    run: () => points.push(inChild(spec)),
    report: () => {
      const rates = points.map((p) => p.events / p.cpuS / 1e6);
      const rss = Math.max(...points.map((p) => p.peakRssMiB));
      const rssOk = rssMiB === undefined || rss <= rssMiB;
      const extra = `, ${median(points.map(normalised)).toFixed(3)}x ref${rssMiB === undefined ? '' : `, peak RSS ${rss.toFixed(0)} MiB (<= ${rssMiB})`}`;
      console.log(line(label, rates, ' M', 2, targetM === null ? null : median(rates) >= targetM && rssOk, extra));
    },
  };
}

/** `variants[0]` is the baseline; each other's ratio to it, run by run, >= 0.7. */
function ratioCase(name: string, title: string, specs: [string, PointSpec][]): Case {
  const points: Point[][] = specs.map(() => []);
  return {
    name,
    run: () => specs.forEach(([, s], i) => points[i]!.push(inChild(s))),
    report: () => {
      for (let i = 1; i < specs.length; i++) {
        const ratios = points[i]!.map((p, k) => normalised(p) / normalised(points[0]![k]!));
        console.log(line(`${title}: ${specs[i]![0]} >= 0.7x ${specs[0]![0]}`, ratios, 'x', 2, median(ratios) >= 0.7));
      }
    },
  };
}

function startCase(): Case {
  const runs: { wallS: number; cpuS: number }[] = [];
  return {
    name: 'start',
    run: () => runs.push(measureStart()),
    report: () => {
      const walls = runs.map((r) => r.wallS);
      const extra = `, ${median(runs.map((r) => r.cpuS)).toFixed(1)} CPU-s`;
      console.log(line('npm start from an empty cache <= 10 s wall', walls, ' s', 1, median(walls) <= 10, extra));
    },
  };
}

function cases(): Case[] {
  const flows100 = (variant: Variant): PointSpec => ({ case: 'flows', flows: 100, durationS: 10, variant });
  const large = (variant: Variant): PointSpec => ({ case: 'large', durationS: 10, variant });
  const qdisc = (queue: string, flows: number): PointSpec => ({ case: 'qdisc', queue, flows, durationS: 10 });
  return [
    rateCase('large', 'large case, summary, >= 8 M events per CPU-s', { case: 'large', durationS: 20, record: 'summary' }, 8),
    rateCase('large', 'large case, every series recorded (no target)', { case: 'large', durationS: 20, record: 'all' }, null),
    rateCase('flows', '1000 CUBIC flows, 100 s, >= 4 M ev/CPU-s, <= 1 GiB', { case: 'flows', flows: 1000, durationS: 100, record: 'summary' }, 4, 1024),
    ratioCase('bbr', 'large case', [['cubic', large('cubic')], ['bbr', large('bbr')], ['bbr3', large('bbr3')]]),
    ratioCase('bbr', '100 flows', [['cubic', flows100('cubic')], ['bbr', flows100('bbr')], ['bbr3', flows100('bbr3')]]),
    ratioCase('qdisc', '1 flow', [['drop-tail', qdisc('droptail', 1)], ['codel', qdisc('codel', 1)], ['fq_codel', qdisc('fq_codel', 1)]]),
    ratioCase('qdisc', '100 flows', [['drop-tail', qdisc('droptail', 100)], ['codel', qdisc('codel', 100)], ['fq_codel', qdisc('fq_codel', 100)]]),
    startCase(),
  ];
}

export function benchTargets(runs = 5, only?: string[]): void {
  const selected = cases().filter((c) => only === undefined || only.includes(c.name));
  console.log(`issue 24's targets: median of ${runs} (every run's figure in brackets), each point in its own process, runs interleaved`);
  for (let r = 0; r < runs; r++) for (const c of selected) c.run();
  for (const c of selected) c.report();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const point = arg('--point');
  if (point !== undefined) process.stdout.write(JSON.stringify(measurePoint(JSON.parse(point) as PointSpec)));
  else benchTargets(Number(arg('--runs') ?? 5), arg('--only')?.split(','));
}
