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

/**
 * The simulator's contract, as a list: events pop in (time, seq) order over heap and channel events
 * alike, cancelled ones are skipped, `pending` counts heap events (cancelled ones not yet skipped, one
 * per non-empty channel) and `peekNs` the earliest of them. Written without a heap, so it checks the
 * run loop's deferred pop (EventHeap.consumeTop: a handler's first push takes the dispatched event's
 * place) rather than restating it.
 */
class ReferenceSim {
  nowNs = 0;
  private seq = 0;
  private readonly events: { t: number; s: number; kind: number; arg: number; ch: number }[] = [];
  private readonly cancelled = new Set<number>();
  private readonly lastNs: number[] = [];
  constructor(private readonly dispatch: (kind: number, arg: number) => void) {}
  schedule(delayNs: number, kind: number, arg: number): number {
    this.events.push({ t: this.nowNs + delayNs, s: this.seq, kind, arg, ch: -1 });
    return this.seq++;
  }
  createChannel(kind: number): number {
    this.lastNs.push(0);
    return this.lastNs.length - 1 + 1000 * kind;
  }
  scheduleOnChannelAfter(channel: number, delayNs: number, arg: number): void {
    const c = channel % 1000;
    this.lastNs[c] = this.nowNs + delayNs;
    this.events.push({ t: this.nowNs + delayNs, s: this.seq++, kind: Math.floor(channel / 1000), arg, ch: c });
  }
  cancel(id: number): void {
    this.cancelled.add(id);
  }
  get pending(): number {
    return this.events.filter((e) => e.ch < 0).length + new Set(this.events.filter((e) => e.ch >= 0).map((e) => e.ch)).size;
  }
  peekNs(): number {
    return Math.min(...this.events.map((e) => e.t));
  }
  run(untilNs: number): void {
    for (;;) {
      let best = -1;
      this.events.forEach((e, i) => {
        const b = this.events[best];
        if (b === undefined || e.t < b.t || (e.t === b.t && e.s < b.s)) best = i;
      });
      if (best < 0 || this.events[best]!.t > untilNs) break;
      const [e] = this.events.splice(best, 1);
      if (e!.ch < 0 && this.cancelled.delete(e!.s)) continue;
      this.nowNs = e!.t;
      this.dispatch(e!.kind, e!.arg);
    }
    this.nowNs = untilNs;
  }
}

describe('Simulator deferred pop', () => {
  it('dispatches, cancels and reports pending/peekNs during handlers exactly as a sorted-list reference (random times with ties)', () => {
    type Api = Pick<ReferenceSim, 'nowNs' | 'schedule' | 'scheduleOnChannelAfter' | 'cancel' | 'pending' | 'peekNs' | 'run'>;
    const trace = (seed: number, make: (d: (kind: number, arg: number) => void) => { sim: Api; channels: number[] }): string[] => {
      let x = seed;
      const rand = (n: number): number => {
        x = (x * 1103515245 + 12345) % 2147483648;
        return Math.floor((x / 2147483648) * n);
      };
      const log: string[] = [];
      const ids: number[] = [];
      let budget = 3000;
      const lastOn: number[] = [0, 0, 0];
      const { sim, channels } = make((kind, arg) => {
        log.push(`${sim.nowNs} ${kind} ${arg}`);
        // 0-3 actions (~1 push per event on average, so the run neither dies out nor explodes before the budget), drawn alike in both simulators as long as they dispatch alike. Delays come from
        // {0..7} so that many events tie on time (FIFO by seq), some from a wider range.
        for (let k = rand(4); k > 0; k--) {
          const a = rand(10);
          if (a < 5 && budget > 0) {
            budget--;
            const d = rand(3) === 0 ? rand(200) : rand(8);
            ids.push(sim.schedule(d, 1 + rand(3), budget));
          } else if (a < 7 && budget > 0) {
            budget--;
            const c = rand(3);
            const d = Math.max(0, lastOn[c]! - sim.nowNs) + rand(6);
            lastOn[c] = sim.nowNs + d;
            sim.scheduleOnChannelAfter(channels[c]!, d, budget);
          } else if (a < 8 && ids.length > 0) {
            sim.cancel(ids[rand(ids.length)]!);
          } else {
            log.push(`pending ${sim.pending} peek ${sim.peekNs()}`);
          }
        }
      });
      for (let i = 0; i < 40; i++) ids.push(sim.schedule(rand(50), 1, -i));
      sim.run(1e5);
      log.push(`end ${sim.nowNs} ${sim.pending}`);
      return log;
    };
    for (const seed of [1, 7, 42, 1234, 99991]) {
      const real = trace(seed, (d) => {
        const sim = new Simulator(d);
        return { sim, channels: [7, 8, 9].map((k) => sim.createChannel(k)) };
      });
      const ref = trace(seed, (d) => {
        const sim = new ReferenceSim(d);
        return { sim, channels: [7, 8, 9].map((k) => sim.createChannel(k)) };
      });
      expect(real.length).toBeGreaterThan(3000);
      expect(real.filter((l) => l.startsWith('pending')).length).toBeGreaterThan(200);
      expect(real).toEqual(ref);
    }
  });
});
