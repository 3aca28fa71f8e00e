import { describe, expect, it } from 'vitest';
import { estimatedCost, RunPool } from '../../src/runs/pool.js';
import { presetScenario } from '../../src/scenario/presets.js';
import type { Scenario } from '../../src/scenario/types.js';
import { FAKE_ENGINE_MODULE } from './helpers.js';

const withDuration = (s: Scenario, durationS: number): Scenario => ({ ...s, durationS });

describe('RunPool', () => {
  it('runs the queued tasks longest first, ties in submission order, one thread', async () => {
    const pool = new RunPool(1);
    const base = presetScenario('ns3-normal', 'reno');
    const order: string[] = [];
    const costs = [3, 9, 1, 9, 5];
    try {
      await Promise.all(
        costs.map(async (cost, i) => {
          const r = await pool.run({ engineModule: FAKE_ENGINE_MODULE, engine: 'packet', scenario: { ...base, name: `s${i}` } }, cost);
          expect(r.status).toBe('ok');
          order.push(`s${i}`);
        }),
      );
    } finally {
      await pool.destroy();
    }
    expect(order).toEqual(['s1', 's3', 's4', 's0', 's2']);
  });
});

describe('estimatedCost', () => {
  it("a packet run costs the packets its tightest link carries in its simulated time; a fluid run its simulated time", () => {
    const normal = presetScenario('normal', 'reno');
    const ns3 = presetScenario('ns3-normal', 'reno');
    // normal: 1 Gbit/s of 394-byte packets (340 + 54) for 10 s; ns3-normal: its 10 Mbit/s access link, 100 s.
    expect(estimatedCost({ engine: 'packet', scenario: withDuration(normal, 10) })).toBeCloseTo((1e9 / (8 * 394)) * 10, 0);
    expect(estimatedCost({ engine: 'packet', scenario: ns3 })).toBeCloseTo((10e6 / (8 * 394)) * 100, 0);
    expect(estimatedCost({ engine: 'fluid', scenario: ns3 })).toBe(300_000);
  });
});
