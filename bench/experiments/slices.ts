/**
 * The large case (bench/packet.ts --target, record all) in 0.5 s slices of simulated time, to see
 * when inside a run the engine is slow: `node --import tsx --import ./bench/dist.mjs
 * bench/experiments/slices.ts [passes]` prints, per slice, the wall clock (ms since 1970), the pass,
 * the slice and M events per CPU-second. Run a CPU-bound canary process beside it (its own rate per
 * 200 ms, wall-clock stamped) to tell a slow stretch of this process from a slow machine.
 *
 * Issue 24's "slow mode" (the same run 2.4 or 3.8 CPU-s) showed here as stretches of 15 slices at 4-5.8
 * M instead of 7-8, starting and ending abruptly inside a pass (once from 2.0-2.5 s simulated, as
 * the clock passes 2^31 ns; once from 9.0-9.5 s in a second pass), at load 6-7, in main before and
 * after the dispatch change alike, while the canary kept its rate; not in 9 traced runs (4 under
 * --trace-opt --trace-deopt, 5 under --trace-gc) nor at load ~4.
 */
const { buildPacketModel } = await import('../../src/packet/run.js');
import { presetScenario } from '../../src/scenario/presets.js';

const passes = Number(process.argv[2] ?? 3);
for (let pass = 0; pass < passes; pass++) {
  const sc = presetScenario('ns3-normal', 'reno', { durationS: 20, accessBps: 10e9, accessDelayS: 1e-4 });
  sc.bottleneck.loss.rate = 0;
  const m = buildPacketModel(sc, { record: 'all' });
  for (let slice = 1; slice <= 40; slice++) {
    const c0 = process.cpuUsage();
    const e0 = m.sim.events;
    m.sim.run(slice * 500_000_000);
    const c = process.cpuUsage(c0);
    console.log(Date.now(), pass, slice, ((m.sim.events - e0) / ((c.user + c.system) / 1e6) / 1e6).toFixed(2));
  }
}
