import type { RangeSet } from './ranges.js';

/** SACK blocks that fit in the 40 option bytes beside the timestamp option (10 + 2 padding): 3. */
export const MAX_SACK_BLOCKS_WITH_TIMESTAMPS = 3;

/** The SACK option's wire size is the packet format's (src/net/packets.ts), re-exported for the receiver's users. */
export { sackOptionBytes } from '../net/packets.js';

/**
 * The receiver's choice of SACK blocks, RFC 2018 section 4: the first block holds the segment that
 * triggered the ACK (unless it advanced the cumulative ACK), the others repeat the most recently
 * reported blocks, newest first, leaving out any that the blocks already listed contain. Blocks are
 * kept at their current extent in the out-of-order buffer (a block grows as its neighbours arrive),
 * and a block disappears once the cumulative ACK passes it. Linux keeps the same list
 * (tcp_sack_new_ofo_skb, up to 4 entries).
 */
export class SackBlocks {
  /**
   * Block starts and ends, most recent first, in the first `n` slots of two typed arrays of
   * `capacity + 1` (room for the new block before the oldest falls off). Sequence numbers pass 2^31
   * after 2 GB: in plain arrays they were boxed doubles, and splice/unshift allocated on every
   * out-of-order segment (~12 bytes per event of a lossy 10 s run, 2 of the engine's 64).
   */
  private readonly starts: Float64Array;
  private readonly ends: Float64Array;
  private n = 0;

  constructor(private readonly capacity = 4) {
    this.starts = new Float64Array(capacity + 1);
    this.ends = new Float64Array(capacity + 1);
  }

  get count(): number {
    return this.n;
  }

  /**
   * Out-of-order data [seq, ...) was stored in `ooo`: its block becomes the first one.
   * @param ooo the receiver's out-of-order buffer after storing the segment.
   */
  onOutOfOrder(seq: number, ooo: RangeSet): void {
    const r = ooo.indexOf(seq);
    if (r < 0) return;
    const s = ooo.startAt(r);
    const e = ooo.endAt(r);
    // Drop entries now inside the new first block (they merged with it), shifting the rest down by one
    // to make room at the front.
    const starts = this.starts;
    const ends = this.ends;
    let k = 0;
    for (let i = 0; i < this.n; i++) {
      if (starts[i]! >= s && ends[i]! <= e) continue;
      starts[k] = starts[i]!;
      ends[k] = ends[i]!;
      k++;
    }
    for (let i = k; i > 0; i--) {
      starts[i] = starts[i - 1]!;
      ends[i] = ends[i - 1]!;
    }
    starts[0] = s;
    ends[0] = e;
    this.n = Math.min(k + 1, this.capacity);
  }

  /** The cumulative ACK moved to rcvNxt: blocks at or below it are gone. */
  onCumulative(rcvNxt: number): void {
    const starts = this.starts;
    const ends = this.ends;
    let k = 0;
    for (let i = 0; i < this.n; i++) {
      if (ends[i]! <= rcvNxt) continue;
      starts[k] = starts[i]!;
      ends[k] = ends[i]!;
      k++;
    }
    this.n = k;
  }

  /**
   * Writes up to `max` blocks as [start0, end0, start1, end1, ...] into out.
   * @returns the number of blocks written.
   */
  write(out: Float64Array, max: number): number {
    const n = Math.min(max, this.n);
    for (let i = 0; i < n; i++) {
      out[2 * i] = this.starts[i]!;
      out[2 * i + 1] = this.ends[i]!;
    }
    return n;
  }
}
