import { describe, expect, it } from 'vitest';
import { PacketPool } from '../../../src/net/packets.js';
import { CodelStep, CodelVars, controlLaw, type CodelHost } from '../../../src/net/qdisc/codel.js';
import { PacketFifo } from '../../../src/net/qdisc/fifo.js';
import { QdiscStats, type QdiscContext } from '../../../src/net/qdisc/types.js';

const MS = 1e6;
const TARGET = 5 * MS;
const INTERVAL = 100 * MS;

/**
 * CoDel's state machine driven by scripted sojourn times, as ns-3's CoDel suite dequeues at chosen
 * times: at each tick the queue holds packets enqueued `sojourn(t)` ago (enough of them that CoDel
 * can drop several and still send one), the state persists between ticks, and the drops are recorded.
 */
function run(sojournNs: (tNs: number) => number, ticks: number, tickNs = MS) {
  const pool = new PacketPool(64);
  const ctx = { pool, bandwidthBps: 12e6, typicalTxNs: MS, uniform: () => 0.5, dropHeld: () => undefined } as QdiscContext;
  const stats = new QdiscStats(['overlimit', 'target exceeded'], ['target exceeded']);
  const step = new CodelStep({ targetNs: TARGET, intervalNs: INTERVAL, mtuBytes: 1500, ecn: false }, ctx, stats, 1, 0);
  const vars = new CodelVars();
  const drops: number[] = [];
  const dropNext: number[] = [];
  const counts: number[] = [];
  let now = 0;
  const host: CodelHost = {
    take: (q) => q.shift(),
    heldBytes: (q) => q.bytes,
    dropTaken: () => {
      drops.push(now);
    },
  };
  const trail: { t: number; dropping: boolean; count: number; dropNextNs: number; firstAboveTimeNs: number }[] = [];
  for (let k = 0; k < ticks; k++) {
    now = k * tickNs;
    const q = new PacketFifo();
    for (let i = 0; i < 8; i++) q.push(i, now - sojournNs(now), 1500);
    const before = drops.length;
    step.dequeue(q, vars, host, now);
    if (drops.length > before) {
      dropNext.push(vars.dropNextNs);
      counts.push(vars.count);
    }
    trail.push({ t: now, dropping: vars.dropping, count: vars.count, dropNextNs: vars.dropNextNs, firstAboveTimeNs: vars.firstAboveTimeNs });
  }
  return { drops, dropNext, counts, vars, stats, trail };
}

describe('CoDel (RFC 8289)', () => {
  it('on a constant overload drops at t0 + interval, then at drop_next += interval / sqrt(count), exactly', () => {
    // Sojourn 50 ms from the start: above target at t = 0, so first_above_time = 100 ms.
    const r = run(() => 50 * MS, 3000);
    expect(r.drops[0]).toBe(100 * MS);
    // Entering the dropping state: count = 1, drop_next = now + interval / sqrt(1).
    expect(r.counts[0]).toBe(1);
    expect(r.dropNext[0]).toBe(200 * MS);
    // Every later drop happens at the first tick at or after drop_next, count + 1, and the next
    // drop_next is the previous one plus interval / sqrt(count): the RFC's schedule, not Linux's
    // Newton-step approximation.
    let expectedNext = 200 * MS;
    for (let k = 1; k < r.drops.length; k++) {
      expect(r.drops[k]).toBe(Math.ceil(expectedNext / MS) * MS);
      expect(r.counts[k]).toBe(k + 1);
      expectedNext = expectedNext + INTERVAL / Math.sqrt(k + 1);
      expect(r.dropNext[k]).toBe(expectedNext);
    }
    // 3 s of overload: sum_{k=1}^{n-1} 100 ms / sqrt(k) <= 2.9 s gives n = 223 drops.
    let t = 100 * MS;
    let n = 1;
    for (let next = 200 * MS; next < 3000 * MS; next += INTERVAL / Math.sqrt(++n)) t = next;
    expect(r.drops.length).toBe(n);
    expect(r.drops.at(-1)).toBe(Math.ceil(t / MS) * MS);
    expect(r.stats.drops).toEqual([0, n]);
  });

  it('controlLaw(t, interval, count) = t + interval / sqrt(count)', () => {
    expect(controlLaw(1000, 100 * MS, 1)).toBe(1000 + 100 * MS);
    expect(controlLaw(0, 100 * MS, 4)).toBe(50 * MS);
    expect(controlLaw(0, 100 * MS, 2)).toBe(100 * MS / Math.SQRT2);
  });

  it('never drops while the sojourn stays under target, nor when it is above for less than an interval', () => {
    expect(run(() => TARGET - 1, 10_000).drops).toEqual([]);
    // Above target (6 ms) for 99 ms out of every 100: the 1-ms dip resets first_above_time each time.
    const dips = run((t) => ((t / MS) % 100 === 99 ? 4 * MS : 6 * MS), 10_000);
    expect(dips.drops).toEqual([]);
    // Above target from 1000 ms on: the first drop comes exactly one interval later.
    const late = run((t) => (t < 1000 * MS ? 4 * MS : 6 * MS), 1300);
    expect(late.drops[0]).toBe(1100 * MS);
  });

  it('MAXPACKET: no drop while at most one MTU is left after the dequeue', () => {
    const pool = new PacketPool(8);
    const ctx = { pool, bandwidthBps: 12e6, typicalTxNs: MS, uniform: () => 0.5, dropHeld: () => undefined } as QdiscContext;
    const stats = new QdiscStats(['overlimit', 'target exceeded'], ['target exceeded']);
    const step = new CodelStep({ targetNs: TARGET, intervalNs: INTERVAL, mtuBytes: 1500, ecn: false }, ctx, stats, 1, 0);
    const vars = new CodelVars();
    let dropped = 0;
    const host: CodelHost = { take: (q) => q.shift(), heldBytes: (q) => q.bytes, dropTaken: () => dropped++ };
    for (let k = 0; k < 2000; k++) {
      const q = new PacketFifo();
      // Two 1500-B packets 50 ms old: after a dequeue 1500 B remain, not more than the MTU.
      q.push(0, k * MS - 50 * MS, 1500);
      q.push(1, k * MS - 50 * MS, 1500);
      step.dequeue(q, vars, host, k * MS);
    }
    expect(dropped).toBe(0);
    expect(vars.firstAboveTimeNs).toBe(0);
  });

  it('after an interval below target: leaves the dropping state, needs a new interval above, and resumes count - lastcount within 16 intervals', () => {
    // Above target until 1000 ms, below (1 ms) until 1200 ms, above again.
    const r = run((t) => (t < 1000 * MS || t >= 1200 * MS ? 50 * MS : 1 * MS), 1700);
    const at = (ms: number) => r.trail[ms]!;
    const before = at(999);
    expect(before.dropping).toBe(true);
    // The first tick under target leaves the dropping state and clears first_above_time (§5.5).
    expect(at(1000).dropping).toBe(false);
    expect(at(1000).firstAboveTimeNs).toBe(0);
    // Back above at 1200 ms: first_above_time = 1300 ms; no drop before it.
    expect(at(1200).firstAboveTimeNs).toBe(1300 * MS);
    expect(r.drops.filter((t) => t >= 1000 * MS && t < 1300 * MS)).toEqual([]);
    // Re-entry at 1300 ms, 300 ms after the last drop_next (< 16 intervals): count = count - lastcount
    // (lastcount was 1 on the first entry), drop_next = now + interval / sqrt(count).
    const reentry = r.drops.indexOf(1300 * MS);
    expect(reentry).toBeGreaterThan(0);
    const delta = before.count - 1;
    expect(delta).toBeGreaterThan(1);
    expect(r.counts[reentry]).toBe(delta);
    expect(r.dropNext[reentry]).toBe(1300 * MS + INTERVAL / Math.sqrt(delta));
  });

  it('after more than 16 intervals below target the count starts again at 1', () => {
    const r = run((t) => (t < 1000 * MS || t >= 2800 * MS ? 50 * MS : 1 * MS), 3000);
    const reentry = r.drops.indexOf(2900 * MS);
    expect(reentry).toBeGreaterThan(0);
    expect(r.counts[reentry]).toBe(1);
    expect(r.dropNext[reentry]).toBe(3000 * MS);
  });
});
