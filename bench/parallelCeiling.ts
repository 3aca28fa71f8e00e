/**
 * How much two cores of this machine give for two copies of the same packet-engine work, with no
 * pool involved: the ceiling for any 2-worker speed-up. Run as a child process by bench/sweep.ts
 * (`node --import tsx bench/parallelCeiling.ts`), it prints the seconds its runs took.
 */
import { runPacket } from '../src/packet/run.js';
import { presetScenario } from '../src/scenario/presets.js';

const RUNS = 12;
const t0 = performance.now();
for (let i = 0; i < RUNS; i++) runPacket(presetScenario('ns3-normal', 'reno', { durationS: 200, seed: i + 1 }));
console.log(((performance.now() - t0) / 1000).toFixed(4));
