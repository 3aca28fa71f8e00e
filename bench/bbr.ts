/**
 * BBR (v1) and BBRv3 vs CUBIC on the same cases (figures, not pass/fail), each point in its own
 * process so one run's heap does not slow the next:
 * - the large case of bench/packet.ts, `ns3-normal` with 10 Gbit/s / 0.1 ms access links and no
 *   random loss (~30 M data packets through the bottleneck in 100 s);
 * - 100 flows on the 1 Gbit/s / 10 ms dumbbell of bench/flows.ts.
 * BBR is paced (one EV_PACE event per departure its pacing holds back) and samples delivery rate per
 * segment; the ratio printed is each BBR's events per CPU-second over CUBIC's (issue: >= 0.7x), each first
 * divided by the in-process reference measured around it (bench/reference.ts), so that the load of a
 * shared machine changing between the two processes does not move the ratio.
 *
 * `npm run bench -- bbr`, or standalone: `node --import tsx bench/bbr.ts [--duration 100]`.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { secondsToNs } from '../src/engine/simulator.js';
import { buildPacketModel } from '../src/packet/run.js';
import { presetScenario } from '../src/scenario/presets.js';
import type { Scenario } from '../src/scenario/types.js';
import type { Variant } from '../src/variants.js';
import { manyFlowsScenario } from './flows.js';
import { refRatio, withReference } from './reference.js';
import { childNodeArgs } from './child.js';

interface Point {
  events: number;
  cpuS: number;
  goodputBps: number;
  pacedFlows: number;
  /** The in-process reference's rate around the run (bench/reference.ts). */
  refRate: number;
}

type CaseName = 'large' | 'flows100';

function scenarioOf(kind: CaseName, variant: Variant, durationS: number): Scenario {
  if (kind === 'large') {
    const s = presetScenario('ns3-normal', variant, { durationS, accessBps: 10e9, accessDelayS: 1e-4 });
    s.bottleneck.loss.rate = 0;
    return s;
  }
  const s = manyFlowsScenario(100, durationS);
  s.variant = variant;
  return s;
}

function measureOne(kind: CaseName, variant: Variant, durationS: number): Point {
  const { value, refRate } = withReference(() => measureRun(kind, variant, durationS));
  return { ...value, refRate };
}

function measureRun(kind: CaseName, variant: Variant, durationS: number): Omit<Point, 'refRate'> {
  const s = scenarioOf(kind, variant, durationS);
  const cpu0 = process.cpuUsage();
  const m = buildPacketModel(s);
  m.sim.run(secondsToNs(durationS));
  const cpu = process.cpuUsage(cpu0);
  const delivered = m.receivers.reduce((a, r) => a + r.deliveredBytes, 0);
  return {
    events: m.sim.events,
    cpuS: (cpu.user + cpu.system) / 1e6,
    goodputBps: (delivered * 8) / durationS,
    pacedFlows: m.senders.filter((x) => x.pacer !== null).length,
  };
}

/** `cubic`: CUBIC's point on the same case; the ratio is of reference-normalised rates (each point's own reference). */
function row(label: string, p: Point, cubic: Point): string {
  const rate = p.events / p.cpuS;
  const cubicRate = cubic.events / cubic.cpuS;
  return [
    label.padEnd(28),
    `${(p.events / 1e6).toFixed(1)} M ev`.padStart(11),
    `${p.cpuS.toFixed(1)} s cpu`.padStart(11),
    `${(rate / 1e6).toFixed(2)} M ev/cpu-s`.padStart(17),
    refRatio(rate, p.refRate).padStart(12),
    `${(rate / p.refRate / (cubicRate / cubic.refRate)).toFixed(2)}x cubic`.padStart(12),
    `${(p.goodputBps / 1e6).toFixed(1)} Mbit/s`.padStart(14),
    `${p.pacedFlows} paced`,
  ].join(' ');
}

export async function benchBbr(durationS = 100): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const cases: [CaseName, string][] = [
    ['large', `ns3-normal, 10 Gbit/s / 0.1 ms access, p = 0, ${durationS} s`],
    ['flows100', `100 flows, 1 Gbit/s / 10 ms dumbbell, ${durationS} s`],
  ];
  for (const [kind, title] of cases) {
    console.log(`${title}:`);
    let cubic: Point | undefined;
    for (const v of ['cubic', 'bbr', 'bbr3'] as Variant[]) {
      const out = execFileSync(process.execPath, [...childNodeArgs(), self, '--one', kind, v, '--duration', String(durationS)], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const p = JSON.parse(out) as Point;
      cubic ??= p;
      console.log(row(`  ${kind}/${v}`, p, cubic));
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const durationS = Number(arg('--duration') ?? 100);
  const one = arg('--one');
  if (one !== undefined) {
    const variant = process.argv[process.argv.indexOf('--one') + 2] as Variant;
    process.stdout.write(JSON.stringify(measureOne(one as CaseName, variant, durationS)));
  } else {
    await benchBbr(durationS);
  }
}
