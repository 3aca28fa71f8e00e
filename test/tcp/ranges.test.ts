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

/** The ranges of a bitmap over [0, size): maximal runs of set bytes. */
function runsOf(bits: boolean[]): [number, number][] {
  const out: [number, number][] = [];
  for (let x = 0; x < bits.length; x++) {
    if (!bits[x]) continue;
    const s = x;
    while (x < bits.length && bits[x]) x++;
    out.push([s, x]);
  }
  return out;
}

describe('RangeSet against a bitmap of the same bytes', () => {
  it('every operation and query agrees over 4000 seeded random steps (merges, holes, removals, repeated queries)', () => {
    const SIZE = 300;
    let seed = 12345;
    // A small LCG: the same sequence on every run.
    const rand = (k: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % k;
    };
    const r = new RangeSet();
    let bits = new Array<boolean>(SIZE).fill(false);
    for (let step = 0; step < 4000; step++) {
      const op = rand(10);
      if (op < 6) {
        const s = rand(SIZE);
        const e = Math.min(SIZE, s + rand(12));
        let fresh = 0;
        for (let x = s; x < e; x++) if (!bits[x]) fresh++;
        expect(r.add(s, e)).toBe(fresh);
        for (let x = s; x < e; x++) bits[x] = true;
      } else if (op === 6) {
        const x = rand(SIZE);
        r.removeBelow(x);
        for (let y = 0; y < x; y++) bits[y] = false;
      } else if (op === 7) {
        const x = rand(SIZE);
        const runs = runsOf(bits);
        const first = runs[0];
        const expected = first !== undefined && first[0] <= x ? Math.max(first[1], x) : x;
        expect(r.takeContiguousFrom(x)).toBe(expected);
        if (first !== undefined && first[0] <= x) for (let y = first[0]; y < first[1]; y++) bits[y] = false;
      } else if (op === 8 && r.count > 0) {
        // extendEnd within the gap above range i (its caller's promise: short of the next range).
        const runs = runsOf(bits);
        const i = rand(runs.length);
        const limit = i + 1 < runs.length ? runs[i + 1]![0] - 1 : SIZE;
        const end = runs[i]![1] + rand(Math.max(1, limit - runs[i]![1] + 1));
        if (end > runs[i]![1] && end <= limit) {
          expect(r.extendEnd(i, end)).toBe(end - runs[i]![1]);
          for (let y = runs[i]![1]; y < end; y++) bits[y] = true;
        }
      } else if (op === 9 && rand(50) === 0) {
        r.clear();
        bits = new Array<boolean>(SIZE).fill(false);
      }
      const runs = runsOf(bits);
      expect(r.count).toBe(runs.length);
      expect(r.bytes).toBe(bits.filter((b) => b).length);
      for (let i = 0; i < runs.length; i++) expect([r.startAt(i), r.endAt(i)]).toEqual(runs[i]);
      expect(r.firstStart).toBe(runs.length > 0 ? runs[0]![0] : Infinity);
      expect(r.lastEnd).toBe(runs.length > 0 ? runs[runs.length - 1]![1] : -Infinity);
      // Queries in runs and at random, so that the search's remembered index is both right and wrong.
      for (let q = 0; q < 4; q++) {
        const x = q < 2 ? rand(SIZE + 2) - 1 : rand(4) + (runs[0]?.[0] ?? 0);
        const holder = runs.findIndex(([s, e]) => s <= x && x < e);
        expect(r.indexOf(x)).toBe(holder);
        expect(r.contains(x)).toBe(holder >= 0);
        expect(r.nextGap(x)).toBe(holder >= 0 ? runs[holder]![1] : x);
        const above = runs.find(([s]) => s > x);
        expect(r.nextStartAbove(x)).toBe(above === undefined ? Infinity : above[0]);
        const len = rand(6);
        expect(r.covers(x, x + len)).toBe(holder >= 0 && runs[holder]![1] >= x + len);
      }
    }
  });
});
