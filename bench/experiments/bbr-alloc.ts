/**
 * Bytes allocated per event on bench/bbr.ts's 100-flow case, and where (bench/alloc.ts's sampling
 * heap profiler; attribution to the outermost optimised function).
 *
 * `node --import tsx --import ./bench/dist.mjs bench/experiments/bbr-alloc.ts [variant] [seconds]`
 */
import { buildPacketModel } from '../../src/packet/run.js';
import type { Variant } from '../../src/variants.js';
import { allocatedBytes } from '../alloc.js';
import { manyFlowsScenario } from '../flows.js';

const variant = (process.argv[2] ?? 'bbr') as Variant;
const durationS = Number(process.argv[3] ?? 5);
const s = manyFlowsScenario(100, durationS);
s.variant = variant;
const m = buildPacketModel(s);
// Warm up 1 s (optimised code), then measure the rest.
m.sim.run(1e9);
const e0 = m.sim.events;
const { bytes, sites } = await allocatedBytes(() => m.sim.run(durationS * 1e9));
const events = m.sim.events - e0;
console.log(`${variant} 100 flows ${durationS} s: ${(bytes / events).toFixed(1)} B/event over ${(events / 1e6).toFixed(2)} M events`);
for (const [k, b] of sites.slice(0, 15)) console.log(`  ${(b / events).toFixed(2).padStart(6)} B/ev  ${k}`);
