/**
 * A set of disjoint half-open byte ranges [start, end), kept sorted and merged: the receiver's
 * out-of-order buffer, the sender's SACKed ranges and the record of retransmitted ranges. Lookups
 * are binary searches, so a slow-start loss burst with thousands of holes costs O(log n) per query
 * and one move of the ranges above per insertion.
 *
 * The bounds sit in one Float64Array, start and end of range i at 2i and 2i + 1, with a count: not in
 * number arrays moved with splice, which returned a new array of what it removed on every call (28 of
 * the 98 bytes a BBR run at 100 flows allocated per event), and sequence numbers past 2^31 are
 * doubles anyway. One array rather than one of starts and one of ends: each is an object and a
 * backing store that a lookup on a cold flow misses in cache. Ranges are moved by a loop, not
 * copyWithin, which is a C++ builtin whose call cost more than the few ranges it moves (the sender's
 * SACKed set at 100 BBR flows holds ~20).
 */
const INITIAL_SLOTS = 8;

export class RangeSet {
  /** [start0, end0, start1, end1, ...] for the first `n` ranges. */
  private b = new Float64Array(2 * INITIAL_SLOTS);
  private n = 0;
  /**
   * The index the last search returned: queries come in runs about the same range (the sender's
   * NextSeg asks about HighRxt on every pass of its send loop), so it is checked before a binary
   * search. Only a guess: checked, never trusted.
   */
  private hint = 0;
  /** Total bytes covered. */
  bytes = 0;

  get count(): number {
    return this.n;
  }

  /** Start of the lowest range; Infinity when empty. */
  get firstStart(): number {
    return this.n > 0 ? this.b[0]! : Infinity;
  }

  /** End of the lowest range; -Infinity when empty. */
  get firstEnd(): number {
    return this.n > 0 ? this.b[1]! : -Infinity;
  }

  /** End of the highest range; -Infinity when empty. */
  get lastEnd(): number {
    const n = this.n;
    return n > 0 ? this.b[2 * n - 1]! : -Infinity;
  }

  /** Start and end of range i (0 = lowest; i < count). */
  startAt(i: number): number {
    return this.b[2 * i]!;
  }

  endAt(i: number): number {
    return this.b[2 * i + 1]!;
  }

  /** Index of the first range whose end is > x (count when none). */
  private firstEndAbove(x: number): number {
    const b = this.b;
    const h = this.hint;
    if (h < this.n && b[2 * h + 1]! > x && (h === 0 || b[2 * h - 1]! <= x)) return h;
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (b[2 * mid + 1]! > x) hi = mid;
      else lo = mid + 1;
    }
    this.hint = lo;
    return lo;
  }

  /** Start of the first range that starts above x (Infinity when none). */
  nextStartAbove(x: number): number {
    const b = this.b;
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (b[2 * mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo < this.n ? b[2 * lo]! : Infinity;
  }

  /** Index of the range holding byte x, or -1. */
  indexOf(x: number): number {
    const i = this.firstEndAbove(x);
    return i < this.n && this.b[2 * i]! <= x ? i : -1;
  }

  /** True if byte x lies in some range. */
  contains(x: number): boolean {
    return this.indexOf(x) >= 0;
  }

  /** True if [start, end) lies inside one range. */
  covers(start: number, end: number): boolean {
    const i = this.indexOf(start);
    return i >= 0 && this.b[2 * i + 1]! >= end;
  }

  /** The first byte >= x not in any range. */
  nextGap(x: number): number {
    const i = this.indexOf(x);
    return i >= 0 ? this.b[2 * i + 1]! : x;
  }

  /**
   * Adds [start, end), merging with overlapping or adjacent ranges.
   * @returns bytes newly covered.
   */
  add(start: number, end: number): number {
    if (end <= start) return 0;
    const n = this.n;
    // Fast path: append at the top (the common case for every user).
    if (n === 0 || start > this.b[2 * n - 1]!) {
      if (2 * n === this.b.length) this.grow();
      this.b[2 * n] = start;
      this.b[2 * n + 1] = end;
      this.n = n + 1;
      this.bytes += end - start;
      return end - start;
    }
    const b = this.b;
    // First range that touches [start, end): its end >= start.
    const i = this.firstEndAbove(start - 1);
    let j = i;
    let s = start;
    let e = end;
    let removed = 0;
    while (j < n && b[2 * j]! <= end) {
      if (b[2 * j]! < s) s = b[2 * j]!;
      if (b[2 * j + 1]! > e) e = b[2 * j + 1]!;
      removed += b[2 * j + 1]! - b[2 * j]!;
      j++;
    }
    if (j === i + 1 && b[2 * i]! === s && b[2 * i + 1]! === e) return 0;
    // Ranges i..j-1 become the one range [s, e) at i.
    if (j === i) this.openSlot(i);
    else if (j > i + 1) this.closeSlots(i + 1, j);
    this.b[2 * i] = s;
    this.b[2 * i + 1] = e;
    const added = e - s - removed;
    this.bytes += added;
    return added;
  }

  /**
   * Moves range i's end up to `end`, which the caller knows lies below the next range's start (not
   * touching it: add would merge the two).
   * @returns bytes newly covered.
   */
  extendEnd(i: number, end: number): number {
    const added = end - this.b[2 * i + 1]!;
    this.b[2 * i + 1] = end;
    this.bytes += added;
    return added;
  }

  /** Removes everything below x. */
  removeBelow(x: number): void {
    const b = this.b;
    const k = this.firstEndAbove(x);
    for (let i = 0; i < k; i++) this.bytes -= b[2 * i + 1]! - b[2 * i]!;
    if (k > 0) this.closeSlots(0, k);
    if (this.n > 0 && b[0]! < x) {
      this.bytes -= x - b[0]!;
      b[0] = x;
    }
  }

  /** Removes and returns the end of the first range if it starts at or below x, else returns x. */
  takeContiguousFrom(x: number): number {
    if (this.n === 0 || this.b[0]! > x) return x;
    const end = this.b[1]!;
    this.bytes -= end - this.b[0]!;
    this.closeSlots(0, 1);
    return end > x ? end : x;
  }

  clear(): void {
    this.n = 0;
    this.bytes = 0;
  }

  /** Moves ranges i.. up one place, leaving slot i to be written. */
  private openSlot(i: number): void {
    if (2 * this.n === this.b.length) this.grow();
    const b = this.b;
    for (let k = 2 * this.n + 1; k >= 2 * i + 2; k--) b[k] = b[k - 2]!;
    this.n++;
  }

  /** Removes ranges from..to-1, moving the ones above down. */
  private closeSlots(from: number, to: number): void {
    const b = this.b;
    const shift = 2 * (to - from);
    const last = 2 * this.n;
    for (let k = 2 * from; k + shift < last; k++) b[k] = b[k + shift]!;
    this.n -= to - from;
  }

  private grow(): void {
    const b = new Float64Array(2 * this.b.length);
    b.set(this.b);
    this.b = b;
  }
}
