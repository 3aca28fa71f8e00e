import { describe, expect, it } from 'vitest';
import { TraceGroup, TraceRecorder } from '../../src/engine/trace.js';

describe('TraceRecorder', () => {
  it('keeps every point of a short trace and skips repeated values', () => {
    const r = new TraceRecorder(1e9, 100);
    r.record(0, 1);
    r.record(1e8, 1);
    r.record(2e8, 2);
    r.record(5e8, 3);
    expect(r.toSeries()).toEqual({ t: [0, 0.2, 0.5], v: [1, 2, 3] });
  });

  it('bounds a 10^6-point sawtooth to maxPoints and keeps every peak and trough', () => {
    const maxPoints = 400;
    const durationNs = 1e12;
    const r = new TraceRecorder(durationNs, maxPoints);
    // Sawtooth with period 10^4 points: ramps 50 -> 100, then drops to 50.
    const n = 1_000_000;
    for (let i = 0; i < n; i++) r.record((i * durationNs) / n, 50 + ((i % 10_000) / 10_000) * 50);
    const s = r.toSeries();
    expect(s.t.length).toBeLessThanOrEqual(maxPoints);
    expect(Math.max(...s.v)).toBeCloseTo(99.995, 3);
    expect(Math.min(...s.v)).toBe(50);
    // Every period of 100 teeth yields a maximum near 100 in the decimated trace.
    const highs = s.v.filter((v) => v > 99.9).length;
    expect(highs).toBeGreaterThanOrEqual(99);
    for (let i = 1; i < s.t.length; i++) expect(s.t[i]!).toBeGreaterThanOrEqual(s.t[i - 1]!);
  });
});

describe('TraceRecorder streaming', () => {
  it('goes on recording after toSeries, and refuses a point earlier than the last', () => {
    const r = new TraceRecorder(1e9, 4000);
    r.record(0, 1);
    r.record(5e8, 2);
    expect(r.toSeries()).toEqual({ t: [0, 0.5], v: [1, 2] });
    // toSeries does not end the recording.
    r.record(6e8, 3);
    expect(r.toSeries()).toEqual({ t: [0, 0.5, 0.6], v: [1, 2, 3] });
    expect(() => r.record(1e8, 4)).toThrow(RangeError);
  });
});

/** The decimation rule written plainly: first point, then per bucket its min and max in time order. */
function referenceSeries(points: [number, number][], durationNs: number, maxPoints: number): { t: number[]; v: number[] } {
  const buckets = Math.max(2, Math.floor(maxPoints / 2) - 1);
  const bucketNs = Math.max(1, Math.ceil(durationNs / buckets));
  const kept: [number, number][] = [];
  let last = NaN;
  for (const p of points) if (p[1] !== last) kept.push(p), (last = p[1]);
  if (kept.length === 0) return { t: [], v: [] };
  const out: [number, number][] = [kept[0]!];
  const by = new Map<number, [number, number][]>();
  for (const p of kept.slice(1)) {
    const b = Math.min(Math.floor(p[0] / bucketNs), buckets - 1);
    by.set(b, [...(by.get(b) ?? []), p]);
  }
  for (const b of [...by.keys()].sort((x, y) => x - y)) {
    const ps = by.get(b)!;
    // First minimum and first maximum (strict comparisons keep the earliest), in time order.
    const min = ps.reduce((a, p) => (p[1] < a[1] ? p : a));
    const max = ps.reduce((a, p) => (p[1] > a[1] ? p : a));
    const pair = min[0] <= max[0] ? [min, max] : [max, min];
    out.push(pair[0]!);
    if (pair[1]![0] !== pair[0]![0] || pair[1]![1] !== pair[0]![1]) out.push(pair[1]!);
  }
  return { t: out.map((p) => p[0] / 1e9), v: out.map((p) => p[1]) };
}

describe('TraceRecorder against the plain decimation rule', () => {
  it('gives the same series for any nondecreasing sequence, bucket edges and points past the end included (fast-check)', async () => {
    const fc = await import('fast-check');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 5 })), { maxLength: 200 }),
        fc.integer({ min: 4, max: 40 }),
        (steps, maxPoints) => {
          const durationNs = 1000;
          let t = 0;
          const points = steps.map(([dt, v]): [number, number] => [(t += dt), v]);
          const r = new TraceRecorder(durationNs, maxPoints);
          for (const [tn, v] of points) r.record(tn, v);
          expect(r.toSeries()).toEqual(referenceSeries(points, durationNs, maxPoints));
        },
      ),
      { numRuns: 500, seed: 3 },
    );
  });
});

describe('TraceGroup against the plain decimation rule', () => {
  it('gives each series what its own recorder would, whatever the interleaving of series (fast-check)', async () => {
    const fc = await import('fast-check');
    fc.assert(
      fc.property(
        // Steps of the shared clock; at each, some of the 3 series record a value.
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 5 })), { maxLength: 4 })), {
          minLength: 1,
          maxLength: 150,
        }),
        fc.integer({ min: 4, max: 40 }),
        (steps, maxPoints) => {
          const durationNs = 1000;
          const g = new TraceGroup(3, durationNs, maxPoints);
          const perSeries: [number, number][][] = [[], [], []];
          let t = 0;
          for (const [dt, writes] of steps) {
            t += dt;
            for (const [k, v] of writes) {
              g.record(k, t, v);
              perSeries[k]!.push([t, v]);
            }
          }
          for (let k = 0; k < 3; k++) expect(g.toSeries(k)).toEqual(referenceSeries(perSeries[k]!, durationNs, maxPoints));
        },
      ),
      { numRuns: 500, seed: 4 },
    );
  });
});

describe('TraceGroup in integer units (unitsPerValue) and at a clock (recordNow)', () => {
  it('emits, byte for byte, what recording the quotient at the time would (fast-check: sojourns in ns, emitted in s)', async () => {
    const fc = await import('fast-check');
    fc.assert(
      fc.property(
        // Steps of the clock (ns) and sojourns (ns, up to 2 s: past 2^30, where V8 would box them).
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 2e9 })), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 4, max: 40 }),
        (steps, maxPoints) => {
          const durationNs = 3e6;
          const inSeconds = new TraceRecorder(durationNs, maxPoints);
          const inNs = new TraceRecorder(durationNs, maxPoints, 1e9);
          const clock = { nowNs: 0 };
          for (const [dt, sojournNs] of steps) {
            clock.nowNs += dt;
            inSeconds.record(clock.nowNs, sojournNs / 1e9);
            inNs.recordNow(clock, sojournNs);
          }
          expect(JSON.stringify(inNs.toSeries())).toBe(JSON.stringify(inSeconds.toSeries()));
        },
      ),
    );
  });

  it('recordNow refuses a clock that ran back, as record does', () => {
    const g = new TraceGroup(2, 1e9, 100);
    g.recordNow(0, { nowNs: 5e8 }, 1);
    expect(() => g.recordNow(1, { nowNs: 4e8 }, 1)).toThrow(/4\d{8} ns is before the previous one \(5\d{8} ns\)/);
  });
});
