import { describe, expect, it } from 'vitest';
import { TraceRecorder } from '../../src/engine/trace.js';

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
