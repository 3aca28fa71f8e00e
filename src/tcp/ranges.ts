/**
 * A set of disjoint half-open byte ranges [start, end), kept sorted and merged: the receiver's
 * out-of-order buffer, the sender's SACKed ranges and the record of retransmitted ranges. Lookups
 * are binary searches, so a slow-start loss burst with thousands of holes costs O(log n) per query
 * and one memmove per insertion.
 *
 * The bounds sit in two Float64Arrays with a count, moved with copyWithin (a memmove), not in number
 * arrays moved with splice: splice returns a new array of what it removed on every call (28 of the 98
 * bytes a BBR run at 100 flows allocated per event), and sequence numbers past 2^31 are doubles anyway.
 */
const INITIAL_SLOTS = 8;

export class RangeSet {
  private starts = new Float64Array(INITIAL_SLOTS);
  private ends = new Float64Array(INITIAL_SLOTS);
  private n = 0;
  /** Total bytes covered. */
  bytes = 0;

  get count(): number {
    return this.n;
  }

  /** Start of the lowest range; Infinity when empty. */
  get firstStart(): number {
    return this.n > 0 ? this.starts[0]! : Infinity;
  }

  /** End of the lowest range; -Infinity when empty. */
  get firstEnd(): number {
    return this.n > 0 ? this.ends[0]! : -Infinity;
  }

  /** End of the highest range; -Infinity when empty. */
  get lastEnd(): number {
    const n = this.n;
    return n > 0 ? this.ends[n - 1]! : -Infinity;
  }

  /** Start and end of range i (0 = lowest; i < count). */
  startAt(i: number): number {
    return this.starts[i]!;
  }

  endAt(i: number): number {
    return this.ends[i]!;
  }

  /** Index of the first range whose end is > x (count when none). */
  private firstEndAbove(x: number): number {
    const ends = this.ends;
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ends[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Start of the first range that starts above x (Infinity when none). */
  nextStartAbove(x: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo < this.n ? starts[lo]! : Infinity;
  }

  /** Index of the range holding byte x, or -1. */
  indexOf(x: number): number {
    const i = this.firstEndAbove(x);
    return i < this.n && this.starts[i]! <= x ? i : -1;
  }

  /** True if byte x lies in some range. */
  contains(x: number): boolean {
    return this.indexOf(x) >= 0;
  }

  /** True if [start, end) lies inside one range. */
  covers(start: number, end: number): boolean {
    const i = this.indexOf(start);
    return i >= 0 && this.ends[i]! >= end;
  }

  /** The first byte >= x not in any range. */
  nextGap(x: number): number {
    const i = this.indexOf(x);
    return i >= 0 ? this.ends[i]! : x;
  }

  /**
   * Adds [start, end), merging with overlapping or adjacent ranges.
   * @returns bytes newly covered.
   */
  add(start: number, end: number): number {
    if (end <= start) return 0;
    const n = this.n;
    // Fast path: append at the top (the common case for every user).
    if (n === 0 || start > this.ends[n - 1]!) {
      if (n === this.starts.length) this.grow();
      this.starts[n] = start;
      this.ends[n] = end;
      this.n = n + 1;
      this.bytes += end - start;
      return end - start;
    }
    const starts = this.starts;
    const ends = this.ends;
    // First range that touches [start, end): its end >= start.
    const i = this.firstEndAbove(start - 1);
    let j = i;
    let s = start;
    let e = end;
    let removed = 0;
    while (j < n && starts[j]! <= end) {
      if (starts[j]! < s) s = starts[j]!;
      if (ends[j]! > e) e = ends[j]!;
      removed += ends[j]! - starts[j]!;
      j++;
    }
    if (j === i + 1 && starts[i]! === s && ends[i]! === e) return 0;
    // Ranges i..j-1 become the one range [s, e) at i.
    if (j === i) this.openSlot(i);
    else if (j > i + 1) this.closeSlots(i + 1, j);
    this.starts[i] = s;
    this.ends[i] = e;
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
    const added = end - this.ends[i]!;
    this.ends[i] = end;
    this.bytes += added;
    return added;
  }

  /** Removes everything below x. */
  removeBelow(x: number): void {
    const starts = this.starts;
    const ends = this.ends;
    const k = this.firstEndAbove(x);
    for (let i = 0; i < k; i++) this.bytes -= ends[i]! - starts[i]!;
    if (k > 0) this.closeSlots(0, k);
    if (this.n > 0 && starts[0]! < x) {
      this.bytes -= x - starts[0]!;
      starts[0] = x;
    }
  }

  /** Removes and returns the end of the first range if it starts at or below x, else returns x. */
  takeContiguousFrom(x: number): number {
    if (this.n === 0 || this.starts[0]! > x) return x;
    const end = this.ends[0]!;
    this.bytes -= end - this.starts[0]!;
    this.closeSlots(0, 1);
    return end > x ? end : x;
  }

  clear(): void {
    this.n = 0;
    this.bytes = 0;
  }

  /** Moves ranges i.. up one place, leaving slot i to be written. */
  private openSlot(i: number): void {
    if (this.n === this.starts.length) this.grow();
    this.starts.copyWithin(i + 1, i, this.n);
    this.ends.copyWithin(i + 1, i, this.n);
    this.n++;
  }

  /** Removes ranges from..to-1, moving the ones above down. */
  private closeSlots(from: number, to: number): void {
    this.starts.copyWithin(from, to, this.n);
    this.ends.copyWithin(from, to, this.n);
    this.n -= to - from;
  }

  private grow(): void {
    const starts = new Float64Array(2 * this.starts.length);
    starts.set(this.starts);
    this.starts = starts;
    const ends = new Float64Array(2 * this.ends.length);
    ends.set(this.ends);
    this.ends = ends;
  }
}
