/**
 * Packet-engine benchmark (figures, not pass/fail): every preset x variant for 100 simulated
 * seconds, then the large case of the ns-3 comparison, `normal` with 10 Gbps / 0.1 ms access links
 * (ns-3 took 1120-1230 s of wall time there at ~3e5 events/s). Prints wall time, CPU time (the
 * machine is shared: CPU time is the steadier figure), events per second, packets (data segments
 * and ACKs put on the wire) per wall second, and the process's peak RSS so far.
 *
 * Run standalone: `node --import tsx bench/packet.ts [--large-only] [--heap]`.
 */
import { pathToFileURL } from 'node:url';
import { EventHeap } from '../src/engine/heap.js';
import { buildPacketModel } from '../src/packet/run.js';
import { secondsToNs } from '../src/engine/simulator.js';
import { PRESET_NAMES, presetScenario, type PresetOptions, type PresetName } from '../src/scenario/presets.js';
import type { Variant } from '../src/variants.js';

const VARIANTS: Variant[] = ['tahoe', 'reno', 'newreno', 'westwood', 'cubic'];

interface Measured {
  wallS: number;
  cpuS: number;
  events: number;
  packets: number;
  goodputBps: number;
  peakRssMiB: number;
}

function measure(name: PresetName, variant: Variant, opts: PresetOptions): Measured {
  const scenario = presetScenario(name, variant, opts);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const m = buildPacketModel(scenario);
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
    label.padEnd(22),
    `${f(r.wallS)} s wall`.padStart(12),
    `${f(r.cpuS)} s cpu`.padStart(11),
    `${(r.events / 1e6).toFixed(2)} M ev`.padStart(10),
    `${f(r.events / r.wallS / 1e6)} M ev/s`.padStart(12),
    `${f(r.events / r.cpuS / 1e6)} M ev/cpu-s`.padStart(16),
    `${f(r.packets / r.wallS / 1e6)} M pkt/s`.padStart(13),
    `${f(r.goodputBps / 1e6)} Mbit/s`.padStart(14),
    `${r.peakRssMiB.toFixed(0)} MiB rss`.padStart(13),
  ].join(' ');
}

/** The event queue on its own: 10^6 holds, push + pop of random times, vs a plain sort-based baseline. */
function benchHeap(): void {
  const h = new EventHeap(1 << 16);
  let seq = 0;
  let x = 1;
  const n = 5_000_000;
  for (let i = 0; i < 10_000; i++) h.push((x = (x * 48271) % 2147483647), seq++, 0, i);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    h.pop();
    h.push(h.topTime + ((x = (x * 48271) % 2147483647) % 1_000_000), seq++, 0, i);
  }
  const s = (performance.now() - t0) / 1000;
  console.log(`EventHeap: hold model, 10^4 pending, ${n / 1e6} M pop+push in ${s.toFixed(2)} s = ${(n / s / 1e6).toFixed(1)} M/s`);
}

export async function benchPacket(options: { largeOnly?: boolean; heap?: boolean } = {}): Promise<void> {
  if (options.heap) benchHeap();
  if (!options.largeOnly) {
    console.log('per preset x variant, 100 simulated seconds, one flow:');
    for (const name of PRESET_NAMES) {
      for (const v of VARIANTS) console.log(row(`${name}/${v}`, measure(name, v, { durationS: 100 })));
    }
  }
  console.log('large case: normal, 10 Gbps / 0.1 ms access links, 100 s (ns-3: 1120-1230 s wall):');
  for (const v of ['reno', 'newreno'] as Variant[]) {
    console.log(row(`normal-10G/${v}`, measure('normal', v, { durationS: 100, accessBps: 10e9, accessDelayS: 1e-4 })));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchPacket({ largeOnly: process.argv.includes('--large-only'), heap: process.argv.includes('--heap') });
}
