/**
 * A binary min-heap of events in one typed array (no per-event objects), ordered by (time, seq):
 * `time` is an integer count of nanoseconds and `seq` a monotone counter, so events at equal times
 * pop in the order they were pushed (FIFO), as SimPy's `eid` and ns-3's `Scheduler::EventKey` uid
 * do. Each event carries a small integer `kind` and an integer `arg` (a flow or packet id): dispatch
 * is a switch, not a closure call.
 *
 * Layout: node i (1-based) is the four numbers [time, seq, kind, arg] at 4i (slot 0: the node being placed), so a node is 32 bytes and
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
  /**
   * [time, seq, kind, arg] per node; node i sits at STRIDE * i. Slot 0 holds the node being placed
   * (pushed, or moved down from the last leaf or a channel's next head): the sifts read its key there
   * rather than from arguments, because a time past 2^31 ns passed to a call the optimiser did not
   * inline is boxed in a new heap number (two per event in the packet engine before: issue 24).
   */
  private nodes: Float64Array;
  private n = 0;
  /** The time {@link pushAfter}'s delays count from: the simulator keeps it at its clock. */
  baseNs = 0;
  /**
   * Deferred pop ({@link consumeTop}): the top node is the event being dispatched, already taken.
   * The next push takes its place (one sift-down from the root, where pop + push were the last
   * leaf's sift-down plus the new node's sift-up); any read first removes it.
   */
  private topConsumed = false;

  /** Key and payload of the event last returned by {@link pop} or {@link peek}. */
  topTime = 0;
  topSeq = 0;
  topKind = 0;
  topArg = 0;

  constructor(initialCapacity = 1024) {
    this.nodes = new Float64Array(STRIDE * (Math.max(4, initialCapacity) + 1));
  }

  get size(): number {
    return this.topConsumed ? this.n - 1 : this.n;
  }

  /** Smallest time in the heap; Infinity when empty. */
  peekTime(): number {
    if (this.topConsumed) this.dropConsumed();
    return this.n > 0 ? this.nodes[STRIDE]! : Infinity;
  }

  push(time: number, seq: number, kind: number, arg: number): void {
    const h = this.nodes;
    h[0] = time;
    h[1] = seq;
    h[2] = kind;
    h[3] = arg;
    this.place();
  }

  /** {@link push} at baseNs + delayNs (a span, which stays a small integer across the call). */
  pushAfter(delayNs: number, seq: number, kind: number, arg: number): void {
    const h = this.nodes;
    h[0] = this.baseNs + delayNs;
    h[1] = seq;
    h[2] = kind;
    h[3] = arg;
    this.place();
  }

  /** Adds the node in slot 0: in a consumed top's place if there is one, else as a new leaf. */
  private place(): void {
    if (this.topConsumed) {
      this.topConsumed = false;
      this.siftDown(this.n);
    } else this.siftUp();
  }

  /**
   * Marks the top (just read by {@link peek}) as taken without removing it: the deferred pop of the
   * simulator's loop. The next push replaces it (as {@link replaceTop}); if none comes, the next
   * peek, peekTime or pop removes it first, and size does not count it. A handler at time t pushes
   * at >= t with a later seq, so its first event often belongs near the top (a pacing timer, the
   * next hop's channel head): a sift-down that stops after a level or two.
   */
  consumeTop(): void {
    this.topConsumed = true;
  }

  private dropConsumed(): void {
    this.topConsumed = false;
    this.removeTop();
  }

  /** Removes the smallest event into top*; returns false when the heap is empty. */
  pop(): boolean {
    if (!this.peek()) return false;
    this.removeTop();
    return true;
  }

  /** Copies the smallest event into top* without removing it; returns false when the heap is empty. */
  peek(): boolean {
    if (this.topConsumed) this.dropConsumed();
    if (this.n === 0) return false;
    const h = this.nodes;
    this.topTime = h[STRIDE]!;
    this.topSeq = h[STRIDE + 1]!;
    this.topKind = h[STRIDE + 2]!;
    this.topArg = h[STRIDE + 3]!;
    return true;
  }

  /** Removes the smallest event (the heap must not be empty, nor its top consumed). */
  removeTop(): void {
    const last = this.n--;
    if (last === 1) return;
    const h = this.nodes;
    const lb = STRIDE * last;
    h[0] = h[lb]!;
    h[1] = h[lb + 1]!;
    h[2] = h[lb + 2]!;
    h[3] = h[lb + 3]!;
    this.siftDown(last - 1);
  }

  /**
   * Replaces the smallest event by a new one (the heap must not be empty, nor its top consumed): pop + push in one
   * sift-down from the root. A channel's next head is usually due soon, so it stops near the top,
   * where pop + push would walk the former last leaf down the whole depth and the new event back up.
   */
  replaceTop(time: number, seq: number, kind: number, arg: number): void {
    const h = this.nodes;
    h[0] = time;
    h[1] = seq;
    h[2] = kind;
    h[3] = arg;
    this.siftDown(this.n);
  }

  /** {@link replaceTop} by (src[at], src[at + 1], kind, 0): a channel's next head, its key read in place. */
  replaceTopFrom(src: Float64Array, at: number, kind: number): void {
    const h = this.nodes;
    h[0] = src[at]!;
    h[1] = src[at + 1]!;
    h[2] = kind;
    h[3] = 0;
    this.siftDown(this.n);
  }

  /** Adds the node in slot 0 as node n + 1, moving parents down until its place is found. */
  private siftUp(): void {
    if (STRIDE * (this.n + 2) > this.nodes.length) this.grow();
    const h = this.nodes;
    const time = h[0]!;
    const seq = h[1]!;
    let i = ++this.n;
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
    place(h, STRIDE * i);
  }

  /** Places the node in slot 0 starting at the root of nodes 1..n, moving smaller children up. */
  private siftDown(n: number): void {
    const h = this.nodes;
    const t = h[0]!;
    const s = h[1]!;
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
    place(h, STRIDE * i);
  }

  private grow(): void {
    const nodes = new Float64Array(2 * this.nodes.length);
    nodes.set(this.nodes);
    this.nodes = nodes;
  }
}

/** Copies the node in slot 0 to offset ib. */
function place(h: Float64Array, ib: number): void {
  h[ib] = h[0]!;
  h[ib + 1] = h[1]!;
  h[ib + 2] = h[2]!;
  h[ib + 3] = h[3]!;
}
