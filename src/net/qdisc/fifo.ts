/**
 * A FIFO of held packets for the disciplines that keep them (CoDel, each FQ-CoDel queue): packet
 * ids, their enqueue times (for the sojourn time) and the byte backlog. Rings of typed arrays that
 * start small and double, as the link's ring does: FQ-CoDel has one per flow.
 */
const INITIAL_SLOTS = 4;

export class PacketFifo {
  private ids = new Int32Array(INITIAL_SLOTS);
  private enqueuedAtNs = new Float64Array(INITIAL_SLOTS);
  private bytesOf = new Float64Array(INITIAL_SLOTS);
  private head = 0;
  /** Packets held. */
  length = 0;
  /** Bytes held (wire bytes). */
  bytes = 0;

  push(packet: number, nowNs: number, wireBytes: number): void {
    if (this.length === this.ids.length) this.grow();
    let tail = this.head + this.length;
    if (tail >= this.ids.length) tail -= this.ids.length;
    this.ids[tail] = packet;
    this.enqueuedAtNs[tail] = nowNs;
    this.bytesOf[tail] = wireBytes;
    this.length++;
    this.bytes += wireBytes;
  }

  /** Enqueue time of the head packet (call only when length > 0). */
  headEnqueuedAtNs(): number {
    return this.enqueuedAtNs[this.head]!;
  }

  /** Removes the head packet and returns its id (call only when length > 0). */
  shift(): number {
    const h = this.head;
    const p = this.ids[h]!;
    this.bytes -= this.bytesOf[h]!;
    this.head = h + 1 === this.ids.length ? 0 : h + 1;
    this.length--;
    return p;
  }

  private grow(): void {
    const n = 2 * this.ids.length;
    const unwrap = <T extends Int32Array | Float64Array>(old: T, fresh: T): T => {
      const first = old.subarray(this.head);
      fresh.set(first);
      fresh.set(old.subarray(0, this.head), first.length);
      return fresh;
    };
    this.ids = unwrap(this.ids, new Int32Array(n));
    this.enqueuedAtNs = unwrap(this.enqueuedAtNs, new Float64Array(n));
    this.bytesOf = unwrap(this.bytesOf, new Float64Array(n));
    this.head = 0;
  }
}
