import { describe, expect, it } from 'vitest';
import { runPacket } from '../../src/packet/run.js';
import type { RedQueueDisc } from '../../src/net/qdisc/red.js';
import { line, simulate, valueAt } from './helpers.js';

describe('runPacket: no loss, one flow', () => {
  it('goodput is within 1% of bottleneck rate x MSS / (MSS + headers) with a big buffer', () => {
    // 10 Mbps / 10 ms bottleneck, 1 Gbps access; the buffer holds the 2 MB receive window.
    const s = line({ queuePackets: 5000, durationS: 20, measureFromS: 5 });
    const { result } = simulate(s);
    const ideal = (10e6 * 1448) / (1448 + 52);
    expect(result.summary.goodputBps / ideal).toBeGreaterThan(0.99);
    expect(result.summary.goodputBps / ideal).toBeLessThanOrEqual(1.0001);
    expect(result.summary.retransmits).toBe(0);
    expect(result.summary.drops).toEqual({ queue: 0, random: 0, ackRandom: 0, ackQueue: 0 });
    expect(result.summary.lossRate).toBe(0);
  });

  it('slow start doubles cwnd every RTT (one ACK per segment)', () => {
    // 10 Gbps everywhere so that bursts take microseconds; RTT = 2 (1 + 10 + 1) ms = 24 ms.
    const s = line({ bottleneckBps: 10e9, accessBps: 10e9, receiverAccess: true, delAckCount: 1, durationS: 0.3, maxPoints: 100_000, queuePackets: 100_000 });
    const { result } = simulate(s);
    const cwnd = result.flows[0]!.trace.cwndBytes;
    const rttS = 0.024;
    // After k rounds (sampled mid-round), cwnd = 10 x 2^k segments, up to the 2 MB receive window.
    for (let k = 0; k <= 7; k++) {
      expect(valueAt(cwnd, (k + 0.5) * rttS) / 1448).toBe(10 * 2 ** k);
    }
  });

  it('the first RTT sample equals propagation + serialisation delays of the path', () => {
    const s = line({ bottleneckBps: 10e6, accessBps: 100e6, receiverAccess: true, delAckCount: 1, durationS: 0.2 });
    const { model } = simulate(s);
    const data = 1448 + 52;
    const ack = 52;
    const ser = (bytes: number, bps: number): number => Math.round((bytes * 8e9) / bps) / 1e9;
    const expected =
      2 * (0.001 + 0.01 + 0.001) + ser(data, 100e6) + ser(data, 10e6) + ser(data, 100e6) + ser(ack, 100e6) + ser(ack, 10e6) + ser(ack, 100e6);
    expect(model.senders[0]!.tcb.minRttS).toBeCloseTo(expected, 9);
    // RFC 6298 (2.2): the first SRTT is the first sample.
    expect(model.stats[0]!.trace().srttS.v[0]!).toBeCloseTo(expected, 9);
  });
});

describe('runPacket: determinism', () => {
  const s = line({ lossRate: 0.01, lossDirection: 'both', durationS: 20, seed: 7 });
  it('the same scenario and seed give byte-identical JSON apart from stats.wallS', () => {
    const a = runPacket(s);
    const b = runPacket(s);
    a.stats.wallS = 0;
    b.stats.wallS = 0;
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('a different seed gives a different loss pattern', () => {
    const a = runPacket(s);
    const b = runPacket({ ...s, seed: 8 });
    expect(a.summary.drops.random).toBeGreaterThan(0);
    expect(JSON.stringify(a.flows[0]!.trace.cwndBytes)).not.toBe(JSON.stringify(b.flows[0]!.trace.cwndBytes));
    expect(a.summary.goodputBps).not.toBe(b.summary.goodputBps);
  });
});

describe('runPacket: conservation and counters', () => {
  it('holds for 3 flows with different RTTs, receiver access links, queue overflow and loss both ways', () => {
    const s = line({ flows: 3, receiverAccess: true, queuePackets: 30, lossRate: 0.005, lossDirection: 'both', durationS: 30, accessBps: 100e6 });
    const { result, model } = simulate(s);
    const d = result.summary.drops;
    expect(d.queue).toBeGreaterThan(0);
    expect(d.random).toBeGreaterThan(0);
    expect(d.ackRandom).toBeGreaterThan(0);
    expect(result.summary.retransmits).toBeGreaterThan(0);
    expect(result.summary.fastRecoveries).toBeGreaterThan(0);
    // Bottleneck shared: total goodput below capacity, every flow gets some.
    expect(result.summary.goodputBps).toBeLessThan((10e6 * 1448) / 1500);
    for (const f of result.flows) expect(f.summary.goodputBps).toBeGreaterThan(0);
    // Counters per flow add up to the run's.
    const sum = result.flows.reduce((a, f) => a + f.summary.retransmits, 0);
    expect(sum).toBe(result.summary.retransmits);
    const q = result.queue.packets;
    expect(Math.max(...q.v)).toBeLessThanOrEqual(30);
    expect(Math.max(...q.v)).toBeGreaterThanOrEqual(29);
    expect(model.sim.events).toBe(result.stats.events);
  });

  it('a byte-limited transfer delivers exactly its bytes and then stops', () => {
    const s = line({ lossRate: 0.01, durationS: 30 });
    s.flows[0]!.bytes = 1_000_000;
    const { model, result } = simulate(s);
    expect(model.receivers[0]!.deliveredBytes).toBe(1_000_000);
    expect(model.senders[0]!.highTx).toBe(1_000_000);
    expect(result.flows[0]!.summary.bytesDelivered).toBe(1_000_000);
    expect(model.net.counters[0]!.dataBytesInNetwork).toBe(0);
  });

  it('RED keeps the average queue between its thresholds under load and drops early', () => {
    const s = line({ flows: 4, durationS: 40, accessBps: 100e6 });
    s.bottleneck.queue = { kind: 'red', limitPackets: 200, minThPackets: 20, maxThPackets: 60, maxP: 0.1, weight: 0.002, gentle: true };
    const { result, model } = simulate(s);
    const red = model.net.links[model.net.bottleneckForward]!.qdisc as RedQueueDisc;
    expect(red.averagePackets).toBeGreaterThan(15);
    expect(red.averagePackets).toBeLessThan(120);
    expect(result.summary.drops.queue).toBeGreaterThan(0);
    expect(Math.max(...result.queue.packets.v)).toBeLessThan(200);
    expect(result.summary.goodputBps).toBeGreaterThan(0.9 * ((10e6 * 1448) / 1500));
  });
});
