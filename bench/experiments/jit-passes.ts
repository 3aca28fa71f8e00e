/**
 * JIT warm-up and stability: `node --import tsx --import ./bench/dist.mjs bench/experiments/jit-passes.ts large|worker [passes]`.
 * large: the large case (bench/packet.ts --target, record summary) `passes` times in one process.
 * worker: the 15 seed-study runs (ns3 normal/lfn/lossy x 5 variants, 20 s, summary) `passes` times,
 * what one of npm start's workers does. target: the bench's two rows (record all, then summary)
 * alternating. Prints CPU-s per pass, the main thread's share in brackets (the rest is V8's
 * background threads: TurboFan compiling, GC). JIT_FLAGS=... sets V8 flags before the engine loads.
 */
import { setFlagsFromString } from 'node:v8';
if (process.env.JIT_FLAGS) setFlagsFromString(process.env.JIT_FLAGS);
const { buildPacketModel } = await import('../../src/packet/run.js');

import { secondsToNs } from '../../src/engine/simulator.js';
import { presetScenario, type PresetName } from '../../src/scenario/presets.js';
import type { Variant } from '../../src/variants.js';

const mode = process.argv[2] ?? 'large';
const passes = Number(process.argv[3] ?? 3);
const cpu = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
function runOne(name: PresetName, v: Variant, opts: { durationS: number; accessBps?: number; accessDelayS?: number }, loss?: number, record: 'all' | 'summary' = 'summary'): number {
  const sc = presetScenario(name, v, opts);
  if (loss !== undefined) sc.bottleneck.loss.rate = loss;
  const m = buildPacketModel(sc, { record });
  m.sim.run(secondsToNs(sc.durationS));
  return m.sim.events;
}
import { readFileSync } from 'node:fs';
/** The main thread's CPU seconds (/proc: utime + stime of the thread whose id is the pid), to tell the JIT's background threads apart. */
const mainCpu = (): number => {
  const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const out: string[] = [];
for (let p = 0; p < passes; p++) {
  const c0 = cpu();
  const m0 = mainCpu();
  let ev = 0;
  if (mode === 'target') ev += runOne('ns3-normal', 'reno', { durationS: 20, accessBps: 10e9, accessDelayS: 1e-4 }, 0, p % 2 === 0 ? 'all' : 'summary');
  else if (mode === 'large-all') ev += runOne('ns3-normal', 'reno', { durationS: 20, accessBps: 10e9, accessDelayS: 1e-4 }, 0, 'all');
  else if (mode === 'large') ev += runOne('ns3-normal', 'reno', { durationS: 20, accessBps: 10e9, accessDelayS: 1e-4 }, 0);
  else
    for (const name of ['ns3-normal', 'ns3-lfn', 'ns3-lossy'] as PresetName[])
      for (const v of ['tahoe', 'reno', 'newreno', 'westwood', 'cubic'] as Variant[]) ev += runOne(name, v, { durationS: 20 });
  const s = cpu() - c0;
  const ms = mainCpu() - m0;
  out.push(`${s.toFixed(3)}s (main ${ms.toFixed(2)}) ${(ev / s / 1e6).toFixed(2)}M`);
  if (process.env.JIT_PASS_MARKS) console.log(`=== pass ${p}: ${out[p]}`);
}
console.log(`${mode}: ${out.join(' | ')}`);
