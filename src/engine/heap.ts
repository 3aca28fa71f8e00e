/**
 * A binary min-heap of events in one typed array (no per-event objects), ordered by (time, seq):
 * `time` is an integer count of nanoseconds and `seq` a monotone counter, so events at equal times
 * pop in the order they were pushed (FIFO), as SimPy's `eid` and ns-3's `Scheduler::EventKey` uid
 * do. Each event carries a small integer `kind` and an integer `arg` (a flow or packet id): dispatch
 * is a switch, not a closure call.
 *
 * Layout: node i (1-based) is the four numbers [time, seq, kind, arg] at 4i, so a node is 32 bytes and
 * the two children of node i (2i and 2i + 1) are the 64 contiguous bytes at 8i: a level of a
 * sift-down reads one or two adjacent cache lines, where four parallel arrays read four to eight
 * (with 1000 flows the heap holds ~2000 events, 11 levels, and a sift-down per event). Keys are
 * unique (seq), so the pop order is that of any correct priority queue on (time, seq).
 *
 * bench/packet.ts --heap compares it with a heap of event objects (what a JS priority-queue package
 * or a naive engine does): the typed array avoids boxing payload objects.
 */
const STRIDE = 4;

export class EventHeap {
  /** [time, seq, kind, arg] per node; slots 0-3 are unused so that node i sits at STRIDE * i. */
  private nodes: Float64Array;
  private n = 0;

  /** Key and payload of the event last returned by {@link pop} or {@link peek}. */
  topTime = 0;
  topSeq = 0;
  topKind = 0;
  topArg = 0;

  constructor(initialCapacity = 1024) {
    this.nodes = new Float64Array(STRIDE * (Math.max(4, initialCapacity) + 1));
  }

  get size(): number {
    return this.n;
  }

  /** Smallest time in the heap; Infinity when empty. */
  peekTime(): number {
    return this.n > 0 ? this.nodes[STRIDE]! : Infinity;
  }

  push(time: number, seq: number, kind: number, arg: number): void {
    if (STRIDE * (this.n + 2) > this.nodes.length) this.grow();
    const h = this.nodes;
    let i = ++this.n;
    // Sift up: move parents down until the slot for the new key is found.
    while (i > 1) {
      const p = i >> 1;
      const pb = STRIDE * p;
      const pt = h[pb]!;
      if (pt < time || (pt === time && h[pb + 1]! < seq)) break;
      const ib = STRIDE * i;
      h[ib] = pt;
      h[ib + 1] = h[pb + 1]!;
      h[ib + 2] = h[pb + 2]!;
      h[ib + 3] = h[pb + 3]!;
      i = p;
    }
    const ib = STRIDE * i;
    h[ib] = time;
    h[ib + 1] = seq;
    h[ib + 2] = kind;
    h[ib + 3] = arg;
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
    const h = this.nodes;
    this.topTime = h[STRIDE]!;
    this.topSeq = h[STRIDE + 1]!;
    this.topKind = h[STRIDE + 2]!;
    this.topArg = h[STRIDE + 3]!;
    return true;
  }

  /** Removes the smallest event (the heap must not be empty). */
  removeTop(): void {
    const last = this.n--;
    if (last === 1) return;
    const h = this.nodes;
    const lb = STRIDE * last;
    this.siftDown(h[lb]!, h[lb + 1]!, h[lb + 2]!, h[lb + 3]!, last - 1);
  }

  /**
   * Replaces the smallest event by a new one (the heap must not be empty): pop + push in one
   * sift-down from the root. A channel's next head is usually due soon, so it stops near the top,
   * where pop + push would walk the former last leaf down the whole depth and the new event back up.
   */
  replaceTop(time: number, seq: number, kind: number, arg: number): void {
    this.siftDown(time, seq, kind, arg, this.n);
  }

  /** Places (t, s, k, a) starting at the root of nodes 1..n, moving smaller children up. */
  private siftDown(t: number, s: number, k: number, a: number, n: number): void {
    const h = this.nodes;
    let i = 1;
    for (;;) {
      let c = 2 * i;
      if (c > n) break;
      let cb = STRIDE * c;
      if (c < n) {
        // The right child is the next node, in the same cache line.
        const ct = h[cb]!;
        const rt = h[cb + STRIDE]!;
        if (rt < ct || (rt === ct && h[cb + STRIDE + 1]! < h[cb + 1]!)) {
          c++;
          cb += STRIDE;
        }
      }
      const ct = h[cb]!;
      if (t < ct || (t === ct && s < h[cb + 1]!)) break;
      const ib = STRIDE * i;
      h[ib] = ct;
      h[ib + 1] = h[cb + 1]!;
      h[ib + 2] = h[cb + 2]!;
      h[ib + 3] = h[cb + 3]!;
      i = c;
    }
    const ib = STRIDE * i;
    h[ib] = t;
    h[ib + 1] = s;
    h[ib + 2] = k;
    h[ib + 3] = a;
  }

  private grow(): void {
    const nodes = new Float64Array(2 * this.nodes.length);
    nodes.set(this.nodes);
    this.nodes = nodes;
  }
}
