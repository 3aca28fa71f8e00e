/**
 * A set of disjoint half-open byte ranges [start, end), kept sorted and merged. Used for the
 * receiver's out-of-order buffer and for the sender's record of retransmitted ranges. Both hold a
 * handful of ranges in practice (one per hole), so sorted arrays beat a tree here.
 */
export class RangeSet {
  private starts: number[] = [];
  private ends: number[] = [];
  /** Total bytes covered. */
  bytes = 0;

  get count(): number {
    return this.starts.length;
  }

  /** Start of the lowest range; Infinity when empty. */
  get firstStart(): number {
    return this.starts.length > 0 ? this.starts[0]! : Infinity;
  }

  /** End of the lowest range; -Infinity when empty. */
  get firstEnd(): number {
    return this.ends.length > 0 ? this.ends[0]! : -Infinity;
  }

  /** Adds [start, end), merging with overlapping or adjacent ranges. */
  add(start: number, end: number): void {
    if (end <= start) return;
    const starts = this.starts;
    const ends = this.ends;
    // Fast path: append at the top (the common case for both users).
    const n = starts.length;
    if (n === 0 || start > ends[n - 1]!) {
      starts.push(start);
      ends.push(end);
      this.bytes += end - start;
      return;
    }
    let i = 0;
    while (i < n && ends[i]! < start) i++;
    let j = i;
    let s = start;
    let e = end;
    while (j < n && starts[j]! <= end) {
      if (starts[j]! < s) s = starts[j]!;
      if (ends[j]! > e) e = ends[j]!;
      this.bytes -= ends[j]! - starts[j]!;
      j++;
    }
    starts.splice(i, j - i, s);
    ends.splice(i, j - i, e);
    this.bytes += e - s;
  }

  /** True if byte x lies in some range. */
  contains(x: number): boolean {
    const starts = this.starts;
    const ends = this.ends;
    for (let i = 0; i < starts.length; i++) {
      if (x < starts[i]!) return false;
      if (x < ends[i]!) return true;
    }
    return false;
  }

  /** Removes everything below x. */
  removeBelow(x: number): void {
    const starts = this.starts;
    const ends = this.ends;
    let k = 0;
    while (k < starts.length && ends[k]! <= x) {
      this.bytes -= ends[k]! - starts[k]!;
      k++;
    }
    if (k > 0) {
      starts.splice(0, k);
      ends.splice(0, k);
    }
    if (starts.length > 0 && starts[0]! < x) {
      this.bytes -= x - starts[0]!;
      starts[0] = x;
    }
  }

  /** Removes and returns the end of the first range if it starts at or below x, else returns x. */
  takeContiguousFrom(x: number): number {
    if (this.starts.length === 0 || this.starts[0]! > x) return x;
    const end = this.ends[0]!;
    this.bytes -= end - this.starts[0]!;
    this.starts.shift();
    this.ends.shift();
    return end > x ? end : x;
  }

  clear(): void {
    this.starts = [];
    this.ends = [];
    this.bytes = 0;
  }
}
