/**
 * A binary min-heap of events in struct-of-arrays form (typed arrays, no per-event objects),
 * ordered by (time, seq): `time` is an integer count of nanoseconds and `seq` a monotone counter,
 * so events at equal times pop in the order they were pushed (FIFO), as SimPy's `eid` and ns-3's
 * `Scheduler::EventKey` uid do. Each event carries a small integer `kind` and an integer `arg`
 * (a flow or packet id): dispatch is a switch, not a closure call.
 *
 * Measured against flatqueue 3.1 plus a sequence tie-break (see test/engine/heap.test.ts and
 * bench/packet.ts): the typed-array heap avoids the second comparison array lookups and the boxing
 * of payload objects, and is what the simulator uses.
 */
export class EventHeap {
  private times: Float64Array;
  private seqs: Float64Array;
  private kinds: Int32Array;
  private args: Int32Array;
  private n = 0;

  /** Key and payload of the event last returned by {@link pop}. */
  topTime = 0;
  topSeq = 0;
  topKind = 0;
  topArg = 0;

  constructor(initialCapacity = 1024) {
    const c = Math.max(4, initialCapacity);
    this.times = new Float64Array(c);
    this.seqs = new Float64Array(c);
    this.kinds = new Int32Array(c);
    this.args = new Int32Array(c);
  }

  get size(): number {
    return this.n;
  }

  /** Smallest time in the heap; Infinity when empty. */
  peekTime(): number {
    return this.n > 0 ? this.times[0]! : Infinity;
  }

  push(time: number, seq: number, kind: number, arg: number): void {
    if (this.n === this.times.length) this.grow();
    const times = this.times;
    const seqs = this.seqs;
    const kinds = this.kinds;
    const args = this.args;
    let i = this.n++;
    // Sift up: move parents down until the slot for the new key is found.
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = times[p]!;
      if (pt < time || (pt === time && seqs[p]! < seq)) break;
      times[i] = pt;
      seqs[i] = seqs[p]!;
      kinds[i] = kinds[p]!;
      args[i] = args[p]!;
      i = p;
    }
    times[i] = time;
    seqs[i] = seq;
    kinds[i] = kind;
    args[i] = arg;
  }

  /** Removes the smallest event into top*; returns false when the heap is empty. */
  pop(): boolean {
    if (!this.peek()) return false;
    this.removeTop();
    return true;
  }

  /** Copies the smallest event into top* without removing it; returns false when the heap is empty. */
  peek(): boolean {
    if (this.n === 0) return false;
    this.topTime = this.times[0]!;
    this.topSeq = this.seqs[0]!;
    this.topKind = this.kinds[0]!;
    this.topArg = this.args[0]!;
    return true;
  }

  /** Removes the smallest event (the heap must not be empty). */
  removeTop(): void {
    const last = --this.n;
    if (last === 0) return;
    this.siftDown(this.times[last]!, this.seqs[last]!, this.kinds[last]!, this.args[last]!, last);
  }

  /**
   * Replaces the smallest event by a new one (the heap must not be empty): pop + push in one
   * sift-down from the root. A channel's next head is usually due soon, so it stops near the top,
   * where pop + push would walk the former last leaf down the whole depth and the new event back up.
   */
  replaceTop(time: number, seq: number, kind: number, arg: number): void {
    this.siftDown(time, seq, kind, arg, this.n);
  }

  /** Places (t, s, k, a) starting at the root of the first n slots, moving smaller children up. */
  private siftDown(t: number, s: number, k: number, a: number, n: number): void {
    const times = this.times;
    const seqs = this.seqs;
    const kinds = this.kinds;
    const args = this.args;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      const r = c + 1;
      if (r < n) {
        const ct = times[c]!;
        const rt = times[r]!;
        if (rt < ct || (rt === ct && seqs[r]! < seqs[c]!)) c = r;
      }
      const ct = times[c]!;
      if (t < ct || (t === ct && s < seqs[c]!)) break;
      times[i] = ct;
      seqs[i] = seqs[c]!;
      kinds[i] = kinds[c]!;
      args[i] = args[c]!;
      i = c;
    }
    times[i] = t;
    seqs[i] = s;
    kinds[i] = k;
    args[i] = a;
  }

  private grow(): void {
    const c = this.times.length * 2;
    const times = new Float64Array(c);
    times.set(this.times);
    const seqs = new Float64Array(c);
    seqs.set(this.seqs);
    const kinds = new Int32Array(c);
    kinds.set(this.kinds);
    const args = new Int32Array(c);
    args.set(this.args);
    this.times = times;
    this.seqs = seqs;
    this.kinds = kinds;
    this.args = args;
  }
}
