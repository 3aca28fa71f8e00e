/**
 * All packets of a run in struct-of-arrays form: a packet is an integer id into typed arrays, and
 * freed ids are recycled, so the hot path allocates no objects and the GC stays quiet even with
 * tens of millions of packets. Sequence numbers are byte offsets (Float64: exact to 2^53 bytes).
 */
export const DATA = 0;
export const ACK = 1;
/** Numbers per packet for SACK blocks: 3 [start, end) pairs (what fits beside the timestamp option). */
export const SACK_SLOTS = 6;

export class PacketPool {
  /** DATA or ACK. */
  type: Uint8Array;
  flow: Int32Array;
  /** Index of the link on the packet's path that it is crossing. */
  hop: Int32Array;
  /** Data: first payload byte. ACK: cumulative acknowledgement number (next byte expected). */
  seq: Float64Array;
  /** Payload bytes (0 for an ACK). */
  payloadBytes: Int32Array;
  /** Bytes on the wire (payload + headers). */
  wireBytes: Int32Array;
  /** Timestamp option: sender's clock at transmission (ns). */
  tsValNs: Float64Array;
  /** Timestamp option: echoed tsVal (ACKs). */
  tsEcrNs: Float64Array;
  /** ACK: advertised receive window, bytes. */
  rwndBytes: Float64Array;
  /** Data: 1 if this transmission is a retransmission. */
  retx: Uint8Array;
  /** ACK: SACK blocks carried (0-3). */
  sackCount: Uint8Array;
  /** ACK: SACK blocks, SACK_SLOTS numbers per packet id. */
  sack: Float64Array;

  private free: Int32Array;
  private freeCount = 0;
  private allocated = 0;
  /** Packets currently allocated (in the network). */
  live = 0;
  /** Packets ever allocated (data segments and ACKs put on the wire). */
  created = 0;

  constructor(capacity = 4096) {
    this.type = new Uint8Array(capacity);
    this.flow = new Int32Array(capacity);
    this.hop = new Int32Array(capacity);
    this.seq = new Float64Array(capacity);
    this.payloadBytes = new Int32Array(capacity);
    this.wireBytes = new Int32Array(capacity);
    this.tsValNs = new Float64Array(capacity);
    this.tsEcrNs = new Float64Array(capacity);
    this.rwndBytes = new Float64Array(capacity);
    this.retx = new Uint8Array(capacity);
    this.sackCount = new Uint8Array(capacity);
    this.sack = new Float64Array(capacity * SACK_SLOTS);
    this.free = new Int32Array(capacity);
  }

  alloc(): number {
    this.live++;
    this.created++;
    if (this.freeCount > 0) return this.free[--this.freeCount]!;
    if (this.allocated === this.type.length) this.grow();
    return this.allocated++;
  }

  release(id: number): void {
    this.live--;
    this.free[this.freeCount++] = id;
  }

  private grow(): void {
    const c = this.type.length * 2;
    const g = <T extends Uint8Array | Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(c);
      b.set(a);
      return b;
    };
    this.type = g(this.type, (n) => new Uint8Array(n));
    this.flow = g(this.flow, (n) => new Int32Array(n));
    this.hop = g(this.hop, (n) => new Int32Array(n));
    this.seq = g(this.seq, (n) => new Float64Array(n));
    this.payloadBytes = g(this.payloadBytes, (n) => new Int32Array(n));
    this.wireBytes = g(this.wireBytes, (n) => new Int32Array(n));
    this.tsValNs = g(this.tsValNs, (n) => new Float64Array(n));
    this.tsEcrNs = g(this.tsEcrNs, (n) => new Float64Array(n));
    this.rwndBytes = g(this.rwndBytes, (n) => new Float64Array(n));
    this.retx = g(this.retx, (n) => new Uint8Array(n));
    this.sackCount = g(this.sackCount, (n) => new Uint8Array(n));
    const sack = new Float64Array(c * SACK_SLOTS);
    sack.set(this.sack);
    this.sack = sack;
    this.free = g(this.free, (n) => new Int32Array(n));
  }
}
