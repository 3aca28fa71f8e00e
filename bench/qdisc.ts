/**
 * Queue disciplines on the flow-count bench's dumbbell (figures, not pass/fail): CUBIC on the
 * 1 Gbit/s / 10 ms bottleneck of bench/flows.ts (access links 10 Gbit/s and a 64 MB receive window,
 * so that the bottleneck is where packets wait), one BDP of buffer, 1 and 100 flows, each discipline
 * in its own process. Events per CPU-second, and the ratio to drop-tail's: CoDel and FQ-CoDel hold
 * their packets and add one EV_TX_END event per packet at the bottleneck (the link's dequeue path),
 * drop-tail, RED and PIE decide at enqueue on the one-event path. Also the mean and 99th-percentile
 * queue delay each discipline held, and the goodput.
 *
 * `npm run bench -- qdisc`, or standalone: `node --import tsx bench/qdisc.ts [--duration 30] [--flows 100]`.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { secondsToNs } from '../src/engine/simulator.js';
import { QUEUE_KINDS } from '../src/net/qdisc/registry.js';
import { buildResult } from '../src/packet/result.js';
import { buildPacketModel } from '../src/packet/run.js';
import type { QueueSpec, Scenario } from '../src/scenario/types.js';
import { manyFlowsScenario } from './flows.js';
import { refRatio, withReference } from './reference.js';
import { childNodeArgs } from './child.js';

export const QDISC_FLOW_COUNTS = [1, 100];

interface Point {
  kind: string;
  flows: number;
  events: number;
  cpuS: number;
  goodputBps: number;
  meanDelayS: number;
  p99DelayS: number;
  /** The in-process reference's rate around the run (bench/reference.ts). */
  refRate: number;
}

function measureOne(kind: string, flows: number, durationS: number): Point {
  const { value, refRate } = withReference(() => measureRun(kind, flows, durationS));
  return { ...value, refRate };
}

/** The case: CUBIC on bench/flows.ts's dumbbell with discipline `kind` on the bottleneck (one BDP of buffer). */
export function qdiscScenario(kind: string, flows: number, durationS: number): Scenario {
  const s = manyFlowsScenario(flows, durationS);
  s.bottleneck.queue = { kind, limitPackets: s.bottleneck.queue.limitPackets } as QueueSpec;
  // 10 Gbit/s access links: with flows.ts's 1 Gbit/s ones a single flow queues at its own access link
  // (as fast as the bottleneck) and the discipline would never see a queue.
  for (const f of s.flows) f.access.bandwidthBps = 10e9;
  // A receive window of 64 MB: the default 2 MB (ns-3's example) caps one flow at 2 MB per 24-ms RTT,
  // 670 Mbit/s, below the link, and its queue would stay empty.
  s.tcp.rcvBufBytes = 64 * 2 ** 20;
  return s;
}

function measureRun(kind: string, flows: number, durationS: number): Omit<Point, 'refRate'> {
  const s = qdiscScenario(kind, flows, durationS);
  const cpu0 = process.cpuUsage();
  const m = buildPacketModel(s);
  m.sim.run(secondsToNs(durationS));
  const cpu = process.cpuUsage(cpu0);
  const r = buildResult(s, m, 0);
  return {
    kind,
    flows,
    events: m.sim.events,
    cpuS: (cpu.user + cpu.system) / 1e6,
    goodputBps: r.summary.goodputBps,
    meanDelayS: r.queue.delay?.meanS ?? NaN,
    p99DelayS: r.queue.delay?.p99S ?? NaN,
  };
}

/** `dropTail`: drop-tail's point on the same flows; the ratio is of reference-normalised rates (each point's own reference). */
function row(p: Point, dropTail: Point): string {
  const rate = p.events / p.cpuS;
  const dropTailRate = dropTail.events / dropTail.cpuS;
  return [
    `${p.flows} flows`.padEnd(10),
    p.kind.padEnd(9),
    `${(p.events / 1e6).toFixed(1)} M ev`.padStart(11),
    `${p.cpuS.toFixed(1)} s cpu`.padStart(11),
    `${(rate / 1e6).toFixed(2)} M ev/cpu-s`.padStart(17),
    refRatio(rate, p.refRate).padStart(12),
    `${(rate / p.refRate / (dropTailRate / dropTail.refRate)).toFixed(2)}x drop-tail`.padStart(16),
    `${(p.goodputBps / 1e6).toFixed(0)} Mbit/s`.padStart(13),
    `delay mean ${(1000 * p.meanDelayS).toFixed(2)} ms, p99 ${(1000 * p.p99DelayS).toFixed(2)} ms`,
  ].join(' ');
}

export async function benchQdisc(durationS = 30, counts = QDISC_FLOW_COUNTS): Promise<void> {
  console.log(`queue disciplines: CUBIC, 1 Gbit/s / 10 ms bottleneck, 10 Gbit/s access, 64 MB rwnd, one BDP of buffer, ${durationS} s (one process per point):`);
  const self = fileURLToPath(import.meta.url);
  for (const n of counts) {
    let dropTail: Point | undefined;
    for (const kind of QUEUE_KINDS) {
      const out = execFileSync(process.execPath, [...childNodeArgs(), self, '--one', kind, '--flows', String(n), '--duration', String(durationS)], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const p = JSON.parse(out) as Point;
      if (kind === 'droptail') dropTail = p;
      if (dropTail === undefined) throw new Error('drop-tail must be the first queue kind (the ratios are to it)');
      console.log(row(p, dropTail));
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const durationS = Number(arg('--duration') ?? 30);
  const flows = arg('--flows');
  const one = arg('--one');
  if (one !== undefined) process.stdout.write(JSON.stringify(measureOne(one, Number(flows ?? 1), durationS)));
  else await benchQdisc(durationS, flows !== undefined ? [Number(flows)] : QDISC_FLOW_COUNTS);
}
