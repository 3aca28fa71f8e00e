/** Flag bits of one segment in the {@link SegmentRing}. */
export const SACKED = 1;
export const LOST = 2;
export const RETRANS = 4;

/**
 * The storage under the Scoreboard (src/tcp/scoreboard.ts): SND.UNA, SND.MAX, and per outstanding
 * segment one flag byte (SACKED, LOST, RETRANS) and the time it was last sent, in a growable ring
 * indexed by segment number. Segments are the sender's own: segment i covers
 * [i MSS, min((i+1) MSS, SND.MAX)), because the sender only cuts full segments except for the last
 * byte of a finite transfer, so a sequence number finds its slot by one division and a mask.
 *
 * A base class rather than a member, so that the scoreboard's per-ACK loops read `this.flags`
 * directly (no extra object on the hot path) while this file holds only the representation; the
 * RFC 6675 rules live in the Scoreboard.
 */
/** Ring slots a sender starts with (a power of two above the initial window of 10). */
const INITIAL_SEGMENTS = 16;

export class SegmentRing {
  /** SND.UNA: the first byte not cumulatively acknowledged (RFC 6675 HighACK + 1). */
  una = 0;
  /** SND.MAX: one past the highest byte ever sent (RFC 6675 HighData + 1). */
  highTx = 0;

  /**
   * One flag byte per outstanding segment. The ring starts at INITIAL_SEGMENTS and doubles to the
   * largest flight (sentNew): at 1000 flows of 4-60 segments each, 1024-slot rings were 9 MB walked
   * 8 segments to a cache line, each line cold again 1024 segments later, and the 2000 typed arrays
   * with their own backing stores took 74 ms of the run's 0.24 s set-up (issue 24).
   */
  protected flags = new Uint8Array(INITIAL_SEGMENTS);
  /** Time each segment was last sent, ns (same ring as flags): lost-retransmission detection. */
  protected sentNs = new Float64Array(INITIAL_SEGMENTS);
  protected mask = INITIAL_SEGMENTS - 1;

  constructor(readonly mssBytes: number) {}

  get outstandingBytes(): number {
    return this.highTx - this.una;
  }

  /** End of the segment starting at seq (SND.MAX caps the last one). */
  protected segEnd(seq: number): number {
    const e = seq + this.mssBytes;
    return e < this.highTx ? e : this.highTx;
  }

  protected flagIndex(seq: number): number {
    return Math.floor(seq / this.mssBytes) & this.mask;
  }

  /** Length of the segment starting at seq. */
  segmentLength(seq: number): number {
    return this.segEnd(seq) - seq;
  }

  isSacked(seq: number): boolean {
    return (this.flags[this.flagIndex(seq)]! & SACKED) !== 0 && seq >= this.una && seq < this.highTx;
  }

  isRetransmitted(seq: number): boolean {
    return seq >= this.una && seq < this.highTx && (this.flags[this.flagIndex(seq)]! & RETRANS) !== 0;
  }

  /** RFC 6675 IsLost(seq) as of the last `markLost` (or an explicit mark). */
  isLost(seq: number): boolean {
    return seq >= this.una && seq < this.highTx && (this.flags[this.flagIndex(seq)]! & LOST) !== 0;
  }

  /** New data [seq, seq + len) went out for the first time. */
  sentNew(seq: number, len: number, nowNs = 0): void {
    const end = seq + len;
    if (end <= this.highTx) return;
    const segs = Math.ceil(end / this.mssBytes) - Math.floor(this.una / this.mssBytes);
    if (segs > this.flags.length) this.grow(segs);
    this.highTx = end;
    this.sentNs[this.flagIndex(seq)] = nowNs;
  }

  /** Doubles the ring until it holds `segs` segments, re-placing the outstanding ones. */
  private grow(segs: number): void {
    let cap = this.flags.length;
    while (cap < segs) cap *= 2;
    const next = new Uint8Array(cap);
    const nextNs = new Float64Array(cap);
    const mss = this.mssBytes;
    for (let seq = Math.floor(this.una / mss) * mss; seq < this.highTx; seq += mss) {
      next[Math.floor(seq / mss) & (cap - 1)] = this.flags[this.flagIndex(seq)]!;
      nextNs[Math.floor(seq / mss) & (cap - 1)] = this.sentNs[this.flagIndex(seq)]!;
    }
    this.flags = next;
    this.sentNs = nextNs;
    this.mask = cap - 1;
  }

  /** Recounts the marks from the flags (tests and audits: must equal the Scoreboard's running counters). */
  recount(): { sackedBytes: number; lostBytes: number; retransBytes: number } {
    let sackedBytes = 0;
    let lostBytes = 0;
    let retransBytes = 0;
    for (let seq = this.una; seq < this.highTx; ) {
      const end = this.segEnd(seq);
      const f = this.flags[this.flagIndex(seq)]!;
      if ((f & SACKED) !== 0) sackedBytes += end - seq;
      else {
        if ((f & LOST) !== 0) lostBytes += end - seq;
        if ((f & RETRANS) !== 0) retransBytes += end - seq;
      }
      seq = end;
    }
    return { sackedBytes, lostBytes, retransBytes };
  }
}

/**
 * An empty number array that holds doubles from the start (V8's PACKED_DOUBLE_ELEMENTS): the
 * scoreboard's retransmission queue gets send times past 2^30 ns and sequence numbers read from
 * Float64Arrays, and an array that started with small integers changed kind on the first of those,
 * throwing away the optimized code that pushed to it (issue 24).
 */
export function emptyDoubles(): number[] {
  const a = [0.5];
  a.length = 0;
  return a;
}
