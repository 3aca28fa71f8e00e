/**
 * `npm run bench`: every benchmark of the project in one process run, so that ratios (packet vs
 * fluid, 2 workers vs 1) are measured on the same machine state. Figures, not pass/fail: the
 * machine is shared and noisy. `npm run bench -- packet` runs one part. Every events-per-CPU-second
 * figure is also printed as a ratio to a fixed in-process reference (bench/reference.ts: a plain
 * heap-and-loop hold model timed in the same process around the figure), the figure to compare
 * between runs on a loaded machine.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { referenceRate } from './reference.js';

const parts: Record<string, () => Promise<void>> = {
  // Issue 24's targets first (median of 5 each; `npm run bench -- targets`), then every part's detail.
  targets: async () => (await import('./targets.js')).benchTargets(),
  startup: async () => (await import('./startup.js')).benchStartup(),
  packet: async () => (await import('./packet.js')).benchPacket(),
  flows: async () => (await import('./flows.js')).benchFlows(),
  floor: async () => (await import('./floor.js')).benchFloor(),
  qdisc: async () => (await import('./qdisc.js')).benchQdisc(),
  bbr: async () => (await import('./bbr.js')).benchBbr(),
  fluid: async () => (await import('./fluid.js')).benchFluid(),
  sweep: async () => (await import('./sweep.js')).benchSweep(),
  scoreboard: async () => (await import('./scoreboard.js')).benchScoreboard(),
  stability: async () => (await import('./stability.js')).benchStability(),
};

const wanted = process.argv.slice(2).filter((a) => a in parts);
const selected = wanted.length > 0 ? wanted : Object.keys(parts);

console.log(`cclab benchmarks on ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}, code ${process.env.CCLAB_BENCH_CODE ?? 'src/ through tsx'}`);
console.log(`reference (bench/reference.ts, heap hold model of 1024 keys): ${(referenceRate() / 1e6).toFixed(2)} M pop+push per cpu-s; 'x ref' below = events per cpu-s / this, measured around each figure`);
for (const name of selected) {
  console.log(`\n=== ${name} ===`);
  try {
    await parts[name]!();
  } catch (e) {
    console.log(`${name}: not available (${(e as Error).message.split('\n')[0]})`);
  }
}
