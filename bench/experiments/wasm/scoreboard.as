// AssemblyScript (0.28) port of the parts of src/tcp/scoreboard.ts (with segment-ring.ts and
// ranges.ts under it) that bench/scoreboard.ts's per-ACK loop uses: sack, markLost, nextLost,
// retransmitted, pipe, sentNew, ackTo. The same data layout (a flag byte and a send time per segment
// in a ring; SACKed ranges in two sorted f64 arrays) and the same steps, so that the ratio to the JS
// is the language's, not the algorithm's. No onDelivered hook and no lost-retransmission queue (the
// loop never reaches them). Compiled with --runtime stub: nothing is freed, and the loop allocates
// only when a ring or range array doubles (an incremental collector's write barrier cost ~3x here).
const SACKED: u8 = 1;
const LOST: u8 = 2;
const RETRANS: u8 = 4;

class RangeSet {
  starts: Float64Array = new Float64Array(8);
  ends: Float64Array = new Float64Array(8);
  n: i32 = 0;
  bytes: f64 = 0;
  firstEndAbove(x: f64): i32 {
    const ends = this.ends; let lo = 0; let hi = this.n;
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (unchecked(ends[mid]) > x) hi = mid; else lo = mid + 1; }
    return lo;
  }
  nextStartAbove(x: f64): f64 {
    const starts = this.starts; let lo = 0; let hi = this.n;
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (unchecked(starts[mid]) > x) hi = mid; else lo = mid + 1; }
    return lo < this.n ? unchecked(starts[lo]) : Infinity;
  }
  indexOf(x: f64): i32 { const i = this.firstEndAbove(x); return i < this.n && unchecked(this.starts[i]) <= x ? i : -1; }
  add(start: f64, end: f64): f64 {
    if (end <= start) return 0;
    const n = this.n;
    if (n == 0 || start > unchecked(this.ends[n - 1])) {
      if (n == this.starts.length) this.grow();
      unchecked(this.starts[n] = start); unchecked(this.ends[n] = end); this.n = n + 1;
      this.bytes += end - start; return end - start;
    }
    const starts = this.starts; const ends = this.ends;
    const i = this.firstEndAbove(start - 1);
    let j = i; let s = start; let e = end; let removed: f64 = 0;
    while (j < n && unchecked(starts[j]) <= end) {
      if (unchecked(starts[j]) < s) s = unchecked(starts[j]);
      if (unchecked(ends[j]) > e) e = unchecked(ends[j]);
      removed += unchecked(ends[j]) - unchecked(starts[j]); j++;
    }
    if (j == i + 1 && unchecked(starts[i]) == s && unchecked(ends[i]) == e) return 0;
    if (j == i) this.openSlot(i); else if (j > i + 1) this.closeSlots(i + 1, j);
    unchecked(this.starts[i] = s); unchecked(this.ends[i] = e);
    const added = e - s - removed; this.bytes += added; return added;
  }
  removeBelow(x: f64): void {
    const starts = this.starts; const ends = this.ends;
    const k = this.firstEndAbove(x);
    for (let i = 0; i < k; i++) this.bytes -= unchecked(ends[i]) - unchecked(starts[i]);
    if (k > 0) this.closeSlots(0, k);
    if (this.n > 0 && unchecked(starts[0]) < x) { this.bytes -= x - unchecked(starts[0]); unchecked(starts[0] = x); }
  }
  openSlot(i: i32): void {
    if (this.n == this.starts.length) this.grow();
    this.starts.copyWithin(i + 1, i, this.n); this.ends.copyWithin(i + 1, i, this.n); this.n++;
  }
  closeSlots(from: i32, to: i32): void {
    this.starts.copyWithin(from, to, this.n); this.ends.copyWithin(from, to, this.n); this.n -= to - from;
  }
  grow(): void {
    const s = new Float64Array(2 * this.starts.length); s.set(this.starts); this.starts = s;
    const e = new Float64Array(2 * this.ends.length); e.set(this.ends); this.ends = e;
  }
}

class Scoreboard {
  una: f64 = 0; highTx: f64 = 0;
  flags: Uint8Array = new Uint8Array(1024);
  sentNs: Float64Array = new Float64Array(1024);
  mask: i32 = 1023;
  sacked: RangeSet = new RangeSet();
  lostBytes: f64 = 0; retransBytes: f64 = 0; lostBelow: f64 = 0; highRxt: f64 = 0; markedLostBytes: f64 = 0;
  newestSackedSentNs: f64 = -1;
  rtxSeq: f64[] = []; rtxNs: f64[] = [];
  constructor(public mss: f64) {}
  @inline segEnd(seq: f64): f64 { const e = seq + this.mss; return e < this.highTx ? e : this.highTx; }
  @inline flagIndex(seq: f64): i32 { return (<i32>Math.floor(seq / this.mss)) & this.mask; }
  get pipeBytes(): f64 { return this.highTx - this.una - this.sacked.bytes - this.lostBytes + this.retransBytes; }
  sentNew(seq: f64, len: f64, nowNs: f64): void {
    const end = seq + len;
    if (end <= this.highTx) return;
    const segs = <i32>(Math.ceil(end / this.mss) - Math.floor(this.una / this.mss));
    if (segs > this.flags.length) this.grow(segs);
    this.highTx = end;
    unchecked(this.sentNs[this.flagIndex(seq)] = nowNs);
  }
  grow(segs: i32): void {
    let cap = this.flags.length; while (cap < segs) cap *= 2;
    const next = new Uint8Array(cap); const nextNs = new Float64Array(cap); const mss = this.mss;
    for (let seq = Math.floor(this.una / mss) * mss; seq < this.highTx; seq += mss) {
      next[(<i32>Math.floor(seq / mss)) & (cap - 1)] = this.flags[this.flagIndex(seq)];
      nextNs[(<i32>Math.floor(seq / mss)) & (cap - 1)] = this.sentNs[this.flagIndex(seq)];
    }
    this.flags = next; this.sentNs = nextNs; this.mask = cap - 1;
  }
  retransmitted(seq: f64, nowNs: f64): void {
    const i = this.flagIndex(seq); const f = unchecked(this.flags[i]); const end = this.segEnd(seq);
    if ((f & RETRANS) == 0 && (f & SACKED) == 0) this.retransBytes += end - seq;
    unchecked(this.flags[i] = f | RETRANS); unchecked(this.sentNs[i] = nowNs);
    this.rtxSeq.push(seq); this.rtxNs.push(nowNs);
    if (end > this.highRxt) this.highRxt = end;
  }
  ackTo(ack: f64): void {
    if (ack <= this.una) return;
    const flags = this.flags; const mss = this.mss;
    for (let seq = this.una; seq < ack; ) {
      const end = this.segEnd(seq); const i = (<i32>Math.floor(seq / mss)) & this.mask; const f = unchecked(flags[i]);
      if ((f & SACKED) == 0) { if ((f & LOST) != 0) this.lostBytes -= end - seq; if ((f & RETRANS) != 0) this.retransBytes -= end - seq; }
      unchecked(flags[i] = 0); seq = end;
    }
    this.sacked.removeBelow(ack); this.una = ack;
    if (this.lostBelow < ack) this.lostBelow = ack;
    if (this.highRxt < ack) this.highRxt = ack;
  }
  sack(start: f64, end: f64): f64 {
    const s = start > this.una ? start : this.una; const e = end < this.highTx ? end : this.highTx;
    if (e <= s) return 0;
    let cur = s;
    while (cur < e) {
      const i = this.sacked.indexOf(cur);
      if (i >= 0) { cur = unchecked(this.sacked.ends[i]); continue; }
      const gapEnd = Math.min(e, this.sacked.nextStartAbove(cur));
      this.markSegmentsSacked(cur, gapEnd); cur = gapEnd;
    }
    return this.sacked.add(s, e);
  }
  markSegmentsSacked(from: f64, to: f64): void {
    const mss = this.mss; const flags = this.flags;
    for (let seq = from; seq < to; ) {
      const end = this.segEnd(seq); const i = (<i32>Math.floor(seq / mss)) & this.mask; const f = unchecked(flags[i]);
      if ((f & LOST) != 0) this.lostBytes -= end - seq;
      if ((f & RETRANS) != 0) this.retransBytes -= end - seq;
      unchecked(flags[i] = SACKED);
      if (unchecked(this.sentNs[i]) > this.newestSackedSentNs) this.newestSackedSentNs = unchecked(this.sentNs[i]);
      seq = end;
    }
  }
  markLost(dupThresh: i32): bool {
    const boundary = this.lossBoundary(dupThresh);
    if (boundary <= this.lostBelow) return false;
    this.markLostRange(this.lostBelow, boundary); return true;
  }
  lossBoundary(dupThresh: i32): f64 {
    const mss = this.mss; const sacked = this.sacked; let need = <f64>dupThresh;
    for (let r = sacked.n - 1; r >= 0; r--) {
      const start = unchecked(sacked.starts[r]); const end = unchecked(sacked.ends[r]);
      const segs = Math.ceil(end / mss) - Math.floor(start / mss);
      if (segs >= need) return Math.floor(start / mss) * mss + (segs - need) * mss;
      need -= segs;
    }
    return this.una;
  }
  markLostRange(from: f64, to: f64): void {
    const mss = this.mss; const flags = this.flags;
    let cur = Math.max(from, this.una);
    while (cur < to) {
      const r = this.sacked.indexOf(cur);
      if (r >= 0) { cur = unchecked(this.sacked.ends[r]); continue; }
      const end = this.segEnd(cur); const i = (<i32>Math.floor(cur / mss)) & this.mask; const f = unchecked(flags[i]);
      if ((f & LOST) == 0) { this.lostBytes += end - cur; this.markedLostBytes += end - cur; unchecked(flags[i] = f | LOST); }
      cur = end;
    }
    if (to > this.lostBelow) this.lostBelow = to;
  }
  nextLost(): f64 {
    let cur = this.highRxt > this.una ? this.highRxt : this.una;
    const limit = this.lostBelow;
    while (cur < limit && cur < this.highTx) {
      const r = this.sacked.indexOf(cur);
      if (r < 0) return cur;
      cur = unchecked(this.sacked.ends[r]);
    }
    return -1;
  }
}

let sb: Scoreboard = new Scoreboard(1460);
const MSS: f64 = 1460;

/** bench/scoreboard.ts's scoreboardEpisode, inside WebAssembly: windowSegs ACKs; returns the sum of pipe after each duplicate ACK. */
export function episode(windowSegs: i32): f64 {
  let sink: f64 = 0;
  const base = sb.una;
  for (let k = 1; k < windowSegs; k++) sink += oneAck(base, k);
  sb.ackTo(base + <f64>windowSegs * MSS);
  sb.sentNew(sb.highTx, MSS, 0);
  return sink;
}

/** One duplicate ACK of an episode (SACK, IsLost, NextSeg, pipe, one new segment); returns pipe. */
export function oneAck(base: f64, k: i32): f64 {
  sb.sack(base + MSS, base + <f64>(k + 1) * MSS);
  sb.markLost(3);
  const lost = sb.nextLost();
  if (lost >= 0) sb.retransmitted(lost, 0);
  const pipe = sb.pipeBytes;
  sb.sentNew(sb.highTx, MSS, 0);
  return pipe;
}

/** A fresh scoreboard with windowSegs segments outstanding. */
export function reset(windowSegs: i32): void {
  sb = new Scoreboard(1460);
  sb.sentNew(0, <f64>windowSegs * MSS, 0);
}

// Each scoreboard call exported on its own: the episode driven from JS, a boundary crossing per call
// (what a hybrid engine that kept the sender in JS and the scoreboard in WebAssembly would pay).
export function opSack(start: f64, end: f64): f64 { return sb.sack(start, end); }
export function opMarkLost(d: i32): bool { return sb.markLost(d); }
export function opNextLost(): f64 { return sb.nextLost(); }
export function opRetransmitted(seq: f64): void { sb.retransmitted(seq, 0); }
export function opPipe(): f64 { return sb.pipeBytes; }
export function opSentNew(seq: f64, len: f64): void { sb.sentNew(seq, len, 0); }
export function opAckTo(ack: f64): void { sb.ackTo(ack); }
export function una(): f64 { return sb.una; }
export function highTx(): f64 { return sb.highTx; }
