import { describe, expect, it } from 'vitest';
import { ECN_CE, ECN_ECT0, PacketPool } from '../../../src/net/packets.js';
import { PieController, PieQueueDisc, pieTuningDivisor } from '../../../src/net/qdisc/pie.js';
import { createQueueDisc } from '../../../src/net/qdisc/registry.js';
import { VERDICT_ADMIT, VERDICT_DROP, VERDICT_MARK, type QdiscContext } from '../../../src/net/qdisc/types.js';

const RFC = { targetS: 0.015, tUpdateS: 0.015, alpha: 0.125, beta: 1.25, maxBurstS: 0.15, ecn: false, markEcnThreshold: 0.1 };

describe('PIE (RFC 8033)', () => {
  it('the auto-tuning table of §4.2', () => {
    expect([0, 9e-7, 1e-6, 9e-6, 1e-5, 9e-5, 1e-4, 9e-4, 1e-3, 9e-3, 0.01, 0.09, 0.1, 0.5].map(pieTuningDivisor)).toEqual([
      2048, 2048, 512, 512, 128, 128, 32, 32, 8, 8, 2, 2, 1, 1,
    ]);
  });

  it('drop probability update on a scripted queue-delay trace, value by value', () => {
    // Each step: p += (alpha (qdelay - 15 ms) + beta (qdelay - qdelay_old)) / divisor(p); above 10%
    // the step is capped at 2%; burst allowance 150 ms minus 15 ms per update. Worked out by hand:
    //   step 1: (0.125 x 0.015 + 1.25 x 0.030) / 2048 = 0.039375 / 2048 = 1.922607421875e-5
    //   step 2: p = 1.9e-5 is in [1e-5, 1e-4), divisor 128: (0.125 x 0.015 + 0) / 128
    //           = 1.46484375e-5 -> 3.3874511718749996e-5
    //   step 4: (0.125 x 0.485 + 1.25 x 0.47) / 128 = 0.648125 / 128 -> 0.00511199951171875
    //   step 9 on: p >= 0.1 and the step (0.060625) above 0.02: + 0.02 each.
    const trace = [0.03, 0.03, 0.03, ...Array(12).fill(0.5), 0.001, 0, 0, 0];
    const expected: [number, number][] = [
      [1.922607421875e-5, 135e6],
      [3.3874511718749996e-5, 120e6],
      [4.8522949218749996e-5, 105e6],
      [0.00511199951171875, 90e6],
      [0.01269012451171875, 75e6],
      [0.04300262451171875, 60e6],
      [0.07331512451171875, 45e6],
      [0.10362762451171875, 30e6],
      [0.12362762451171876, 15e6],
      [0.14362762451171876, 0],
      [0.16362762451171875, 0],
      [0.18362762451171874, 0],
      [0.20362762451171873, 0],
      [0.22362762451171872, 0],
      [0.2436276245117187, 0],
      // The delay collapses: the proportional and the derivative terms take p below 0, bounded to 0.
      [0, 0],
      // drop_prob 0 and both delays under half the target: the burst allowance is back (§4.3).
      [0, 150e6],
      [0, 150e6],
      [0, 150e6],
    ];
    const c = new PieController(RFC);
    const seen = trace.map((q) => {
      c.update(q);
      return [c.dropProb, c.burstAllowanceNs];
    });
    expect(seen).toEqual(expected);
  });

  it('decays drop_prob by 2% per update while the queue stays empty (§4.2)', () => {
    const c = new PieController(RFC);
    c.dropProb = 0.2;
    c.update(0);
    // (0.2 + 0.125 x (0 - 0.015)) x 0.98
    expect(c.dropProb).toBe((0.2 - 0.001875) * 0.98);
  });

  function disc(ecn: boolean, u: number) {
    const pool = new PacketPool(8);
    const ctx: QdiscContext = { pool, bandwidthBps: 12e6, typicalTxNs: 1e6, uniform: () => u, dropHeld: () => undefined };
    const d = createQueueDisc({ kind: 'pie', limitPackets: 100, ecn }, ctx) as PieQueueDisc;
    return { d, pool };
  }

  it('enqueue: no random drop during the burst allowance, with <= 2 packets waiting, or under half the target below 20%', () => {
    const { d } = disc(false, 0);
    // A constant 100 ms of queue (busy until now + 100 ms) for 1 s of arrivals every ms.
    const verdicts: number[] = [];
    for (let t = 1e6; t <= 1e9; t += 1e6) verdicts.push(d.enqueue(0, t, 10, t + 100e6));
    // Burst allowance 150 ms: the first drop comes after the update at 150 ms took it to 0.
    expect(verdicts.indexOf(VERDICT_DROP)).toBe(149);
    expect(d.controller.dropProb).toBeGreaterThan(0.1);
    // Two packets waiting: never dropped whatever drop_prob.
    expect(d.enqueue(0, 1e9 + 1, 2, 1e9 + 100e6)).toBe(VERDICT_ADMIT);
    // Over the limit: dropped, counted as overlimit.
    expect(d.enqueue(0, 1e9 + 2, 100, 1e9 + 100e6)).toBe(VERDICT_DROP);
    expect(d.stats.drops[0]).toBe(1);
  });

  it('with ecn marks an ECN-capable packet instead of dropping while drop_prob is below 10%, drops above', () => {
    const { d, pool } = disc(true, 0);
    const p = pool.alloc();
    d.controller.burstAllowanceNs = 0;
    d.controller.qdelayOldS = 0.1;
    d.controller.dropProb = 0.05;
    pool.ecn[p] = ECN_ECT0;
    expect(d.enqueue(p, 0, 10, 100e6)).toBe(VERDICT_MARK);
    expect(pool.ecn[p]).toBe(ECN_CE);
    d.controller.dropProb = 0.15;
    pool.ecn[p] = ECN_ECT0;
    expect(d.enqueue(p, 1, 10, 100e6)).toBe(VERDICT_DROP);
    expect(d.stats.toJSON()).toEqual({ drops: { overlimit: 0, unforced: 1 }, marks: { unforced: 1 } });
  });

  it('applies the updates due since the last arrival, with the delay each boundary saw, as a timer would', () => {
    // Link busy until 40 ms; next arrival at 50 ms: updates at 15 ms (delay 25 ms) and 30 ms (10 ms),
    // 45 ms (0).
    const { d } = disc(false, 0.99);
    d.enqueue(0, 1, 5, 40e6);
    d.enqueue(0, 50e6, 0, 40e6);
    const c = new PieController(RFC);
    c.update(0.025);
    c.update(0.01);
    c.update(0);
    expect(d.controller.dropProb).toBe(c.dropProb);
    expect(d.controller.qdelayOldS).toBe(0);
  });
});
