import { describe, expect, it } from 'vitest';
import { F_WIRE_BYTES, PacketPool, ROW_SLOTS } from '../../../src/net/packets.js';
import { Policer } from '../../../src/net/qdisc/policer.js';
import { createQueueDisc } from '../../../src/net/qdisc/registry.js';
import { VERDICT_ADMIT, VERDICT_DROP, type QdiscContext } from '../../../src/net/qdisc/types.js';
import { parseScenarioText } from '../../../src/scenario/check/load.js';

const pool = new PacketPool(8);
const PKT = pool.alloc();
pool.rows[PKT * ROW_SLOTS + F_WIRE_BYTES] = 1500;
const ctx: QdiscContext = { pool, bandwidthBps: 1e9, typicalTxNs: 12_000, uniform: () => 0.5, dropHeld: () => undefined };

/** 8 Mbit/s = 1 byte per microsecond; bucket of two 1500-byte packets. */
function policer(limitPackets = 100): Policer {
  return createQueueDisc({ kind: 'policer', limitPackets, rateBps: 8e6, burstBytes: 3000 }, ctx) as Policer;
}

describe('token-bucket policer', () => {
  it('admits the initial burst, drops a packet that finds fewer tokens than its bytes, refills at the rate', () => {
    const p = policer();
    expect(p.enqueue(PKT, 0, 0, 0)).toBe(VERDICT_ADMIT);
    expect(p.enqueue(PKT, 0, 0, 0)).toBe(VERDICT_ADMIT);
    expect(p.tokensBytes).toBe(0);
    expect(p.enqueue(PKT, 1_499_000, 0, 0)).toBe(VERDICT_DROP); // 1499 bytes of tokens
    expect(p.tokensBytes).toBeCloseTo(1499, 9);
    expect(p.enqueue(PKT, 1_500_000, 0, 0)).toBe(VERDICT_ADMIT); // 1500: a dropped packet took nothing
    expect(p.enqueue(PKT, 100_000_000, 0, 0)).toBe(VERDICT_ADMIT); // the bucket holds at most 3000
    expect(p.tokensBytes).toBe(1500);
    expect(p.stats.toJSON().drops).toEqual({ policed: 1, overlimit: 0 });
  });

  it('offered at twice the rate for 1 s, it passes burst + rate x time bytes (within a packet)', () => {
    const p = policer();
    let admitted = 0;
    for (let t = 0; t <= 1e9; t += 750_000) if (p.enqueue(PKT, t, 0, 0) === VERDICT_ADMIT) admitted += 1500;
    expect(Math.abs(admitted - (3000 + 1e6))).toBeLessThanOrEqual(1500);
  });

  it('behind the bucket, the FIFO drops at its limit (overlimit) without spending tokens', () => {
    const p = policer(1);
    expect(p.enqueue(PKT, 0, 1, 10)).toBe(VERDICT_DROP);
    expect(p.tokensBytes).toBe(3000);
    expect(p.stats.toJSON().drops).toEqual({ policed: 0, overlimit: 1 });
  });

  it('scenario files: kind policer with its rate and burst; a rate of 0 is refused naming the field', () => {
    const s = parseScenarioText('bottleneck:\n  queue: {kind: policer, limitPackets: 10, rateBps: 5e6, burstBytes: 30000}\n', 'p.yaml');
    expect(s.bottleneck.queue).toMatchObject({ kind: 'policer', rateBps: 5e6, burstBytes: 30000 });
    expect(() => parseScenarioText('bottleneck:\n  queue: {kind: policer, rateBps: 0}\n', 'p.yaml')).toThrow(/bottleneck.queue.rateBps/);
  });
});
