import { describe, expect, it } from 'vitest';
import { flowPath } from '../../src/scenario/path.js';
import { cliWarnings } from '../../src/cli/warnings.js';
import { bottleneckWarnings } from '../../src/scenario/pathWarnings.js';
import { ns3QueuePackets, presetLine, presetScenario, PRESET_NAMES } from '../../src/scenario/presets.js';
import { validateScenario } from '../../src/scenario/check/validate.js';

describe('presets', () => {
  it('mirror the seed study Table 1 lines, on both setups', () => {
    for (const [line, ns3] of [['normal', 'ns3-normal'], ['lfn', 'ns3-lfn'], ['lossy', 'ns3-lossy']] as const) {
      // The same line; the ACKs' loss stream is ns-3's shared one on ns3-*, their own on the study's normal and lfn.
      const own = presetScenario(line, 'reno').bottleneck;
      expect(own.loss.ackStream).toBe(line === 'lossy' ? undefined : 'own');
      expect(presetScenario(ns3, 'reno').bottleneck).toEqual({ ...own, loss: { rate: own.loss.rate, direction: 'both' }, queue: presetScenario(ns3, 'reno').bottleneck.queue });
      expect(presetLine(ns3)).toBe(line);
    }
    const normal = presetScenario('normal', 'reno');
    expect(normal.bottleneck.bandwidthBps).toBe(1e9);
    expect(normal.bottleneck.delayS).toBe(0.001);
    expect(normal.bottleneck.loss).toEqual({ rate: 1e-4, direction: 'both', ackStream: 'own' });
    const lfn = presetScenario('lfn', 'reno');
    expect([lfn.bottleneck.bandwidthBps, lfn.bottleneck.delayS, lfn.bottleneck.loss.rate]).toEqual([100e6, 0.1, 1e-3]);
    const lossy = presetScenario('lossy', 'reno');
    expect([lossy.bottleneck.bandwidthBps, lossy.bottleneck.delayS, lossy.bottleneck.loss.rate]).toEqual([1e6, 0.01, 0.1]);
  });

  it("ns3-*: ns-3's example setup: MTU 400, 10 Mbps / 45 ms access, app from 0.1 s to duration - 2.9 s", () => {
    const s = presetScenario('ns3-lfn', 'cubic', { durationS: 500 });
    expect(s.mssBytes).toBe(340);
    expect(s.mssBytes + s.headerBytes).toBe(394);
    expect(s.flows[0]!.access.bandwidthBps).toBe(10e6);
    expect(s.flows[0]!.access.delayS).toBe(0.045);
    expect(s.flows[0]!.receiverAccess).toBeNull();
    expect(s.flows[0]!.startS).toBeCloseTo(0.1, 12);
    expect(s.flows[0]!.stopS).toBeCloseTo(497.1, 9);
    expect(s.tcp).toMatchObject({ initialCwndSegments: 10, minRtoS: 1, delAckCount: 2, delAckTimeoutS: 0.2 });
  });

  it('normal, lfn, lossy: each line its own bottleneck, access 10x its rate with 0.1 ms, queues by the same BDP rule', () => {
    // Exact values of the README's preset table: BDP = line rate x 2 x (0.1 ms + line delay).
    const expected = { normal: [10e9, 787], lfn: [1e9, 6356], lossy: [10e6, 106] } as const;
    for (const [line, [accessBps, queue]] of Object.entries(expected)) {
      const s = presetScenario(line as keyof typeof expected, 'reno');
      expect(s.flows[0]!.access).toEqual({ bandwidthBps: accessBps, delayS: 0.0001, queuePackets: queue });
      expect(s.bottleneck.queue.limitPackets).toBe(queue);
      expect(flowPath(s, 0).tightest.role).toBe('bottleneck');
      expect(bottleneckWarnings(s)).toEqual([]);
      expect([s.mssBytes, s.headerBytes, s.flows[0]!.startS, s.flows[0]!.receiverAccess]).toEqual([340, 54, 0.1, null]);
    }
    // An overridden line rate takes its access link along (10x), unless the access rate is given.
    expect(presetScenario('lfn', 'reno', { bottleneckBps: 50e6 }).flows[0]!.access.bandwidthBps).toBe(500e6);
    expect(presetScenario('lfn', 'reno', { bottleneckBps: 50e6, accessBps: 1e6 }).flows[0]!.access.bandwidthBps).toBe(1e6);
  });

  it("ns3-*: the command line does not warn about the example's own slow access link (pages state it); a changed line behind it it does", () => {
    expect(cliWarnings(presetScenario('ns3-normal', 'reno'))).toEqual([]);
    expect(bottleneckWarnings(presetScenario('ns3-normal', 'reno'))[0]).toMatch(/the access link runs at 10\.00 Mbit\/s/);
    expect(cliWarnings(presetScenario('ns3-lfn', 'reno', { bottleneckBps: 1e9 }))[0]).toMatch(/^the bottleneck link \(1\.000 Gbit\/s\) is not the tightest link on ns3-lfn/);
  });

  it('ns3QueuePackets is floor(BDP / MTU) + the 100-packet device queue (34 + 100 on lossy)', () => {
    expect(ns3QueuePackets(10e6, 0.045, 1e6, 0.01)).toBe(34 + 100);
    expect(ns3QueuePackets(10e6, 0.045, 1e9, 0.001)).toBe(287 + 100);
    expect(ns3QueuePackets(10e9, 0.0001, 1e9, 0.001)).toBe(687 + 100);
  });

  it('staggers flow starts by 0.1 s and recomputes queues from overrides', () => {
    const s = presetScenario('ns3-lossy', 'reno', { flows: 3, bottleneckBps: 2e6 });
    expect(s.flows.map((f) => f.startS)).toEqual([0.1, 0.2, 0.30000000000000004]);
    expect(s.bottleneck.queue.limitPackets).toBe(ns3QueuePackets(10e6, 0.045, 2e6, 0.01));
  });

  it('every preset is a valid scenario', () => {
    for (const name of PRESET_NAMES) expect(() => validateScenario(presetScenario(name, 'westwood'))).not.toThrow();
  });
});
