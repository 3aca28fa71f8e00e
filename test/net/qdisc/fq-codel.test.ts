import { describe, expect, it } from 'vitest';
import { F_FLOW, F_WIRE_BYTES, PacketPool, ROW_SLOTS } from '../../../src/net/packets.js';
import { FqCodelQueueDisc } from '../../../src/net/qdisc/fq-codel.js';
import { createQueueDisc } from '../../../src/net/qdisc/registry.js';
import type { QdiscContext } from '../../../src/net/qdisc/types.js';

function setup(limitPackets = 1000) {
  const pool = new PacketPool(64);
  const dropped: number[] = [];
  const ctx: QdiscContext = { pool, bandwidthBps: 12e6, typicalTxNs: 1e6, uniform: () => 0.5, dropHeld: (p) => dropped.push(p) };
  const d = createQueueDisc({ kind: 'fq_codel', limitPackets }, ctx) as FqCodelQueueDisc;
  const packet = (flow: number, bytes: number): number => {
    const p = pool.alloc();
    pool.rows[p * ROW_SLOTS + F_FLOW] = flow;
    pool.rows[p * ROW_SLOTS + F_WIRE_BYTES] = bytes;
    return p;
  };
  return { d, packet, dropped };
}

describe('FQ-CoDel (RFC 8290)', () => {
  it('DRR++: a new flow is served before the backlogged ones; deficits move by the bytes sent and a quantum of 1514 B per round', () => {
    const { d, packet } = setup();
    const a = [packet(0, 1000), packet(0, 1000), packet(0, 1000)];
    for (const p of a) d.enqueue(p, 0);
    // Flow 0 is new with a quantum of 1514 B: it sends 1000 B (deficit 514), then 1000 B more (-486).
    expect(d.dequeue(0)).toBe(a[0]);
    expect(d.queueOf(0)).toMatchObject({ deficit: 514, list: 1 });
    expect(d.dequeue(0)).toBe(a[1]);
    expect(d.queueOf(0)).toMatchObject({ deficit: -486, list: 1 });
    // A packet of flow 1 arrives: flow 1 joins the new list behind flow 0. Flow 0's deficit is spent,
    // so it gets a quantum (-486 + 1514 = 1028) and moves to the old list; flow 1 (new) sends next.
    const b = packet(1, 500);
    d.enqueue(b, 0);
    expect(d.dequeue(0)).toBe(b);
    expect(d.queueOf(0)).toMatchObject({ deficit: 1028, list: 2 });
    expect(d.queueOf(1)).toMatchObject({ deficit: 1014, list: 1 });
    // Flow 1 is empty now: a new flow that empties while old flows wait moves to the old list.
    expect(d.dequeue(0)).toBe(a[2]);
    expect(d.queueOf(1)).toMatchObject({ list: 2 });
    // Everything sent: both queues leave the lists once found empty.
    expect(d.dequeue(0)).toBe(-1);
    expect(d.queueOf(0)).toMatchObject({ list: 0, length: 0 });
    expect(d.queueOf(1)).toMatchObject({ list: 0, length: 0 });
    expect(d.backlogPackets).toBe(0);
  });

  it('over the limit drops the head of the queue with the most bytes, not the arriving packet', () => {
    const { d, packet, dropped } = setup(4);
    const big = [packet(0, 1500), packet(0, 1500), packet(0, 1500)];
    for (const p of big) d.enqueue(p, 0);
    d.enqueue(packet(1, 100), 0);
    const arriving = packet(1, 100);
    d.enqueue(arriving, 0);
    expect(dropped).toEqual([big[0]]);
    expect(d.backlogPackets).toBe(4);
    expect(d.stats.toJSON().drops).toEqual({ overlimit: 1, 'target exceeded': 0 });
  });

  it('flow i uses queue i mod flows', () => {
    const pool = new PacketPool(8);
    const ctx: QdiscContext = { pool, bandwidthBps: 12e6, typicalTxNs: 1e6, uniform: () => 0.5, dropHeld: () => undefined };
    const d = createQueueDisc({ kind: 'fq_codel', limitPackets: 10, flows: 4 }, ctx) as FqCodelQueueDisc;
    expect([0, 3, 4, 9].map((f) => d.bucketOf(f))).toEqual([0, 3, 0, 1]);
  });
});
