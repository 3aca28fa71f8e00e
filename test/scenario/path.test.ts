import { describe, expect, it } from 'vitest';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import {
  baseRttS, bdpPackets, fairSharesBps, flowPath, pathLinks, pathPayloadCapacityBps, payloadFraction, propagationRttS, sharedQueue,
} from '../../src/scenario/path.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { nsToSeconds, secondsToNs } from '../../src/units.js';

describe('path geometry', () => {
  it('flowPath(lfn) lists access then bottleneck, picks the 10 Mbit/s access link and sums the RTTs', () => {
    const s = presetScenario('ns3-lfn', 'reno');
    const p = flowPath(s);
    expect(p.links.map((l) => l.role)).toEqual(['access', 'bottleneck']);
    expect(p.tightest.role).toBe('access');
    expect(p.tightestIndex).toBe(0);
    expect(p.propagationRttS).toBeCloseTo(2 * (0.045 + 0.1), 15);
    // One 394-byte data packet and one 54-byte ACK serialised on each link.
    expect(p.baseRttS).toBeCloseTo(0.29 + 448 * 8 * (1 / 10e6 + 1 / 100e6), 15);
    expect(p.bdpPackets).toBeCloseTo((10e6 * 0.29) / (394 * 8), 9);
    expect(p.fairShareBps).toBe(10e6);
  });
  it('ties go to the shared bottleneck (where RED acts), and the dumbbell queue is one BDP', () => {
    const s = dumbbellScenario('reno');
    s.flows[0]!.access.bandwidthBps = s.bottleneck.bandwidthBps;
    expect(flowPath(s).tightest.role).toBe('bottleneck');
    const d = dumbbellScenario('reno');
    // 100 Mbit/s x 24 ms / (1488 x 8 bits) = 201.6 -> 202 packets, on every queue of the path.
    expect(d.bottleneck.queue.limitPackets).toBe(202);
    expect(pathLinks(d).map((l) => l.queuePackets)).toEqual([202, 202, 202]);
    expect(bdpPackets(d)).toBeCloseTo((100e6 * 0.024) / (1488 * 8), 9);
  });
  it('fairSharesBps water-fills: a flow capped by its own access link keeps it, the others split the rest', () => {
    const s = dumbbellScenario('reno', 3);
    s.flows[0]!.access.bandwidthBps = 10e6;
    const shares = fairSharesBps(s);
    expect(shares).toEqual([10e6, 45e6, 45e6]);
    expect(pathPayloadCapacityBps(s)).toBeCloseTo(100e6 * payloadFraction(s), 3);
    // Access links together slower than the bottleneck: the sum of the access rates is the capacity.
    const lossy = presetScenario('ns3-lfn', 'reno', { flows: 2 });
    expect(fairSharesBps(lossy)).toEqual([10e6, 10e6]);
    expect(pathPayloadCapacityBps(lossy)).toBeCloseTo(20e6 * (340 / 394), 3);
  });
  it('sharedQueue aggregates N access queues when together they are tighter than the bottleneck', () => {
    const s = presetScenario('ns3-lfn', 'reno', { flows: 3 });
    const q = sharedQueue(s);
    expect(q.role).toBe('access');
    expect(q.bandwidthBps).toBe(30e6);
    expect(q.queuePackets).toBe(3 * s.flows[0]!.access.queuePackets);
    expect(sharedQueue(presetScenario('ns3-lossy', 'reno')).role).toBe('bottleneck');
  });
  it('propagationRttS and baseRttS read each flow\'s own links', () => {
    const s = dumbbellScenario('reno', 2);
    s.flows[1]!.access.delayS = 0.02;
    expect(propagationRttS(s, 0)).toBeCloseTo(0.024, 15);
    expect(propagationRttS(s, 1)).toBeCloseTo(2 * (0.02 + 0.01 + 0.001), 15);
    expect(baseRttS(s, 1) - propagationRttS(s, 1)).toBeCloseTo(1528 * 8 * (2 / 1e9 + 1 / 100e6), 15);
  });
  it('secondsToNs and nsToSeconds convert the packet clock', () => {
    expect(secondsToNs(0.1)).toBe(100_000_000);
    expect(secondsToNs(1e-10)).toBe(0);
    expect(nsToSeconds(1_500_000_000)).toBe(1.5);
  });
});
