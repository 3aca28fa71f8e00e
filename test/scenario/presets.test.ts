import { describe, expect, it } from 'vitest';
import { ns3QueuePackets, presetScenario, PRESET_NAMES } from '../../src/scenario/presets.js';
import { validateScenario } from '../../src/scenario/check/validate.js';

describe('presets', () => {
  it('mirror the seed study Table 1 lines', () => {
    const normal = presetScenario('normal', 'reno');
    expect(normal.bottleneck.bandwidthBps).toBe(1e9);
    expect(normal.bottleneck.delayS).toBe(0.001);
    expect(normal.bottleneck.loss).toEqual({ rate: 1e-4, direction: 'both' });
    const lfn = presetScenario('lfn', 'reno');
    expect([lfn.bottleneck.bandwidthBps, lfn.bottleneck.delayS, lfn.bottleneck.loss.rate]).toEqual([100e6, 0.1, 1e-3]);
    const lossy = presetScenario('lossy', 'reno');
    expect([lossy.bottleneck.bandwidthBps, lossy.bottleneck.delayS, lossy.bottleneck.loss.rate]).toEqual([1e6, 0.01, 0.1]);
  });

  it("use ns-3's example setup: MTU 400, 10 Mbps / 45 ms access, app from 0.1 s to duration - 2.9 s", () => {
    const s = presetScenario('lfn', 'cubic', { durationS: 500 });
    expect(s.mssBytes).toBe(340);
    expect(s.mssBytes + s.headerBytes).toBe(394);
    expect(s.flows[0]!.access.bandwidthBps).toBe(10e6);
    expect(s.flows[0]!.access.delayS).toBe(0.045);
    expect(s.flows[0]!.receiverAccess).toBeNull();
    expect(s.flows[0]!.startS).toBeCloseTo(0.1, 12);
    expect(s.flows[0]!.stopS).toBeCloseTo(497.1, 9);
    expect(s.tcp).toMatchObject({ initialCwndSegments: 10, minRtoS: 1, delAckCount: 2, delAckTimeoutS: 0.2 });
  });

  it('ns3QueuePackets is floor(BDP / MTU) + the 100-packet device queue (34 + 100 on lossy)', () => {
    expect(ns3QueuePackets(10e6, 0.045, 1e6, 0.01)).toBe(34 + 100);
    expect(ns3QueuePackets(10e6, 0.045, 1e9, 0.001)).toBe(287 + 100);
    expect(ns3QueuePackets(10e9, 0.0001, 1e9, 0.001)).toBe(687 + 100);
  });

  it('staggers flow starts by 0.1 s and recomputes queues from overrides', () => {
    const s = presetScenario('lossy', 'reno', { flows: 3, bottleneckBps: 2e6 });
    expect(s.flows.map((f) => f.startS)).toEqual([0.1, 0.2, 0.30000000000000004]);
    expect(s.bottleneck.queue.limitPackets).toBe(ns3QueuePackets(10e6, 0.045, 2e6, 0.01));
  });

  it('every preset is a valid scenario', () => {
    for (const name of PRESET_NAMES) expect(() => validateScenario(presetScenario(name, 'westwood'))).not.toThrow();
  });
});
