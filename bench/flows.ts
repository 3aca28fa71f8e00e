/**
 * Flow-count curve of the packet engine (figures, not pass/fail): 1, 10, 100 and 1000 CUBIC flows on
 * a 1 Gbit/s / 10 ms bottleneck (the generic dumbbell: 1 Gbit/s, 1 ms access links on both sides,
 * RTT 24 ms, queues of one BDP), flows starting 1 ms apart, 100 simulated seconds. Issue 9's target:
 * >= 6 M events/s at 1000 flows and a peak RSS <= 1 GB. Each point runs in its own process, so its
 * peak RSS is its own; CPU time is the steadier figure on a shared machine, and its ratio to the
 * in-process reference (bench/reference.ts, timed in the same process around the run) the steadiest.
 *
 * `npm run bench -- flows`, or standalone: `node --import tsx bench/flows.ts [--flows 1000] [--duration 100]`.
 * The largest point is run twice: recording everything, and with RunOptions.record 'summary'.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { secondsToNs } from '../src/engine/simulator.js';
import { buildPacketModel, type RunOptions } from '../src/packet/run.js';
import { dumbbellScenario } from '../src/scenario/defaults.js';
import { bdpPackets } from '../src/scenario/path.js';
import type { Scenario } from '../src/scenario/types.js';
import { validateScenario } from '../src/scenario/check/validate.js';
import { refRatio, withReference } from './reference.js';
import { childNodeArgs } from './child.js';

export const FLOW_COUNTS = [1, 10, 100, 1000];

export function manyFlowsScenario(flows: number, durationS: number): Scenario {
  const s = dumbbellScenario('cubic', flows);
  s.name = `dumbbell-1G-${flows}`;
  s.bottleneck.bandwidthBps = 1e9;
  s.durationS = durationS;
  const q = Math.ceil(bdpPackets(s));
  s.bottleneck.queue.limitPackets = q;
  s.flows.forEach((f, i) => {
    f.access.queuePackets = q;
    f.receiverAccess!.queuePackets = q;
    f.startS = i * 1e-3;
  });
  return validateScenario(s, 'bench');
}

interface Point {
  flows: number;
  events: number;
  wallS: number;
  cpuS: number;
  peakRssMiB: number;
  goodputBps: number;
  /** Events in the heap at the end (busy links' heads and timers): its depth is log2 of this. */
  heapEvents: number;
  /** The in-process reference's rate around the run (bench/reference.ts). */
  refRate: number;
}

function measureOne(flows: number, durationS: number, record: RunOptions['record']): Point {
  const { value, refRate } = withReference(() => measureRun(flows, durationS, record));
  return { ...value, refRate };
}

/** `record`: RunOptions.record ('summary': no series, as a sweep's or replication's compact result). */
function measureRun(flows: number, durationS: number, record: RunOptions['record']): Omit<Point, 'refRate'> {
  const s = manyFlowsScenario(flows, durationS);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const m = buildPacketModel(s, { record });
  m.sim.run(secondsToNs(durationS));
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const delivered = m.receivers.reduce((a, r) => a + r.deliveredBytes, 0);
  return {
    flows,
    events: m.sim.events,
    wallS,
    cpuS: (cpu.user + cpu.system) / 1e6,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    goodputBps: (delivered * 8) / durationS,
    heapEvents: m.sim.pending,
  };
}

function row(p: Point): string {
  return [
    `${p.flows} flows`.padEnd(11),
    `${(p.events / 1e6).toFixed(1)} M ev`.padStart(11),
    `${p.wallS.toFixed(1)} s wall`.padStart(12),
    `${p.cpuS.toFixed(1)} s cpu`.padStart(11),
    `${(p.events / p.wallS / 1e6).toFixed(2)} M ev/s`.padStart(13),
    `${(p.events / p.cpuS / 1e6).toFixed(2)} M ev/cpu-s`.padStart(17),
    refRatio(p.events / p.cpuS, p.refRate).padStart(12),
    `${(p.goodputBps / 1e6).toFixed(0)} Mbit/s`.padStart(13),
    `${p.peakRssMiB.toFixed(0)} MiB peak rss`.padStart(18),
    `heap ${p.heapEvents}`.padStart(10),
  ].join(' ');
}

export async function benchFlows(durationS = 100, counts = FLOW_COUNTS): Promise<void> {
  console.log(`flow-count curve: CUBIC, 1 Gbit/s / 10 ms bottleneck, flows 1 ms apart, ${durationS} s (one process per point):`);
  const self = fileURLToPath(import.meta.url);
  const point = (n: number, record: string): Point =>
    JSON.parse(execFileSync(process.execPath, [...childNodeArgs(), self, '--one', String(n), '--duration', String(durationS), '--record', record], { encoding: 'utf8', maxBuffer: 1 << 20 })) as Point;
  for (const n of counts) console.log(row(point(n, 'all')));
  // The largest point again as a sweep or a replication runs it (src/runs/compact.ts keeps no series).
  const largest = counts[counts.length - 1]!;
  console.log(`${row(point(largest, 'summary'))} (record summary)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string): number | undefined => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const durationS = arg('--duration') ?? 100;
  const one = arg('--one');
  const record = process.argv[process.argv.indexOf('--record') + 1] === 'summary' ? 'summary' : 'all';
  if (one !== undefined) process.stdout.write(JSON.stringify(measureOne(one, durationS, record)));
  else await benchFlows(durationS, arg('--flows') !== undefined ? [arg('--flows')!] : FLOW_COUNTS);
}
