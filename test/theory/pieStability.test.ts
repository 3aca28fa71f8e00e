import { describe, expect, it } from 'vitest';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { runPacket } from '../../src/packet/run.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { packetBits } from '../../src/scenario/path.js';
import type { Scenario, Series } from '../../src/index.js';
import { scenarioStability } from '../../src/theory/stability.js';

/**
 * PIE's loop (models/bottleneck-pie.model.yaml with Reno's mean-field model): linearised from the
 * model files as RED's is (Hollot et al.), with PIE's drop probability an integrating controller
 * (a pole of L at s = 0, the Nyquist contour indented around it). Four Reno flows on 20 Mbit/s with
 * PIE's RFC 8033 defaults: stable at a 24 ms base RTT, unstable at 204 ms; the verdict is checked on
 * the fluid model's own queue and on the packet engine's.
 */
function pieLine(bottleneckDelayS: number): Scenario {
  const s = dumbbellScenario('reno', 4);
  s.durationS = 60;
  s.measureFromS = 30;
  s.bottleneck.bandwidthBps = 20e6;
  s.bottleneck.delayS = bottleneckDelayS;
  s.bottleneck.queue = { kind: 'pie', limitPackets: 5000 };
  s.flows.forEach((f) => {
    f.access.queuePackets = 10000;
    f.receiverAccess!.queuePackets = 10000;
  });
  return s;
}

/** Queue delay (ms) over the measurement interval: mean, 5th percentile and the share of time the queue is empty. */
function delayStats(s: Scenario, q: Series): { meanMs: number; p5Ms: number; empty: number } {
  const C = s.bottleneck.bandwidthBps / packetBits(s);
  const v = q.v.filter((_, i) => q.t[i]! >= s.measureFromS).map((x) => (x / C) * 1e3).sort((a, b) => a - b);
  return { meanMs: v.reduce((a, b) => a + b, 0) / v.length, p5Ms: v[Math.floor(0.05 * v.length)]!, empty: v.filter((x) => x < 0.5).length / v.length };
}

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

describe('a bottleneck that switches modes at events has no equilibrium to linearise', () => {
  it('CoDel (its dropping state is an event state) is refused as a hybrid model, naming the bottleneck file; PIE is analysed', () => {
    const codel = pieLine(0.01);
    codel.bottleneck.queue = { kind: 'codel', limitPackets: 5000 };
    expect(() => scenarioStability(codel)).toThrow(/the 'bottleneck-codel' bottleneck is a hybrid model \(its mode changes at events: .*\): it has no equilibrium to linearise \(.*bottleneck-codel\.model\.yaml\)/);
    expect(scenarioStability(pieLine(0.01)).equilibrium.q0).toBeGreaterThan(0);
  });
});
