import { describe, expect, it } from 'vitest';
import { Link } from '../../src/net/link.js';
import { droptail } from '../../src/net/qdisc/droptail.js';
import type { QdiscContext } from '../../src/net/qdisc/types.js';
import { secondsToNs } from '../../src/engine/simulator.js';
import { buildPacketModel } from '../../src/packet/run.js';
import { validateScenario } from '../../src/scenario/check/validate.js';
import { mapScenario } from '../../src/fluid/run/scenarioMap.js';
import { expectConservation, line } from './helpers.js';

const ctx = { pool: null, bandwidthBps: 8e6, typicalTxNs: 1_000_000, uniform: () => 0.5, dropHeld: () => undefined } as unknown as QdiscContext;

describe('bottleneck rate changes (scenario bottleneck.rateChanges)', () => {
  it('Link.setBandwidth: packets admitted before keep their departure; later ones serialise at the new rate', () => {
    const l = new Link('l', 8e6, 0, droptail.create(10, {}, ctx)); // 1 byte per microsecond
    expect(l.admit(0, 1000)).toBe(1_000_000);
    expect(l.admit(0, 1000)).toBe(2_000_000);
    l.setBandwidth(16e6);
    expect(l.bandwidthBps).toBe(16e6);
    expect(l.admit(0, 1000)).toBe(2_500_000); // behind the queue, at 2 bytes per microsecond
    expect(l.txNs(1000)).toBe(500_000);
  });

  it('a bulk flow delivers at the first rate before the step and at the second after it (10 -> 2 Mbit/s at 3 s)', () => {
    const s = line({ variant: 'cubic', bottleneckBps: 10e6, bottleneckDelayS: 0.01, queuePackets: 50, durationS: 6 });
    s.bottleneck.rateChanges = [{ atS: 3, bandwidthBps: 2e6 }];
    const m = buildPacketModel(validateScenario(s));
    const delivered = (tS: number): number => {
      m.sim.run(secondsToNs(tS));
      return m.receivers[0]!.deliveredBytes;
    };
    const at1 = delivered(1);
    const at3 = delivered(3);
    const at4 = delivered(4);
    const at6 = delivered(6);
    expectConservation(m);
    // Payload share of the wire: 1448 / 1500.
    const payload = (bps: number, s2: number): number => ((bps * 1448) / 1500 / 8) * s2;
    expect(at3 - at1).toBeGreaterThan(0.9 * payload(10e6, 2));
    expect(at3 - at1).toBeLessThanOrEqual(payload(10e6, 2) * 1.001);
    expect(at6 - at4).toBeGreaterThan(0.9 * payload(2e6, 2));
    expect(at6 - at4).toBeLessThanOrEqual(payload(2e6, 2) * 1.001);
    expect(m.net.links[m.net.bottleneckForward]!.bandwidthBps).toBe(2e6);
  });

  it('bad input: a step at or after durationS, steps out of order, a rate of 0; the fluid engine refuses steps', () => {
    const s = line({ durationS: 5 });
    s.bottleneck.rateChanges = [{ atS: 5, bandwidthBps: 1e6 }];
    expect(() => validateScenario(s)).toThrow(/bottleneck.rateChanges\[0\].atS must be below durationS \(5\), got 5/);
    s.bottleneck.rateChanges = [{ atS: 2, bandwidthBps: 1e6 }, { atS: 2, bandwidthBps: 2e6 }];
    expect(() => validateScenario(s)).toThrow(/bottleneck.rateChanges\[1\].atS must be after rateChanges\[0\].atS \(2\), got 2/);
    s.bottleneck.rateChanges = [{ atS: 2, bandwidthBps: 0 }];
    expect(() => validateScenario(s)).toThrow(/bottleneck.rateChanges\[0\].bandwidthBps/);
    s.bottleneck.rateChanges = [{ atS: 2, bandwidthBps: 1e6 }];
    expect(() => mapScenario(validateScenario(s))).toThrow(/bottleneck.rateChanges has steps: the fluid models assume a constant bottleneck rate/);
  });
});
