import { describe, expect, it } from 'vitest';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { packetBits } from '../../src/scenario/path.js';
import { scenarioStability } from '../../src/theory/stability.js';
import { delayStats, pieLine } from './pieLine.js';

/** PIE's loop (the line: pieLine.ts); the packet engine's queue beside its verdicts is in pieStability-agreement.test.ts. */
describe("PIE's linear stability from the model files", () => {
  const stable = pieLine(0.01);
  const unstable = pieLine(0.1);

  it('the equilibrium holds the queue delay at QDELAY_REF (the integrator) and the verdicts: stable at 24 ms (phase margin 59, gain margin 16.8), unstable at 204 ms', () => {
    const a = scenarioStability(stable);
    expect(a.equilibrium.regime).toBe('standing');
    expect(a.equilibrium.q0 / (20e6 / packetBits(stable))).toBeCloseTo(0.015, 9);
    expect(a.stable).toBe(true);
    expect(a.phaseMarginDeg).toBeCloseTo(59.0, 0);
    expect(a.gainMargin).toBeCloseTo(16.77, 1);
    const b = scenarioStability(unstable);
    expect(b.stable).toBe(false);
    expect(b.phaseMarginDeg).toBeLessThan(0);
    expect(b.gainMargin).toBeLessThan(1);
  });

  it("the fluid model's queue settles at the target where the loop is stable and swings to empty where it is not", () => {
    const f1 = delayStats(stable, runFluid(stable).queue.packets);
    expect(Math.abs(f1.meanMs - 15)).toBeLessThan(0.1);
    expect(f1.p5Ms).toBeGreaterThan(14.9);
    const f2 = delayStats(unstable, runFluid(unstable).queue.packets);
    expect(f2.empty).toBeGreaterThan(0.3);
    expect(f2.meanMs).toBeLessThan(10);
  });

});

describe('a bottleneck that switches modes at events has no equilibrium to linearise', () => {
  it('CoDel (its dropping state is an event state) is refused as a hybrid model, naming the bottleneck file; PIE is analysed', () => {
    const codel = pieLine(0.01);
    codel.bottleneck.queue = { kind: 'codel', limitPackets: 5000 };
    expect(() => scenarioStability(codel)).toThrow(/the 'bottleneck-codel' bottleneck is a hybrid model \(its mode changes at events: .*\): it has no equilibrium to linearise \(.*bottleneck-codel\.model\.yaml\)/);
    expect(scenarioStability(pieLine(0.01)).equilibrium.q0).toBeGreaterThan(0);
  });
});
