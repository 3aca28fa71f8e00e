import { describe, expect, it } from 'vitest';
import { WindowedFilter } from '../../src/cc/windowedFilter.js';

/** Offers a sample and reads the windowed best after it. */
function offer(f: WindowedFilter, time: number, value: number): number {
  f.update(time, value);
  return f.best;
}

/** Hand-worked sequences of Linux lib/win_minmax.c (Nichols' three-sample windowed max/min). */
describe('WindowedFilter (Linux win_minmax)', () => {
  it('max: a new best replaces everything; a lower sample waits as a later choice', () => {
    const f = new WindowedFilter('max', 10, 0);
    expect(offer(f, 1, 50)).toBe(50);
    expect(offer(f, 2, 40)).toBe(50); // second and third choice 40 @ 2
    expect(offer(f, 3, 60)).toBe(60); // new max: reset
    expect(offer(f, 4, 30)).toBe(60);
  });

  it('max: the best expires after the window and the later choices move up', () => {
    const f = new WindowedFilter('max', 10, 0);
    f.update(0, 100);
    // A quarter of the window without a second choice: 80 @ 3 becomes second and third.
    expect(offer(f, 3, 80)).toBe(100);
    // Half the window without a third choice: 70 @ 6 becomes third.
    expect(offer(f, 6, 70)).toBe(100);
    // At 11 the 100 @ 0 is out of the window: 80 @ 3 is the best, 70 @ 6 second, 60 @ 11 third.
    expect(offer(f, 11, 60)).toBe(80);
    // At 14 80 @ 3 is out too (dt 11 > 10): 70 @ 6 moves up.
    expect(offer(f, 14, 50)).toBe(70);
    // Nothing left in the window (third choice older than the window): reset to the sample.
    expect(offer(f, 30, 10)).toBe(10);
  });

  it('min: the smallest RTT of the window, equal samples refresh it', () => {
    const f = new WindowedFilter('min', 10, Infinity);
    expect(offer(f, 0, 0.05)).toBe(0.05);
    expect(offer(f, 5, 0.06)).toBe(0.05);
    expect(offer(f, 9, 0.05)).toBe(0.05); // equal: a new best at time 9
    expect(offer(f, 15, 0.07)).toBe(0.05); // 9 + 10 > 15: still in the window
    expect(offer(f, 20, 0.08)).toBe(0.07);
  });

  it('BBR use: a bandwidth that drops is forgotten 10 rounds later', () => {
    const f = new WindowedFilter('max', 10, 0);
    for (let round = 1; round <= 5; round++) f.update(round, 100);
    for (let round = 6; round <= 15; round++) expect(offer(f, round, 50)).toBe(100);
    expect(offer(f, 16, 50)).toBe(50);
  });
});
