import { describe, expect, it } from 'vitest';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { packetBits } from '../../src/scenario/path.js';
import { dirWith } from '../models/helpers.js';

/**
 * The fluid engine's queueing delay (RunResult.queue.delay), as the packet engine reports it: per
 * packet the queue admits, over the measurement interval. A flow sending a constant 2C into a
 * drop-tail buffer of B packets fills it in B / C seconds and keeps it full: every admitted packet
 * then waits B / C, the queue admits C packets a second, and the rest is dropped (p = 1/2).
 */
const PROBE = (ratePps: number): string => `kind: flow
id: reno
title: constant-rate probe
citation: test
params:
  Tp: { unit: s, scenario: true, min: 0.000001 }
states:
  y: { unit: "1", initial: 0 }
outputs:
  - rate [packets/s] = ${ratePps}
  - cwnd [segments] = 1
equations:
  - dy/dt = 0
`;

describe('fluid queueing delay', () => {
  it('a full drop-tail queue: mean and p99 equal B / C exactly, C packets admitted a second', () => {
    const s = dumbbellScenario('reno');
    s.bottleneck.bandwidthBps = 1.2e6;
    s.bottleneck.queue = { kind: 'droptail', limitPackets: 50 };
    s.durationS = 10;
    s.measureFromS = 2;
    const C = s.bottleneck.bandwidthBps / packetBits(s);
    const r = runFluid(s, { modelsDir: dirWith(PROBE(2 * C), 'reno') });
    expect(r.status).toBe('ok');
    const d = r.queue.delay!;
    expect(d.meanS).toBeCloseTo(50 / C, 6);
    expect(d.p99S).toBeCloseTo(50 / C, 6);
    expect(d.packets).toBe(Math.round(C * 8));
  });
  it('an empty queue (half the link rate): no queueing delay, every packet admitted', () => {
    const s = dumbbellScenario('reno');
    s.bottleneck.bandwidthBps = 1.2e6;
    s.durationS = 10;
    s.measureFromS = 2;
    const C = s.bottleneck.bandwidthBps / packetBits(s);
    const r = runFluid(s, { modelsDir: dirWith(PROBE(C / 2), 'reno') });
    expect(r.queue.delay!.meanS).toBe(0);
    expect(r.queue.delay!.p99S).toBe(0);
    expect(r.queue.delay!.packets).toBe(Math.round((C / 2) * 8));
  });
});
