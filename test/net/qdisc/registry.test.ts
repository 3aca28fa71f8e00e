import { describe, expect, it } from 'vitest';
import { ECN_CE, ECN_ECT0, ECN_NOT_ECT, PacketPool } from '../../../src/net/packets.js';
import { RedQueueDisc } from '../../../src/net/qdisc/red.js';
import { checkQueueSpec, createQueueDisc, QUEUE_DISCS, QUEUE_KINDS, queueParams, validateQueueDiscFactory } from '../../../src/net/qdisc/registry.js';
import { VERDICT_ADMIT, VERDICT_DROP, VERDICT_MARK, type QdiscContext, type QueueDiscFactory } from '../../../src/net/qdisc/types.js';
import { parseScenarioText } from '../../../src/scenario/check/load.js';

function context(pool: PacketPool, u = 0): QdiscContext {
  return { pool, bandwidthBps: 8e6, typicalTxNs: 1_000_000, uniform: () => u, dropHeld: () => undefined };
}

describe('queue discipline registry', () => {
  it('lists drop-tail and RED, every entry checked at load', () => {
    expect(QUEUE_KINDS.slice(0, 2)).toEqual(['droptail', 'red']);
    for (const [k, f] of Object.entries(QUEUE_DISCS)) expect(() => validateQueueDiscFactory(k, f)).not.toThrow();
  });

  it('refuses a broken table: default outside its range, wrong kind', () => {
    const bad: QueueDiscFactory = { ...QUEUE_DISCS.red!, params: [{ name: 'x', doc: '', unit: 's', default: 2, min: 0, max: 1 }] };
    expect(() => validateQueueDiscFactory('red', bad)).toThrow(/default of 'x' is outside its range/);
    expect(() => validateQueueDiscFactory('codel', QUEUE_DISCS.red!)).toThrow(/kind is 'red'/);
  });

  it('fills left-out parameters with their defaults (ns-3 RedQueueDisc) without changing the spec', () => {
    const q = { kind: 'red', limitPackets: 100, maxP: 0.1 };
    expect(queueParams(q)).toEqual({ minThPackets: 5, maxThPackets: 15, maxP: 0.1, weight: 0.002, gentle: true, ecn: false });
    expect(q).toEqual({ kind: 'red', limitPackets: 100, maxP: 0.1 });
  });

  it('scenario files: an unknown kind lists the known ones; relations are checked after defaults', () => {
    expect(() => parseScenarioText('bottleneck:\n  queue: {kind: fifo}\n', 'q.yaml')).toThrow(/^q.yaml: bottleneck.queue.kind must be one of droptail, red.*, got 'fifo'$/);
    expect(() => parseScenarioText('bottleneck:\n  queue: {kind: red, minThPackets: 20}\n', 'q.yaml')).toThrow(/bottleneck.queue.minThPackets must be below maxThPackets \(15\), got 20/);
    expect(() => parseScenarioText('bottleneck:\n  queue: {kind: red, ecn: 1}\n', 'q.yaml')).toThrow(/bottleneck.queue.ecn must be true or false, got 1/);
    const s = parseScenarioText('bottleneck:\n  queue: {kind: red, ecn: true}\n', 'q.yaml');
    expect(s.bottleneck.queue).toMatchObject({ kind: 'red', ecn: true });
    expect(() => checkQueueSpec({ kind: 'red', limitPackets: 10 })).toThrow(/bottleneck.queue.maxThPackets must not exceed limitPackets \(10\), got 15/);
  });

  it('RED with ecn marks an ECN-capable packet CE where it would drop early, and drops a Not-ECT one (RFC 3168 §5)', () => {
    const pool = new PacketPool(8);
    const ect = pool.alloc();
    pool.ecn[ect] = ECN_ECT0;
    const notEct = pool.alloc();
    pool.ecn[notEct] = ECN_NOT_ECT;
    // u = 0 is below any positive probability: every packet in the probabilistic region is hit.
    const disc = createQueueDisc({ kind: 'red', limitPackets: 200, minThPackets: 5, maxThPackets: 50, maxP: 0.1, weight: 1, ecn: true }, context(pool)) as RedQueueDisc;
    // weight 1: the average is the queue seen, 20 packets (probabilistic region), link busy.
    expect(disc.enqueue(ect, 0, 20, 1e9)).toBe(VERDICT_MARK);
    expect(pool.ecn[ect]).toBe(ECN_CE);
    expect(disc.enqueue(notEct, 0, 20, 1e9)).toBe(VERDICT_DROP);
    // Beyond 2 maxTh (gentle): a forced drop even for an ECN-capable packet (ns-3 UseHardDrop).
    pool.ecn[ect] = ECN_ECT0;
    expect(disc.enqueue(ect, 0, 150, 1e9)).toBe(VERDICT_DROP);
    // Below minTh: admitted.
    expect(disc.enqueue(ect, 0, 2, 1e9)).toBe(VERDICT_ADMIT);
    expect(disc.stats.toJSON()).toEqual({ drops: { overlimit: 0, forced: 1, unforced: 1 }, marks: { unforced: 1 } });
  });
});

describe('the fluid engine and the new disciplines', () => {
  it('refuses a kind it has no model for with one line naming the kind, not a crash', async () => {
    const { runFluid } = await import('../../../src/fluid/run/runFluid.js');
    const { dumbbellScenario } = await import('../../../src/scenario/defaults.js');
    // codel, fq_codel, pie and step have bottleneck models (models/bottleneck-<kind>.model.yaml); the policer has none.
    const s = dumbbellScenario('reno', 1);
    s.durationS = 5;
    s.bottleneck.queue = { kind: 'policer', limitPackets: 100 } as unknown as typeof s.bottleneck.queue;
    expect(() => runFluid(s)).toThrow(/^bottleneck.queue.kind is 'policer': no fluid model for queue kind policer \(the fluid engine models droptail, red, pie, codel, fq_codel, step\); use the packet engine$/);
  });
});

describe('README', () => {
  it('documents every queue kind with every parameter and its default', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const [kind, f] of Object.entries(QUEUE_DISCS)) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${kind}\` |`));
      expect(row, kind).toBeDefined();
      for (const p of f.params) expect(row, `${kind}.${p.name}`).toContain(`\`${p.name}\` (${String(p.default)}`);
    }
  });
});
