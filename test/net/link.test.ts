import { describe, expect, it } from 'vitest';
import { Link, VERDICT_DROP } from '../../src/net/link.js';
import { droptail } from '../../src/net/qdisc/droptail.js';
import type { QdiscContext } from '../../src/net/qdisc/types.js';

/** A context for disciplines that read no header (drop-tail). */
const ctx = { pool: null, bandwidthBps: 8e6, typicalTxNs: 1_000_000, uniform: () => 0.5, dropHeld: () => undefined } as unknown as QdiscContext;

describe('Link', () => {
  const mk = (limit: number): Link => new Link('l', 8e6, 1_000_000, droptail.create(limit, {}, ctx));

  it('admit() returns the time from now to start + serialisation + propagation, FIFO behind earlier packets', () => {
    const l = mk(10);
    // 8 Mbps: 1 byte per microsecond; 1000 B -> 1 ms on the wire, plus 1 ms of propagation.
    expect(l.admit(0, 1000)).toBe(2_000_000);
    expect(l.admit(0, 1000)).toBe(3_000_000);
    expect(l.admit(500_000, 500)).toBe(3_000_000);
    expect(l.queueLength(500_000)).toBe(2);
    expect(l.queueLength(1_000_000)).toBe(1);
    expect(l.queueLength(2_000_000)).toBe(0);
    // Idle link: no queueing delay.
    expect(l.admit(10_000_000, 1000)).toBe(2_000_000);
  });

  it('drop-tail: a packet that would wait is dropped when limit packets already wait', () => {
    const l = mk(2);
    expect(l.admit(0, 1000)).toBeGreaterThan(0); // in transmission
    expect(l.admit(0, 1000)).toBeGreaterThan(0); // waiting 1
    expect(l.admit(0, 1000)).toBeGreaterThan(0); // waiting 2
    expect(l.admit(0, 1000)).toBe(-1);
    expect(l.lastVerdict).toBe(VERDICT_DROP);
    expect(l.qdisc.stats.toJSON()).toEqual({ drops: { overlimit: 1 }, marks: {} });
    // After one transmission ends, one slot frees.
    expect(l.admit(1_000_000, 1000)).toBe(4_000_000);
  });

  it('a zero-length queue still sends on an idle link', () => {
    const l = mk(0);
    expect(l.admit(0, 1000)).toBe(2_000_000);
    expect(l.admit(0, 1000)).toBe(-1);
  });

  it('matches a plain FIFO model (queueLength, and waitingAfterAdmit right after each offer) while its ring grows past its first slots and wraps (fast-check)', async () => {
    const fc = await import('fast-check');
    // Offers at nondecreasing times; the reference keeps every waiting packet's start in a list.
    const offer = fc.record({ gapNs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 400_000 }), fc.integer({ min: 0, max: 3_000_000 })), bytes: fc.integer({ min: 40, max: 1500 }) });
    fc.assert(
      fc.property(fc.array(offer, { minLength: 100, maxLength: 400 }), fc.integer({ min: 0, max: 40 }), (offers, limit) => {
        const l = mk(limit);
        let now = 0;
        let freeAt = 0;
        let waiting: number[] = [];
        for (const o of offers) {
          now += o.gapNs;
          waiting = waiting.filter((start) => start > now);
          const start = Math.max(now, freeAt);
          let expected = -1;
          if (start === now || waiting.length < limit) {
            if (start > now) waiting.push(start);
            // 8 Mbit/s: 1000 ns per byte, plus 1 ms of propagation.
            freeAt = start + 1000 * o.bytes;
            expected = freeAt + 1_000_000;
          }
          expect(l.admit(now, o.bytes)).toBe(expected < 0 ? -1 : expected - now);
          // What the traced queue reads right after an offer (admitted or dropped), without a time.
          expect(l.waitingAfterAdmit).toBe(waiting.length);
          expect(l.queueLength(now)).toBe(waiting.length);
        }
      }),
      { numRuns: 200, seed: 12 },
    );
  });
});
