import { describe, expect, it } from 'vitest';
import { runPacket } from '../../src/packet/run.js';
import { delayStats, pieLine } from './pieLine.js';

/** PIE's linear verdicts (pieStability.test.ts) against the packet engine's queue: an agreement suite (npm test only). */
describe("PIE's linear stability against the packet engine", () => {
  const stable = pieLine(0.01);
  const unstable = pieLine(0.1);

  it("the packet engine's queue agrees: held around the target where stable, emptied a sixth of the time and far below the target where not", () => {
    // Measured: stable mean 15.9 ms, p5 6.0 ms, never empty; unstable mean 6.1 ms, p5 0, empty 18% (goodput 17.6 of 19.5 Mbit/s).
    const p1 = delayStats(stable, runPacket(stable).queue.packets);
    expect(Math.abs(p1.meanMs - 15) / 15).toBeLessThan(0.1);
    expect(p1.empty).toBeLessThan(0.01);
    const r2 = runPacket(unstable);
    const p2 = delayStats(unstable, r2.queue.packets);
    expect(p2.empty).toBeGreaterThan(0.1);
    expect(p2.meanMs).toBeLessThan(10);
    expect(r2.summary.goodputBps).toBeLessThan(0.95 * 20e6 * (1448 / 1488));
  });
});
