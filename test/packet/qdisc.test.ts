import { describe, expect, it } from 'vitest';
import { ECN_ECT0 } from '../../src/net/packets.js';
import { buildPacketModel } from '../../src/packet/run.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { QueueSpec, Scenario } from '../../src/scenario/types.js';
import { validateScenario } from '../../src/scenario/check/validate.js';
import { simulate } from './helpers.js';

const BOTTLENECK_BPS = 100e6;
/** Wire bytes of a full segment (MSS 1448 + 40 B headers) and its time on the 100 Mbit/s bottleneck. */
const WIRE_BYTES = 1488;
const TX_S = (WIRE_BYTES * 8) / BOTTLENECK_BPS;

/**
 * A saturating CUBIC flow (flow 0) beside a sparse one (flow 1): flow 1's own access link runs at
 * 1488 B per 50 ms (238 kbit/s), so whatever its window it reaches the bottleneck as one packet every
 * 50 ms, the RFC 8290 sparse-flow case. 100 Mbit/s, RTT 24 ms, a buffer of one BDP (202 packets).
 */
function sparseBesideBulk(queue: QueueSpec['kind']): Scenario {
  const s = dumbbellScenario('cubic', 2);
  s.durationS = 30;
  s.measureFromS = 5;
  s.flows[1]!.access = { bandwidthBps: (WIRE_BYTES * 8) / 0.05, delayS: 0.001, queuePackets: 4 };
  s.bottleneck.queue = { kind: queue, limitPackets: s.bottleneck.queue.limitPackets } as QueueSpec;
  return validateScenario(s);
}

describe('queue disciplines in the packet engine', () => {
  it('FQ-CoDel: a sparse flow beside a saturating CUBIC flow waits under the 5 ms target at its 99th percentile; drop-tail makes it wait the full buffer', () => {
    const fifo = simulate(sparseBesideBulk('droptail')).result;
    const fq = simulate(sparseBesideBulk('fq_codel')).result;
    const limit = fifo.spec.bottleneck.queue.limitPackets;
    const fullBufferS = limit * TX_S;
    const sparseFifo = fifo.flows[1]!.summary.queueDelay!;
    const sparseFq = fq.flows[1]!.summary.queueDelay!;
    // ~500 packets of the sparse flow in the 25 s measured.
    expect(sparseFq.packets).toBeGreaterThan(400);
    expect(sparseFq.p99S).toBeLessThan(0.005);
    // Drop-tail: CUBIC keeps the shared FIFO near full, and the sparse flow waits behind it.
    expect(sparseFifo.p99S).toBeGreaterThan(0.9 * fullBufferS);
    expect(sparseFifo.meanS).toBeGreaterThan(0.5 * fullBufferS);
    // The bulk flow still fills the link under FQ-CoDel.
    expect(fq.flows[0]!.summary.goodputBps).toBeGreaterThan(0.9 * BOTTLENECK_BPS * (1448 / WIRE_BYTES));
    expect(fq.queue.discipline!.kind).toBe('fq_codel');
    expect(fq.queue.discipline!.drops['target exceeded']).toBeGreaterThan(0);
  });

  it('FQ-CoDel: 4 equal bulk CUBIC flows share within 5% (Jain >= 0.99 over 60 s)', () => {
    const s = dumbbellScenario('cubic', 4);
    s.durationS = 60;
    s.bottleneck.bandwidthBps = 20e6;
    s.bottleneck.queue = { kind: 'fq_codel', limitPackets: 1000 };
    const r = simulate(validateScenario(s)).result;
    const x = r.flows.map((f) => f.summary.goodputBps);
    const jain = x.reduce((a, b) => a + b, 0) ** 2 / (x.length * x.reduce((a, b) => a + b * b, 0));
    expect(jain).toBeGreaterThanOrEqual(0.99);
    const mean = x.reduce((a, b) => a + b, 0) / x.length;
    for (const g of x) expect(Math.abs(g / mean - 1)).toBeLessThan(0.05);
  });

  it('PIE: a steady CUBIC load holds the mean queue delay at 15 ms +- 5 ms', () => {
    const s = dumbbellScenario('cubic', 4);
    s.durationS = 60;
    s.measureFromS = 10;
    // A buffer of 8 BDP (~190 ms): the delay PIE holds is its own doing, not the buffer's.
    s.bottleneck.queue = { kind: 'pie', limitPackets: 8 * s.bottleneck.queue.limitPackets };
    const r = simulate(validateScenario(s)).result;
    expect(r.queue.delay!.meanS).toBeGreaterThan(0.010);
    expect(r.queue.delay!.meanS).toBeLessThan(0.020);
    expect(r.queue.discipline!.drops.unforced).toBeGreaterThan(0);
    expect(r.summary.goodputBps).toBeGreaterThan(0.9 * BOTTLENECK_BPS * (1448 / WIRE_BYTES));
  });

  it('CoDel with ecn marks ECT traffic instead of dropping it, and the per-link accounting counts the marks', () => {
    const s = dumbbellScenario('cubic', 1);
    s.durationS = 10;
    s.bottleneck.queue = { kind: 'codel', limitPackets: 4 * s.bottleneck.queue.limitPackets, ecn: true };
    const m = buildPacketModel(validateScenario(s));
    // Every data packet ECT(0), as an ECN-capable sender sends them (the TCP side is not needed here:
    // CUBIC ignores the marks, so CoDel keeps marking at its control law's pace).
    const send = m.net.sendData.bind(m.net);
    m.net.sendData = (flow, seq, len, retx) => send(flow, seq, len, retx, ECN_ECT0);
    m.sim.run(10e9);
    const stats = m.net.links[m.net.bottleneckForward]!.qdisc.stats.toJSON();
    expect(stats.marks['target exceeded']).toBeGreaterThan(10);
    expect(stats.drops['target exceeded']).toBe(0);
  });
});
