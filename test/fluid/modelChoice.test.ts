import { describe, expect, it } from 'vitest';
import { fluidSystem, runFluid } from '../../src/fluid/run/runFluid.js';
import { randomLossEvents } from '../../src/runs/modelRuns.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { baseRttS, packetBits } from '../../src/scenario/path.js';
import type { QueueSpec, Scenario } from '../../src/index.js';
import type { Variant } from '../../src/variants.js';

/**
 * Which model stands for a flow (src/fluid/run/modelChoice.ts): a flow alone on an active queue runs
 * its variant's lone-flow model (Reno: reno-sawtooth.model.yaml, a hybrid), anything else its
 * variant's own; and which fluid runs the comparisons repeat per packet seed (runs/modelRuns.ts).
 */
function on(variant: Variant, flows: number, queue: QueueSpec): Scenario {
  const s = dumbbellScenario(variant, flows);
  s.durationS = 30;
  s.measureFromS = 15;
  s.bottleneck.queue = queue;
  s.flows.forEach((f) => {
    f.access.queuePackets = 10000;
    f.receiverAccess!.queuePackets = 10000;
  });
  return s;
}
const CODEL: QueueSpec = { kind: 'codel', limitPackets: 1000 };
const models = (s: Scenario): string[] => [...new Set(fluidSystem(s).groups.map((g) => g.model))];

describe('the lone-flow rule', () => {
  it('Reno alone on RED, PIE, CoDel, or in each FQ-CoDel queue runs reno-sawtooth; sharing a queue, or on drop-tail, its mean-field model', () => {
    expect(models(on('reno', 1, CODEL))).toEqual(['reno-sawtooth']);
    expect(models(on('reno', 1, { kind: 'pie', limitPackets: 1000 }))).toEqual(['reno-sawtooth']);
    expect(models(on('reno', 1, { kind: 'red', limitPackets: 1000, minThPackets: 50, maxThPackets: 150, maxP: 0.1, weight: 0.002, gentle: true }))).toEqual(['reno-sawtooth']);
    expect(models(on('reno', 4, { kind: 'fq_codel', limitPackets: 1000 }))).toEqual(['reno-sawtooth']);
    expect(models(on('reno', 4, CODEL))).toEqual(['reno']);
    expect(models(on('reno', 1, { kind: 'droptail', limitPackets: 100 }))).toEqual(['reno']);
    // Other variants keep their own model (CUBIC's is hybrid already).
    expect(models(on('cubic', 1, CODEL))).toEqual(['cubic']);
    expect(models(on('newreno', 1, CODEL))).toEqual(['newreno']);
  });

  it('the comparisons run a case once per packet seed exactly when its fluid run draws Poisson loss events', () => {
    const random = randomLossEvents();
    expect(random(on('reno', 1, CODEL))).toBe(true);
    expect(random(on('reno', 4, CODEL))).toBe(false);
    expect(random(on('reno', 1, { kind: 'droptail', limitPackets: 100 }))).toBe(false);
    expect(random(on('cubic', 1, { kind: 'droptail', limitPackets: 100 }))).toBe(true);
    // FQ-CoDel's per-flow queues keep periodic events whatever is asked: deterministic.
    expect(random(on('reno', 4, { kind: 'fq_codel', limitPackets: 1000 }))).toBe(false);
    expect(random(on('cubic', 4, { kind: 'fq_codel', limitPackets: 1000 }))).toBe(false);
  });

  it("a lone Reno on CoDel: each event halves the window, below the BDP, and the link idles as the sawtooth's geometry says", () => {
    const s = on('reno', 1, CODEL);
    const r = runFluid(s, { lossProcess: 'periodic', gridPoints: 30000 });
    const { t, v } = r.flows[0]!.trace.cwndBytes;
    const peaks: number[] = [];
    const troughs: number[] = [];
    for (let i = 1; i < v.length; i++) {
      if (t[i]! < s.measureFromS || !(v[i]! < 0.8 * v[i - 1]!)) continue;
      peaks.push(v[i - 1]! / s.mssBytes);
      troughs.push(v[i]! / s.mssBytes);
    }
    expect(peaks.length).toBeGreaterThanOrEqual(3);
    const Wp = peaks.reduce((a, b) => a + b, 0) / peaks.length;
    peaks.forEach((p, k) => expect(troughs[k]! / p).toBeCloseTo(0.5, 2));
    const C = s.bottleneck.bandwidthBps / packetBits(s);
    const P = C * baseRttS(s, 0);
    const W0 = Wp / 2;
    expect(W0).toBeLessThan(P);
    // dW/dt = 1/R: below the BDP R = Tp (queue empty, rate W/Tp < C), above it R = W/C (link busy):
    // per cycle (P - W0) Tp + (Wp^2 - P^2)/(2C) seconds deliver (Wp^2 - W0^2)/2 packets.
    const utilisation = (Wp ** 2 - W0 ** 2) / (2 * P * (P - W0) + Wp ** 2 - P ** 2);
    expect(utilisation).toBeLessThan(0.92);
    const measured = r.summary.goodputBps / (C * s.mssBytes * 8);
    // Measured: peak 253.0, trough 126.5, BDP 202.8 segments: 0.886 against 0.892 (15 s is not a whole
    // number of 3 s cycles); the packet engine's Reno on this line: 0.876.
    expect(Math.abs(measured / utilisation - 1)).toBeLessThan(0.02);
  });
});
