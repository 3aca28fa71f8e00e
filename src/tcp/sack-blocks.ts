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
  /** Block starts and ends, most recent first. */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(private readonly capacity = 4) {}

  get count(): number {
    return this.starts.length;
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
    // Drop entries now inside the new first block (they merged with it).
    for (let i = this.starts.length - 1; i >= 0; i--) {
      if (this.starts[i]! >= s && this.ends[i]! <= e) {
        this.starts.splice(i, 1);
        this.ends.splice(i, 1);
      }
    }
    this.starts.unshift(s);
    this.ends.unshift(e);
    if (this.starts.length > this.capacity) {
      this.starts.length = this.capacity;
      this.ends.length = this.capacity;
    }
  }

  /** The cumulative ACK moved to rcvNxt: blocks at or below it are gone. */
  onCumulative(rcvNxt: number): void {
    for (let i = this.starts.length - 1; i >= 0; i--) {
      if (this.ends[i]! <= rcvNxt) {
        this.starts.splice(i, 1);
        this.ends.splice(i, 1);
      }
    }
  }

  /**
   * Writes up to `max` blocks as [start0, end0, start1, end1, ...] into out.
   * @returns the number of blocks written.
   */
  write(out: Float64Array, max: number): number {
    const n = Math.min(max, this.starts.length);
    for (let i = 0; i < n; i++) {
      out[2 * i] = this.starts[i]!;
      out[2 * i + 1] = this.ends[i]!;
    }
    return n;
  }
}
