import { describe, expect, it } from 'vitest';
import { RangeSet } from '../../src/tcp/ranges.js';

describe('RangeSet', () => {
  it('add() merges overlapping and adjacent ranges and counts bytes', () => {
    const r = new RangeSet();
    r.add(100, 200);
    r.add(300, 400);
    expect(r.count).toBe(2);
    r.add(200, 300);
    expect(r.count).toBe(1);
    expect(r.bytes).toBe(300);
    r.add(50, 150);
    r.add(380, 500);
    expect([r.firstStart, r.firstEnd, r.bytes]).toEqual([50, 500, 450]);
  });

  it('contains(), removeBelow() and takeContiguousFrom()', () => {
    const r = new RangeSet();
    r.add(10, 20);
    r.add(30, 40);
    expect(r.contains(10)).toBe(true);
    expect(r.contains(20)).toBe(false);
    expect(r.contains(35)).toBe(true);
    r.removeBelow(15);
    expect([r.firstStart, r.bytes]).toEqual([15, 15]);
    expect(r.takeContiguousFrom(12)).toBe(12);
    expect(r.takeContiguousFrom(15)).toBe(20);
    expect([r.firstStart, r.bytes]).toEqual([30, 10]);
  });
});
