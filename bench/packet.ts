/**
 * Packet-engine benchmark (figures, not pass/fail): every preset x variant for 100 simulated
 * seconds, then the large case of the ns-3 comparison, `normal` with 10 Gbps / 0.1 ms access links
 * (ns-3 took 1120-1230 s of wall time there at ~3e5 events/s). Prints wall time, CPU time (the
 * machine is shared: CPU time is the steadier figure), events per second, packets (data segments
 * and ACKs put on the wire) per wall second, and the process's peak RSS so far.
 *
 * Every row also gives events per CPU-second as a ratio to the in-process reference (bench/reference.ts).
 *
 * Run standalone: `node --import tsx bench/packet.ts [--large-only] [--heap] [--target] [--alloc]`
 * (--heap: the event queues alone, bench/queues.ts too; --target: issue 24's large case only, 20 s; --alloc: with it, the bytes it allocates per event,
 * measured in a second run under the sampling heap profiler, bench/alloc.ts).
 */
import { pathToFileURL } from 'node:url';
import { EventHeap } from '../src/engine/heap.js';
import { buildPacketModel, type RunOptions } from '../src/packet/run.js';
import { secondsToNs } from '../src/engine/simulator.js';
import { PRESET_NAMES, presetScenario, type PresetOptions, type PresetName } from '../src/scenario/presets.js';
import type { Variant } from '../src/variants.js';
import { allocatedBytes } from './alloc.js';
import { benchQueues } from './queues.js';
import { refRatio, withReference } from './reference.js';

const VARIANTS: Variant[] = ['tahoe', 'reno', 'newreno', 'westwood', 'cubic'];

interface Measured {
  wallS: number;
  cpuS: number;
  events: number;
  packets: number;
  goodputBps: number;
  peakRssMiB: number;
  /** The in-process reference's rate around this run (bench/reference.ts). */
  refRate: number;
}

function measure(name: PresetName, variant: Variant, opts: PresetOptions, lossRate?: number, sack = true, record: RunOptions['record'] = 'all'): Measured {
  const { value, refRate } = withReference(() => measureRun(name, variant, opts, lossRate, sack, record));
  return { ...value, refRate };
}

/** `record`: RunOptions.record ('summary': no series, what a sweep's or replication's compact result needs). */
function measureRun(name: PresetName, variant: Variant, opts: PresetOptions, lossRate?: number, sack = true, record: RunOptions['record'] = 'all'): Omit<Measured, 'refRate'> {
  const scenario = presetScenario(name, variant, opts);
  if (lossRate !== undefined) scenario.bottleneck.loss.rate = lossRate;
  scenario.tcp.sack = sack;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const m = buildPacketModel(scenario, { record });
  m.sim.run(secondsToNs(scenario.durationS));
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const delivered = m.receivers.reduce((a, r) => a + r.deliveredBytes, 0);
  return {
    wallS,
    cpuS: (cpu.user + cpu.system) / 1e6,
    events: m.sim.events,
    packets: m.net.pool.created,
    goodputBps: (delivered * 8) / scenario.durationS,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
}

function row(label: string, r: Measured): string {
  const f = (x: number, d = 2): string => x.toFixed(d);
  return [
    label.padEnd(26),
    `${f(r.wallS)} s wall`.padStart(12),
    `${f(r.cpuS)} s cpu`.padStart(11),
    `${(r.events / 1e6).toFixed(2)} M ev`.padStart(10),
    `${f(r.events / r.wallS / 1e6)} M ev/s`.padStart(12),
    `${f(r.events / r.cpuS / 1e6)} M ev/cpu-s`.padStart(16),
    refRatio(r.events / r.cpuS, r.refRate).padStart(12),
    `${f(r.packets / r.wallS / 1e6)} M pkt/s`.padStart(13),
    `${f(r.goodputBps / 1e6)} Mbit/s`.padStart(14),
    `${r.peakRssMiB.toFixed(0)} MiB rss`.padStart(13),
  ].join(' ');
}

/**
 * The event queue on its own (hold model: pop the earliest, push a later one), typed-array heap vs a
 * heap of event objects (what a JS priority-queue package or a naive engine does). flatqueue is not
 * a dependency here; its design (ids + values in arrays) sits between the two.
 */
function benchHeap(): void {
  const n = 5_000_000;
  for (const pending of [1000, 10_000]) {
    const h = new EventHeap(1 << 16);
    let seq = 0;
    let x = 1;
    const next = (): number => (x = (x * 48271) % 2147483647);
    for (let i = 0; i < pending; i++) h.push(next(), seq++, 0, i);
    let c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      h.pop();
      h.push(h.topTime + (next() % 1_000_000), seq++, 0, i);
    }
    let c = process.cpuUsage(c0);
    const typed = n / ((c.user + c.system) / 1e6);
    interface Ev {
      t: number;
      s: number;
      k: number;
      a: number;
    }
    const a: Ev[] = [];
    const less = (p: Ev, q: Ev): boolean => p.t < q.t || (p.t === q.t && p.s < q.s);
    const push = (e: Ev): void => {
      a.push(e);
      let i = a.length - 1;
      while (i > 0) {
        const pi = (i - 1) >> 1;
        if (less(a[pi]!, e)) break;
        a[i] = a[pi]!;
        i = pi;
      }
      a[i] = e;
    };
    const pop = (): Ev => {
      const top = a[0]!;
      const last = a.pop()!;
      if (a.length > 0) {
        let i = 0;
        for (;;) {
          let ci = 2 * i + 1;
          if (ci >= a.length) break;
          if (ci + 1 < a.length && less(a[ci + 1]!, a[ci]!)) ci++;
          if (less(last, a[ci]!)) break;
          a[i] = a[ci]!;
          i = ci;
        }
        a[i] = last;
      }
      return top;
    };
    seq = 0;
    for (let i = 0; i < pending; i++) push({ t: next(), s: seq++, k: 0, a: i });
    c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const e = pop();
      push({ t: e.t + (next() % 1_000_000), s: seq++, k: 0, a: i });
    }
    c = process.cpuUsage(c0);
    const objects = n / ((c.user + c.system) / 1e6);
    console.log(
      `event queue, ${pending} pending: typed-array heap ${(typed / 1e6).toFixed(1)} M pop+push per cpu-s, object heap ${(objects / 1e6).toFixed(1)} M`,
    );
  }
}

const LARGE_TARGET = { durationS: 20, accessBps: 10e9, accessDelayS: 1e-4 };

/**
 * Issue 24's large case: `ns3-normal` with 10 Gbit/s / 0.1 ms access links, no random loss, SACK on,
 * 20 s (target >= 8 M events per CPU-second on a quiet machine).
 */
export function benchLargeTarget(): void {
  console.log(row('large 20s reno p=0 sack', measure('ns3-normal', 'reno', LARGE_TARGET, 0)));
  // The same run as a sweep or a replication makes it (src/runs/compact.ts keeps no series).
  console.log(row('  the same, record summary', measure('ns3-normal', 'reno', LARGE_TARGET, 0, true, 'summary')));
}

/** The large case again under the sampling heap profiler: bytes allocated per event and where. */
async function benchLargeAlloc(): Promise<void> {
  const { value: r, bytes, sites } = await allocatedBytes(() => measureRun('ns3-normal', 'reno', LARGE_TARGET, 0));
  const perEvent = (b: number): string => `${(b / r.events).toFixed(1)} B`;
  console.log(`large 20s reno p=0 sack: ${perEvent(bytes)} allocated per event (${(bytes / 2 ** 20).toFixed(0)} MiB sampled); by function: ${sites.slice(0, 6).map(([k, b]) => `${k} ${perEvent(b)}`).join(', ')}`);
}

export async function benchPacket(options: { largeOnly?: boolean; heap?: boolean; target?: boolean; alloc?: boolean } = {}): Promise<void> {
  if (options.heap) {
    benchHeap();
    benchQueues();
  }
  if (options.target) {
    benchLargeTarget();
    if (options.alloc) await benchLargeAlloc();
    return;
  }
  if (!options.largeOnly) {
    console.log('per preset x variant, 100 simulated seconds, one flow, SACK on | off:');
    for (const name of PRESET_NAMES) {
      for (const v of VARIANTS) {
        console.log(row(`${name}/${v} sack`, measure(name, v, { durationS: 100 })));
        console.log(row(`${name}/${v} no-sack`, measure(name, v, { durationS: 100 }, undefined, false)));
      }
    }
  }
  console.log('large case: normal, 10 Gbps / 0.1 ms access links, 100 s (ns-3: 1120-1230 s wall):');
  const large = { durationS: 100, accessBps: 10e9, accessDelayS: 1e-4 };
  for (const v of ['reno', 'newreno'] as Variant[]) {
    console.log(row(`normal-10G/${v} sack`, measure('ns3-normal', v, large)));
    console.log(row(`normal-10G/${v} no-sack`, measure('ns3-normal', v, large, undefined, false)));
  }
  // Without random loss cclab moves ns-3's packet volume (~30 M data packets through the bottleneck
  // in 100 s): the like-for-like speed comparison, SACK on (the 1.3x budget of issue 8) and off.
  console.log(row('normal-10G/reno p=0 sack', measure('ns3-normal', 'reno', large, 0)));
  console.log(row('  the same, record summary', measure('ns3-normal', 'reno', large, 0, true, 'summary')));
  console.log(row('normal-10G/reno p=0 no-sack', measure('ns3-normal', 'reno', large, 0, false)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const flag = (name: string): boolean => process.argv.includes(name);
  await benchPacket({ largeOnly: flag('--large-only'), heap: flag('--heap'), target: flag('--target'), alloc: flag('--alloc') });
}
