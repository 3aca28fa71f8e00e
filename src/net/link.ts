import { VERDICT_ADMIT, VERDICT_DROP, type QueueDisc } from './qdisc/types.js';

/**
 * One direction of a point-to-point link with its output queue: serialisation at `bandwidthBps`,
 * then `delayNs` of propagation. The queue discipline (src/net/qdisc) decides what enters.
 *
 * With a FIFO discipline that decides at enqueue (drop-tail, RED, PIE) a packet's departure is known
 * at arrival: start = max(now, link free), and the packet reaches the far end at start + tx + delay.
 * The link then needs one event per packet (the arrival at the far end) instead of two, and the
 * queue length at any time is the number of admitted packets whose transmission has not started
 * yet. A discipline that holds its packets (CoDel, FQ-CoDel) is asked for the next packet each time
 * the transmitter frees (src/net/dumbbell.ts runs that path: one more event per packet).
 * As in ns-3 the packet being serialised is not in the queue; the limit counts waiting packets.
 */
export { VERDICT_ADMIT, VERDICT_DROP };

/** Slots a link's queue ring starts with (it grows by doubling). */
const INITIAL_RING_SLOTS = 8;

export class Link {
  /** Time the transmitter becomes free (ns). */
  freeAtNs = 0;
  private nsPerByte: number;
  /**
   * Ring of transmission start times of waiting packets (ascending). It starts small and doubles
   * when full: a run has thousands of access links whose queues rarely hold more than a few packets,
   * and a ring of limit slots each (64 MB at 1000 flows of one BDP) would be touched slot by slot as
   * the ring turns, in RSS and in cache misses.
   */
  private starts: Float64Array;
  private head = 0;
  private count = 0;
  /** The discipline holds packets and is dequeued by the link's owner (see the class comment). */
  readonly holdsPackets: boolean;
  /**
   * Held-packet disciplines: a packet is being serialised (its EV_TX_END is pending). A flag rather
   * than freeAtNs <= now, which an arrival at the very instant of a transmission's end also meets.
   */
  transmitting = false;
  /** Outcome of the last {@link admit}: a VERDICT_* of src/net/qdisc/types.ts. */
  lastVerdict = VERDICT_ADMIT;
  /** FIFO: how long the last admitted packet waits before its transmission starts (ns). */
  lastWaitNs = 0;
  /**
   * Packets offered, dropped by the discipline (at enqueue or held; the owner counts those) and
   * sent: offered = dropped + sent + held at any time (checked at the end of every run).
   */
  offered = 0;
  dropped = 0;
  sent = 0;

  constructor(
    readonly name: string,
    public bandwidthBps: number,
    readonly delayNs: number,
    readonly qdisc: QueueDisc,
  ) {
    this.nsPerByte = 8e9 / bandwidthBps;
    this.starts = new Float64Array(INITIAL_RING_SLOTS);
    this.holdsPackets = qdisc.holdsPackets;
  }

  /**
   * The link's rate changes (scenario `bottleneck.rateChanges`). Packets that start serialising from
   * now on take the new rate; a FIFO link has already fixed the departure times of the packets it
   * admitted, so those queued at the change still leave at the old rate (the queue's drain time, at
   * most limit x old serialisation time, is the error). A held-packet discipline's packets all take
   * the new rate. The discipline's context keeps the rate it was built with (RED's idle correction).
   */
  setBandwidth(bandwidthBps: number): void {
    this.bandwidthBps = bandwidthBps;
    this.nsPerByte = 8e9 / bandwidthBps;
  }

  /** Serialisation time of `bytes` on this link, integer ns. */
  txNs(bytes: number): number {
    return Math.round(bytes * this.nsPerByte);
  }

  /** Packets waiting (not yet being transmitted) at time nowNs. */
  queueLength(nowNs: number): number {
    if (this.holdsPackets) return this.qdisc.backlogPackets;
    const starts = this.starts;
    const cap = starts.length;
    while (this.count > 0 && starts[this.head]! <= nowNs) {
      this.head = this.head + 1 === cap ? 0 : this.head + 1;
      this.count--;
    }
    return this.count;
  }

  /**
   * FIFO disciplines: packets waiting right after an {@link admit} at the same instant (its
   * queueLength(now) and the one it queued), what queueLength(now) would return then, without a
   * time argument (a time past 2^31 ns handed to a call V8 did not inline is boxed: issue 24).
   */
  get waitingAfterAdmit(): number {
    return this.count;
  }

  /**
   * FIFO disciplines: offers packet `packet` of `wireBytes` at nowNs. Returns how long after nowNs it
   * reaches the far end (ns: queueing, serialisation and propagation), or -1 if the discipline
   * dropped it (lastVerdict says so, its stats why). A span from now, not a time: it stays a small
   * integer, where a time past 2^31 ns (2.1 s) would be boxed in a heap number on every return.
   */
  admit(nowNs: number, wireBytes: number, packet = -1): number {
    const q = this.queueLength(nowNs);
    const verdict = this.qdisc.enqueue(packet, nowNs, q, this.freeAtNs);
    this.lastVerdict = verdict;
    this.offered++;
    if (verdict === VERDICT_DROP) return -1;
    this.sent++;
    const start = this.freeAtNs > nowNs ? this.freeAtNs : nowNs;
    this.lastWaitNs = start - nowNs;
    if (start > nowNs) {
      if (this.count === this.starts.length) this.grow();
      let tail = this.head + this.count;
      if (tail >= this.starts.length) tail -= this.starts.length;
      this.starts[tail] = start;
      this.count++;
    }
    this.freeAtNs = start + Math.round(wireBytes * this.nsPerByte);
    return this.freeAtNs - nowNs + this.delayNs;
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
}
