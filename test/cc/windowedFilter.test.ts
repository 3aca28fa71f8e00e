import { describe, expect, it } from 'vitest';
import { WindowedFilter } from '../../src/cc/windowedFilter.js';

/** Hand-worked sequences of Linux lib/win_minmax.c (Nichols' three-sample windowed max/min). */
describe('WindowedFilter (Linux win_minmax)', () => {
  it('max: a new best replaces everything; a lower sample waits as a later choice', () => {
    const f = new WindowedFilter('max', 10, 0);
    expect(f.update(1, 50)).toBe(50);
    expect(f.update(2, 40)).toBe(50); // second and third choice 40 @ 2
    expect(f.update(3, 60)).toBe(60); // new max: reset
    expect(f.update(4, 30)).toBe(60);
  });

  it('max: the best expires after the window and the later choices move up', () => {
    const f = new WindowedFilter('max', 10, 0);
    f.update(0, 100);
    // A quarter of the window without a second choice: 80 @ 3 becomes second and third.
    expect(f.update(3, 80)).toBe(100);
    // Half the window without a third choice: 70 @ 6 becomes third.
    expect(f.update(6, 70)).toBe(100);
    // At 11 the 100 @ 0 is out of the window: 80 @ 3 is the best, 70 @ 6 second, 60 @ 11 third.
    expect(f.update(11, 60)).toBe(80);
    // At 14 80 @ 3 is out too (dt 11 > 10): 70 @ 6 moves up.
    expect(f.update(14, 50)).toBe(70);
    // Nothing left in the window (third choice older than the window): reset to the sample.
    expect(f.update(30, 10)).toBe(10);
  });

  it('min: the smallest RTT of the window, equal samples refresh it', () => {
    const f = new WindowedFilter('min', 10, Infinity);
    expect(f.update(0, 0.05)).toBe(0.05);
    expect(f.update(5, 0.06)).toBe(0.05);
    expect(f.update(9, 0.05)).toBe(0.05); // equal: a new best at time 9
    expect(f.update(15, 0.07)).toBe(0.05); // 9 + 10 > 15: still in the window
    expect(f.update(20, 0.08)).toBe(0.07);
  });

  it('BBR use: a bandwidth that drops is forgotten 10 rounds later', () => {
    const f = new WindowedFilter('max', 10, 0);
    for (let round = 1; round <= 5; round++) f.update(round, 100);
    for (let round = 6; round <= 15; round++) expect(f.update(round, 50)).toBe(100);
    expect(f.update(16, 50)).toBe(50);
  });
});
