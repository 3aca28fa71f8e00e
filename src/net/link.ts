import { RedState, type RedParams } from './red.js';

/**
 * One direction of a point-to-point link with its output queue: serialisation at `bandwidthBps`,
 * then `delayNs` of propagation. The queue is FIFO, so a packet's departure is known at arrival:
 * start = max(now, link free), and the packet reaches the far end at start + tx + delay. The link
 * therefore needs one event per packet (the arrival at the far end) instead of two, and the queue
 * length at any time is the number of admitted packets whose transmission has not started yet.
 * As in ns-3 the packet being serialised is not in the queue; the limit counts waiting packets.
 */
export const ADMITTED = 0;
export const DROP_LIMIT = 1;
export const DROP_RED = 2;

/** Slots a link's queue ring starts with (it grows by doubling). */
const INITIAL_RING_SLOTS = 8;

export class Link {
  /** Time the transmitter becomes free (ns). */
  freeAtNs = 0;
  private readonly nsPerByte: number;
  /**
   * Ring of transmission start times of waiting packets (ascending). It starts small and doubles
   * when full, up to the limit: a run has thousands of access links whose queues rarely hold more than
   * a few packets, and a ring of limit slots each (64 MB at 1000 flows of one BDP) would be touched
   * slot by slot as the ring turns, in RSS and in cache misses.
   */
  private starts: Float64Array;
  private head = 0;
  private count = 0;
  private red: RedState | null;
  private readonly typicalTxNs: number;
  /** Outcome of the last {@link admit}: ADMITTED, DROP_LIMIT or DROP_RED. */
  lastVerdict = ADMITTED;

  constructor(
    readonly name: string,
    readonly bandwidthBps: number,
    readonly delayNs: number,
    readonly limitPackets: number,
    red: RedParams | null,
    typicalPacketBytes: number,
    private readonly uniform: () => number,
  ) {
    this.nsPerByte = 8e9 / bandwidthBps;
    this.starts = new Float64Array(Math.min(INITIAL_RING_SLOTS, limitPackets + 1));
    this.red = red ? new RedState(red) : null;
    this.typicalTxNs = Math.max(1, Math.round(typicalPacketBytes * this.nsPerByte));
  }

  /** Serialisation time of `bytes` on this link, integer ns. */
  txNs(bytes: number): number {
    return Math.round(bytes * this.nsPerByte);
  }

  /** Packets waiting (not yet being transmitted) at time nowNs. */
  queueLength(nowNs: number): number {
    const starts = this.starts;
    const cap = starts.length;
    while (this.count > 0 && starts[this.head]! <= nowNs) {
      this.head = this.head + 1 === cap ? 0 : this.head + 1;
      this.count--;
    }
    return this.count;
  }

  /**
   * Offers a packet of `wireBytes` at nowNs. Returns the time it reaches the far end (ns), or -1 if
   * the queue dropped it (lastVerdict says why).
   */
  admit(nowNs: number, wireBytes: number): number {
    const q = this.queueLength(nowNs);
    const red = this.red;
    if (red !== null) {
      const idleNs = q === 0 && this.freeAtNs < nowNs ? nowNs - this.freeAtNs : 0;
      red.updateAverage(q, idleNs, this.typicalTxNs);
    }
    const start = this.freeAtNs > nowNs ? this.freeAtNs : nowNs;
    if (start > nowNs) {
      // The packet has to wait: queue limits and RED apply.
      if (q >= this.limitPackets) {
        this.lastVerdict = DROP_LIMIT;
        return -1;
      }
      if (red !== null && red.shouldDrop(this.uniform())) {
        this.lastVerdict = DROP_RED;
        return -1;
      }
      if (this.count === this.starts.length) this.grow();
      let tail = this.head + this.count;
      if (tail >= this.starts.length) tail -= this.starts.length;
      this.starts[tail] = start;
      this.count++;
    } else if (red !== null && red.shouldDrop(this.uniform())) {
      this.lastVerdict = DROP_RED;
      return -1;
    }
    this.lastVerdict = ADMITTED;
    this.freeAtNs = start + Math.round(wireBytes * this.nsPerByte);
    return this.freeAtNs + this.delayNs;
  }

  /** Doubles the ring, unwrapping it so that the head is slot 0. */
  private grow(): void {
    const old = this.starts;
    const ring = new Float64Array(2 * old.length);
    const firstPart = old.subarray(this.head);
    ring.set(firstPart);
    ring.set(old.subarray(0, this.head), firstPart.length);
    this.starts = ring;
    this.head = 0;
  }

  /** Current RED average (packets), NaN for drop-tail. */
  get redAverage(): number {
    return this.red ? this.red.avg : NaN;
  }
}
