/**
 * Event queues in a hold model (pop the earliest event, push one a pseudo-random 0-1 ms later), at
 * 1, 100 and 10,000 pending events (issue 24 asks which queue is fastest there): the engine's binary
 * heap (src/engine/heap.ts) against a calendar queue (Brown 1988: a ring of buckets one width wide,
 * each a list sorted by (time, seq), so the pop order is exactly the heap's; checked by a checksum of
 * the popped sequence numbers). The calendar queue gets its best case: bucket count and width set from
 * the known pending count and increment distribution, no resizing. Figures, not pass/fail.
 *
 * In the packet engine the heap holds one entry per busy link channel plus the timers, and a channel's
 * next head is usually due soon: a sift-down per event walks 1.45 levels in the large case and 3.3 at
 * 1000 flows (about 2000 entries), where the hold model's random pushes walk the whole depth.
 *
 * Run: `node --import tsx bench/queues.ts`.
 */
import { pathToFileURL } from 'node:url';
import { EventHeap } from '../src/engine/heap.js';

interface HoldQueue {
  push(time: number, seq: number, kind: number, arg: number): void;
  /** Removes the earliest event into topTime / topSeq. */
  pop(): unknown;
  topTime: number;
  topSeq: number;
}

/** Brown's calendar queue with sorted buckets (linked lists in typed arrays), fixed size. */
class CalendarQueue implements HoldQueue {
  private readonly mask: number;
  private readonly head: Int32Array;
  private readonly time: Float64Array;
  private readonly seq: Float64Array;
  private readonly next: Int32Array;
  private readonly free: Int32Array;
  private freeCount: number;
  /** The bucket being drained and the end of its current year's interval (ns). */
  private cur = 0;
  private curEndNs: number;
  topTime = 0;
  topSeq = 0;

  constructor(
    private readonly buckets: number,
    private readonly widthNs: number,
    capacity: number,
  ) {
    this.mask = buckets - 1;
    this.head = new Int32Array(buckets).fill(-1);
    this.time = new Float64Array(capacity);
    this.seq = new Float64Array(capacity);
    this.next = new Int32Array(capacity);
    this.free = Int32Array.from({ length: capacity }, (_, i) => capacity - 1 - i);
    this.freeCount = capacity;
    this.curEndNs = widthNs;
  }

  push(time: number, seq: number): void {
    const e = this.free[--this.freeCount]!;
    this.time[e] = time;
    this.seq[e] = seq;
    const year = Math.floor(time / this.widthNs);
    const b = year & this.mask;
    let prev = -1;
    let x = this.head[b]!;
    while (x >= 0 && (this.time[x]! < time || (this.time[x] === time && this.seq[x]! < seq))) {
      prev = x;
      x = this.next[x]!;
    }
    this.next[e] = x;
    if (prev < 0) this.head[b] = e;
    else this.next[prev] = e;
    if (time < this.curEndNs - this.widthNs) {
      this.cur = b;
      this.curEndNs = (year + 1) * this.widthNs;
    }
  }

  pop(): void {
    for (let scanned = 0; ; scanned++) {
      const x = this.head[this.cur]!;
      if (x >= 0 && this.time[x]! < this.curEndNs) {
        this.head[this.cur] = this.next[x]!;
        this.free[this.freeCount++] = x;
        this.topTime = this.time[x]!;
        this.topSeq = this.seq[x]!;
        return;
      }
      this.cur = (this.cur + 1) & this.mask;
      this.curEndNs += this.widthNs;
      if (scanned > this.buckets) {
        this.jumpToEarliest();
        scanned = 0;
      }
    }
  }

  /** A whole year of empty buckets: go straight to the bucket of the earliest event. */
  private jumpToEarliest(): void {
    let best = -1;
    for (let b = 0; b <= this.mask; b++) {
      const y = this.head[b]!;
      if (y >= 0 && (best < 0 || this.time[y]! < this.time[best]! || (this.time[y] === this.time[best] && this.seq[y]! < this.seq[best]!))) best = y;
    }
    const year = Math.floor(this.time[best]! / this.widthNs);
    this.cur = year & this.mask;
    this.curEndNs = (year + 1) * this.widthNs;
  }
}

/** Pop + push pairs per CPU-second, and a checksum of the popped sequence numbers (the order). */
function hold(queue: HoldQueue, pending: number, ops: number): { rate: number; order: number } {
  let seq = 0;
  let x = 12345;
  const rand = (): number => (x = (x * 48271) % 2147483647);
  for (let i = 0; i < pending; i++) queue.push(3e9 + (rand() % 1_000_000), seq++, 0, i);
  let order = 0;
  const c0 = process.cpuUsage();
  for (let i = 0; i < ops; i++) {
    queue.pop();
    order = (order * 31 + queue.topSeq) % 1e9;
    queue.push(queue.topTime + (rand() % 1_000_000), seq++, 0, i);
  }
  const c = process.cpuUsage(c0);
  return { rate: ops / ((c.user + c.system) / 1e6), order };
}

/** Median of 5 alternating timings per queue and pending count. */
export function benchQueues(ops = 2_000_000): void {
  for (const pending of [1, 100, 10_000]) {
    const buckets = Math.max(2, 2 ** Math.ceil(Math.log2(pending)));
    const makers: [string, () => HoldQueue][] = [
      ['binary heap', () => new EventHeap(1024)],
      ['calendar queue', () => new CalendarQueue(buckets, Math.max(1, Math.round(1e6 / pending)), pending + 2)],
    ];
    const rates = makers.map(() => [] as number[]);
    const orders = new Set<number>();
    for (let rep = 0; rep < 5; rep++) {
      makers.forEach(([, make], k) => {
        const r = hold(make(), pending, ops);
        rates[k]!.push(r.rate);
        orders.add(r.order);
      });
    }
    const med = (a: number[]): number => a.sort((p, q) => p - q)[a.length >> 1]!;
    const figures = makers.map(([name], k) => `${name} ${(med(rates[k]!) / 1e6).toFixed(1)} M`).join(', ');
    console.log(`hold model, ${pending} pending: ${figures} pop+push per cpu-s; pop order ${orders.size === 1 ? 'identical' : 'DIFFERS'}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) benchQueues();
