/**
 * All packets of a run as rows of one Float64Array: a packet is an integer id, its header the
 * ROW_SLOTS numbers at ROW_SLOTS * id, and freed ids are recycled (last freed, first reused), so the
 * hot path allocates no objects and the GC stays quiet even with tens of millions of packets. A row
 * is 64 bytes, one or two cache lines, where a column per field (twelve typed arrays) cost a cache
 * line per field read: a packet's hop reads type, flow, hop and size, its delivery seq, length and
 * timestamp. Every field is an integer or an integral double (sequence numbers are byte offsets,
 * exact to 2^53), so the numbers are the ones the columns held.
 *
 * As in a real header, some slots mean different things for data and ACKs (the constants below say
 * which); the SACK blocks of an ACK, rare outside loss, sit in their own array.
 */
export const DATA = 0;
export const ACK = 1;
/** Numbers per packet for SACK blocks: 3 [start, end) pairs (what fits beside the timestamp option). */
export const SACK_SLOTS = 6;

/** Numbers per packet row. */
export const ROW_SLOTS = 8;
/** DATA or ACK. */
export const F_TYPE = 0;
export const F_FLOW = 1;
/** Index of the link on the packet's path that it is crossing. */
export const F_HOP = 2;
/** Data: first payload byte. ACK: cumulative acknowledgement number (next byte expected). */
export const F_SEQ = 3;
/** Bytes on the wire (payload + headers). */
export const F_WIRE_BYTES = 4;
/** Timestamp option: data, the sender's clock at transmission (tsVal, ns); ACK, the echoed tsVal (tsEcr). */
export const F_TS_NS = 5;
/** Data: payload bytes. ACK: advertised receive window, bytes. */
export const F_PAYLOAD_OR_RWND = 6;
/** Data: 1 if this transmission is a retransmission. ACK: SACK blocks carried (0-3). */
export const F_RETX_OR_SACKS = 7;

/** Wire bytes of a SACK option with n blocks: kind + length + 8 per block, padded by two NOPs (as Linux sends it). */
export function sackOptionBytes(blocks: number): number {
  return blocks > 0 ? 4 + 8 * blocks : 0;
}

/**
 * ECN bits of a packet's headers, one byte per packet id in {@link PacketPool.ecn}: bits 0-1 the IP
 * ECN field (RFC 3168 §5 codepoints), bits 2-3 the TCP header's ECE and CWR flags (§6.1). A byte
 * column rather than a row slot: the row is full (64 bytes), and only ECN-aware parts read it.
 */
export const ECN_NOT_ECT = 0b00;
export const ECN_ECT1 = 0b01;
export const ECN_ECT0 = 0b10;
/** Congestion Experienced, set by a marking queue. */
export const ECN_CE = 0b11;
/** Mask of the IP ECN field in the byte. */
export const ECN_FIELD = 0b11;
/** TCP ECN-Echo (receiver to sender: CE seen). */
export const TCP_ECE = 0b0100;
/** TCP Congestion Window Reduced (sender to receiver: reacted). */
export const TCP_CWR = 0b1000;

/**
 * Marks packet p CE if it is ECN-capable (ECT(0), ECT(1) or already CE) and returns true; returns
 * false for a Not-ECT packet, which the queue must drop instead (RFC 3168 §5; ns-3 QueueDisc::Mark,
 * Linux INET_ECN_set_ce).
 */
export function markCe(pool: PacketPool, p: number): boolean {
  const e = pool.ecn[p]!;
  if ((e & ECN_FIELD) === ECN_NOT_ECT) return false;
  pool.ecn[p] = e | ECN_CE;
  return true;
}

export class PacketPool {
  /** ROW_SLOTS numbers per packet id (see the F_* offsets). Replaced when the pool grows. */
  rows: Float64Array;
  /** ACK: SACK blocks, SACK_SLOTS numbers per packet id. */
  sack: Float64Array;
  /** ECN bits (ECN_* and TCP_* above), one byte per packet id; the sender of a packet writes it. */
  ecn: Uint8Array;

  private free: Int32Array;
  private freeCount = 0;
  private allocated = 0;
  private capacity: number;
  /** Packets currently allocated (in the network). */
  live = 0;
  /** Packets ever allocated (data segments and ACKs put on the wire). */
  created = 0;

  constructor(capacity = 4096) {
    this.capacity = capacity;
    this.rows = new Float64Array(capacity * ROW_SLOTS);
    this.sack = new Float64Array(capacity * SACK_SLOTS);
    this.ecn = new Uint8Array(capacity);
    this.free = new Int32Array(capacity);
  }

  alloc(): number {
    this.live++;
    this.created++;
    if (this.freeCount > 0) return this.free[--this.freeCount]!;
    if (this.allocated === this.capacity) this.grow();
    return this.allocated++;
  }

  release(id: number): void {
    this.live--;
    this.free[this.freeCount++] = id;
  }

  private grow(): void {
    const c = 2 * this.capacity;
    const rows = new Float64Array(c * ROW_SLOTS);
    rows.set(this.rows);
    this.rows = rows;
    const sack = new Float64Array(c * SACK_SLOTS);
    sack.set(this.sack);
    this.sack = sack;
    const ecn = new Uint8Array(c);
    ecn.set(this.ecn);
    this.ecn = ecn;
    const free = new Int32Array(c);
    free.set(this.free);
    this.free = free;
    this.capacity = c;
  }
}
