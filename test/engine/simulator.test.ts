import { describe, expect, it } from 'vitest';
import { EventHeap } from '../../src/engine/heap.js';
import { Simulator, secondsToNs } from '../../src/engine/simulator.js';

function recorder(): { log: [number, number, number][]; sim: Simulator } {
  const log: [number, number, number][] = [];
  const sim = new Simulator((kind, arg) => log.push([sim.nowNs, kind, arg]));
  return { log, sim };
}

describe('Simulator', () => {
  it('run(until) dispatches events in exact (time, seq) order', () => {
    const { log, sim } = recorder();
    sim.schedule(30, 1, 0);
    sim.schedule(10, 1, 1);
    sim.schedule(20, 1, 2);
    sim.schedule(10, 1, 3);
    sim.schedule(0, 1, 4);
    sim.run(100);
    expect(log).toEqual([
      [0, 1, 4],
      [10, 1, 1],
      [10, 1, 3],
      [20, 1, 2],
      [30, 1, 0],
    ]);
    expect(sim.nowNs).toBe(100);
    expect(sim.events).toBe(5);
  });

  it('events at the same time run FIFO, including ones scheduled during dispatch', () => {
    const log: number[] = [];
    const sim: Simulator = new Simulator((_kind, arg) => {
      log.push(arg);
      if (arg === 0) {
        sim.schedule(0, 0, 10);
        sim.schedule(0, 0, 11);
      }
    });
    for (let i = 0; i < 5; i++) sim.schedule(7, 0, i);
    sim.run(7);
    expect(log).toEqual([0, 1, 2, 3, 4, 10, 11]);
  });

  it('a cancelled event never fires, others still do', () => {
    const { log, sim } = recorder();
    const a = sim.schedule(5, 2, 1);
    sim.schedule(5, 2, 2);
    const c = sim.schedule(9, 2, 3);
    sim.cancel(a);
    sim.cancel(c);
    sim.run(1000);
    expect(log).toEqual([[5, 2, 2]]);
    expect(sim.events).toBe(1);
  });

  it('schedule() with a negative or fractional delay throws', () => {
    const { sim } = recorder();
    expect(() => sim.schedule(-1, 0, 0)).toThrow(/Negative/);
    expect(() => sim.schedule(0.5, 0, 0)).toThrow(RangeError);
    sim.run(10);
    expect(() => sim.scheduleAt(5, 0, 0)).toThrow(/past/);
    expect(() => sim.run(5)).toThrow(RangeError);
  });

  it('run() is resumable and leaves later events pending', () => {
    const { log, sim } = recorder();
    sim.schedule(10, 0, 1);
    sim.schedule(20, 0, 2);
    sim.run(15);
    expect(log).toEqual([[10, 0, 1]]);
    expect(sim.pending).toBe(1);
    sim.run(25);
    expect(log).toEqual([
      [10, 0, 1],
      [20, 0, 2],
    ]);
  });

  it('channel events interleave with heap events in exact (time, seq) order', () => {
    const { log, sim } = recorder();
    const a = sim.createChannel(7);
    const b = sim.createChannel(8);
    sim.scheduleOnChannel(a, 10, 1);
    sim.schedule(10, 1, 2);
    sim.scheduleOnChannel(b, 5, 3);
    sim.scheduleOnChannel(a, 10, 4);
    sim.scheduleOnChannel(b, 10, 5);
    sim.scheduleOnChannel(a, 20, 6);
    sim.schedule(15, 1, 7);
    sim.run(100);
    expect(log).toEqual([
      [5, 8, 3],
      [10, 7, 1],
      [10, 1, 2],
      [10, 7, 4],
      [10, 8, 5],
      [15, 1, 7],
      [20, 7, 6],
    ]);
    expect(() => sim.scheduleOnChannel(a, 50, 0)).toThrow(RangeError);
    sim.scheduleOnChannel(a, 150, 0);
    expect(() => sim.scheduleOnChannel(a, 120, 0)).toThrow(/channel/);
  });

  it('secondsToNs(s) rounds to whole nanoseconds', () => {
    expect(secondsToNs(0.045)).toBe(45_000_000);
    expect(secondsToNs(1e-9 * 0.4)).toBe(0);
    expect(secondsToNs(500)).toBe(5e11);
  });
});

describe('EventHeap', () => {
  it('pops 10^5 random keys in sorted (time, seq) order', () => {
    const h = new EventHeap(4);
    let x = 12345;
    const rand = (): number => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x;
    };
    const n = 100_000;
    for (let i = 0; i < n; i++) h.push(rand() % 1000, i, i % 7, i);
    let lastT = -1;
    let lastS = -1;
    for (let i = 0; i < n; i++) {
      const popped = h.pop();
      const ok = popped && (h.topTime > lastT || (h.topTime === lastT && h.topSeq > lastS)) && h.topArg === h.topSeq;
      if (!ok) throw new Error(`order broken at ${i}`);
      lastT = h.topTime;
      lastS = h.topSeq;
    }
    expect(h.pop()).toBe(false);
  });
});

describe('EventHeap.replaceTop', () => {
  it('pops the same (time, seq) sequence as pop + push, for any mix of operations (fast-check)', async () => {
    const fc = await import('fast-check');
    // Reference: a sorted list. Ops: push a key, pop, or replace the top by a key.
    const op = fc.oneof(
      fc.record({ k: fc.constant('push' as const), t: fc.integer({ min: 0, max: 50 }) }),
      fc.record({ k: fc.constant('pop' as const), t: fc.constant(0) }),
      fc.record({ k: fc.constant('replace' as const), t: fc.integer({ min: 0, max: 50 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const h = new EventHeap(4);
        const ref: [number, number][] = [];
        const byKey = (a: [number, number], b: [number, number]): number => a[0] - b[0] || a[1] - b[1];
        let seq = 0;
        for (const o of ops) {
          if (o.k === 'push') {
            h.push(o.t, seq, 0, seq);
            ref.push([o.t, seq++]);
            ref.sort(byKey);
          } else if (ref.length > 0) {
            expect(h.peek()).toBe(true);
            expect([h.topTime, h.topSeq, h.topArg]).toEqual([ref[0]![0], ref[0]![1], ref[0]![1]]);
            ref.shift();
            if (o.k === 'pop') h.removeTop();
            else {
              h.replaceTop(o.t, seq, 0, seq);
              ref.push([o.t, seq++]);
              ref.sort(byKey);
            }
          }
          expect(h.size).toBe(ref.length);
        }
        for (const [t, s] of ref) {
          expect(h.pop()).toBe(true);
          expect([h.topTime, h.topSeq]).toEqual([t, s]);
        }
        expect(h.peek()).toBe(false);
      }),
      { numRuns: 300, seed: 9 },
    );
  });
});
