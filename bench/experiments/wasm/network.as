// AssemblyScript (0.28) port of bench/floor.ts's `network` layer: the dumbbell's network
// (src/net/dumbbell.ts, src/net/link.ts: packet pool, drop-tail FIFO links with their ring of start
// times, paths, delivery) on the simulator's core (src/engine/simulator.ts, heap.ts: a (time, seq)
// heap holding one head per FIFO channel, one channel per link direction, the deferred pop), under
// networkOnly's fixed-window transport (each flow keeps `window` segments in flight, the receiver
// ACKs every second segment, each ACK tops the window up, a queue-dropped segment leaves the flight
// at the next ACK). Same algorithm and (time, seq) order, so the same events and per-flow deliveries;
// the whole run is one call. Compiled by bench/experiments/wasm-network.ts (--runtime stub: no GC,
// no managed objects; every structure is raw linear memory).
//
// Layout (the proposal of README's Speed section): each flow's state is one contiguous block, its
// header (transport state, counters, its two paths as link addresses) then its links, each link with
// its FIFO state, its ring of start times and its channel ring inline (8 and 4 slots, JS's initial
// sizes; a ring that outgrows them doubles into the bump area, as JS's do). The bottleneck's two
// directions sit in one shared block. Packets are 32-byte rows of a pool with JS's LIFO free list;
// heap nodes are 16 bytes (time i64, seq u32, payload i32: a link's address for a channel head, minus
// a flow block's address for its application start), so a node's two children share 32 bytes.
// What is left out of JS's path: the traced queue's hooks (a link-id compare and two null checks in
// JS, the hooks null in networkOnly), the SACK copy loops (no blocks) and the loss draw (rate 0 on
// both scenarios, checked by the driver).

// Link record (LINK bytes).
const L_FREE_AT = 0; // i64: transmitter free at (ns)
const L_NS_PER_BYTE = 8; // f64: 8e9 / bandwidthBps, as Link.nsPerByte
const L_DELAY = 16; // i64 ns
const L_CH_LAST = 24; // i64: channel's last time
const L_ST_PTR = 32; // starts ring: pointer, head, count, slots
const L_ST_HEAD = 36;
const L_ST_COUNT = 40;
const L_ST_CAP = 44;
const L_CH_PTR = 48; // channel ring (16-byte entries: time i64, seq u32, packet i32)
const L_CH_HEAD = 52;
const L_CH_COUNT = 56;
const L_CH_CAP = 60;
const L_LIMIT = 64;
const L_OFFERED = 68;
const L_DROPPED = 72;
const L_SENT = 76;
const L_LAST_WAIT = 80; // i64: Link.lastWaitNs
const L_LAST_VERDICT = 88; // i32: Link.lastVerdict
const L_ST_INLINE = 96; // 8 x i64
const L_CH_INLINE = 160; // 4 x 16 bytes
const LINK: i32 = 224;
const ST_SLOTS: i32 = 8;
const CH_SLOTS: i32 = 4;

// Flow block header (FLOW_HEADER bytes), then its links.
const F_INDEX = 0;
const F_IN_FLIGHT = 4;
const F_ARRIVED = 8;
const F_DROPPED = 12; // queue drops not yet taken out of the flight (networkOnly's dropped[])
const F_HIGH_TX = 16; // i64 bytes
const F_STOP = 24; // i64 ns
const F_PATH = 32; // 8 x i32 link addresses: data path [0..3], ACK path [4..7], 0 ends
const F_BYTES_IN_NET = 64; // FlowCounters: i64
const F_SEGS_IN_NET = 72;
const F_Q_DROP_SEGS = 76;
const F_Q_DROP_BYTES = 80; // i64
const F_ACK_Q_DROPS = 88;
const F_CE_DELIVERED = 92;
const F_CE_DROPPED = 96;
const F_LINKS_USED = 100; // setup only
const F_START = 104; // i64 ns, setup only
const FLOW_HEADER: i32 = 128;

// Packet row (32 bytes): the fields of src/net/packets.ts's row that the network reads.
const P_FLOW = 0; // i32: flow block address
const P_TYPE = 4; // u8: DATA 0, ACK 1
const P_HOP = 5; // u8
const P_ECN = 6; // u8
const P_RETX = 7; // u8
const P_SEQ = 8; // i64
const P_TS = 16; // i64
const P_WIRE = 24; // i32
const P_PAYLOAD = 28; // i32: data length or rwnd
const ROW_SHIFT: i32 = 5;
const DATA: u8 = 0;
const ACK: u8 = 1;
const ECN_FIELD: u8 = 3;
const ECN_CE: u8 = 3;

// The order check (bench/experiments/wasm-network.ts): a copy compiled with TRACE true hashes every
// dispatched event's (time, packet id or flow, kind) as the JS side does; -O3 drops it here.
const TRACE = false;
let orderHash: i32 = 0;

@inline function trace(t: i64, arg: i32, kind: i32): void {
  if (TRACE) orderHash = (orderHash * 16777619) ^ (<i32>(t & 0x7fffffff) ^ ((arg << 1) | kind));
}

// The boundary's cost (bench/experiments/wasm-network.ts): a copy compiled with CALL_JS true calls
// into JavaScript on every delivered ACK, as a congestion-control algorithm left in JS would be.
const CALL_JS = false;
@external("env", "ackHook") declare function ackHook(flow: i32, ackNo: f64): void;

export function eventOrderHash(): i32 {
  return orderHash;
}

// Run state.
let now: i64 = 0;
let nextSeq: i64 = 0;
let events: i64 = 0;
let window: i32 = 0;
let mss: i32 = 0;
let dataWire: i32 = 0;
let ackWire: i32 = 0;
let flowBytes: i32 = 0;
let nFlows: i32 = 0;
let linkAddrOf: i32 = 0; // i32 per link id (setup)
let flowAddrOf: i32 = 0; // i32 per flow index
let heapBase: i32 = 0;
let heapN: i32 = 0;
let topConsumed = false;
let poolRows: i32 = 0;
let poolFree: i32 = 0;
let poolCap: i32 = 0;
let freeCount: i32 = 0;
let allocated: i32 = 0;
let live: i32 = 0; // PacketPool.live, .created
let created: i32 = 0;
let bump: i32 = 0;

/** Zeroed, 64-byte aligned memory from the bump area (grows the memory when needed). */
function alloc(bytes: i32): i32 {
  const p = (bump + 63) & ~63;
  bump = p + bytes;
  const have = memory.size() << 16;
  if (bump > have) {
    if (memory.grow(((bump - have) >> 16) + 1) < 0) unreachable();
  }
  memory.fill(p, 0, bytes);
  return p;
}

export function init(flows: i32, links: i32, linksPerFlow: i32, win: i32, mssBytes: i32, dataWireBytes: i32, ackWireBytes: i32): void {
  bump = <i32>__heap_base;
  orderHash = 0;
  now = 0;
  nextSeq = 0;
  events = 0;
  nFlows = flows;
  window = win;
  mss = mssBytes;
  dataWire = dataWireBytes;
  ackWire = ackWireBytes;
  flowBytes = (FLOW_HEADER + linksPerFlow * LINK + 63) & ~63;
  linkAddrOf = alloc(links << 2);
  flowAddrOf = alloc(flows << 2);
  heapBase = alloc((links + flows + 2) << 4); // a channel head per link, an application start per flow
  heapN = 0;
  topConsumed = false;
  poolCap = 4096; // PacketPool's first capacity
  poolRows = alloc(poolCap << ROW_SHIFT);
  poolFree = alloc(poolCap << 2);
  freeCount = 0;
  allocated = 0;
  live = 0;
  created = 0;
}

function flowBlock(flow: i32): i32 {
  let f = load<i32>(flowAddrOf + (flow << 2));
  if (f == 0) {
    f = alloc(flowBytes);
    store<i32>(flowAddrOf + (flow << 2), f);
    store<i32>(f, flow, F_INDEX);
  }
  return f;
}

/** Link `id` (src/net/topology.ts's order) of flow `owner`'s block, or of the shared block (-1). */
export function addLink(id: i32, owner: i32, bandwidthBps: f64, delayNs: f64, limit: i32): void {
  let l: i32;
  if (owner < 0) l = alloc(LINK);
  else {
    const f = flowBlock(owner);
    const k = load<i32>(f, F_LINKS_USED);
    store<i32>(f, k + 1, F_LINKS_USED);
    l = f + FLOW_HEADER + k * LINK;
  }
  store<f64>(l, 8e9 / bandwidthBps, L_NS_PER_BYTE);
  store<i64>(l, <i64>delayNs, L_DELAY);
  store<i32>(l, limit, L_LIMIT);
  store<i32>(l, l + L_ST_INLINE, L_ST_PTR);
  store<i32>(l, ST_SLOTS, L_ST_CAP);
  store<i32>(l, l + L_CH_INLINE, L_CH_PTR);
  store<i32>(l, CH_SLOTS, L_CH_CAP);
  store<i32>(linkAddrOf + (id << 2), l);
}

/** Hop `hop` of flow `flow`'s data (dir 0) or ACK (dir 1) path is link `id`. */
export function setPath(flow: i32, dir: i32, hop: i32, id: i32): void {
  store<i32>(flowBlock(flow) + F_PATH + ((dir * 4 + hop) << 2), load<i32>(linkAddrOf + (id << 2)));
}

export function setFlow(flow: i32, startNs: f64, stopNs: f64): void {
  const f = flowBlock(flow);
  store<i64>(f, <i64>startNs, F_START);
  store<i64>(f, <i64>stopNs, F_STOP);
}

export function arrived(flow: i32): i32 {
  return load<i32>(load<i32>(flowAddrOf + (flow << 2)), F_ARRIVED);
}

/** Linear memory the run used (tables, heap, pool, flow blocks, grown rings), bytes. */
export function usedBytes(): i32 {
  return bump - <i32>__heap_base;
}

/** Packets still in the network at the end (PacketPool.live). */
export function livePackets(): i32 {
  return live;
}

export function queueDropSegments(flow: i32): i32 {
  return load<i32>(load<i32>(flowAddrOf + (flow << 2)), F_Q_DROP_SEGS);
}

// ---- Event heap (src/engine/heap.ts): node i at heapBase + 16 i, slot 0 the node being placed.

@inline function before(t: i64, s: u32, at: i32): bool {
  const ct = load<i64>(at);
  return t < ct || (t == ct && s < load<u32>(at, 8));
}

function siftDown(n: i32): void {
  const h = heapBase;
  const t = load<i64>(h);
  const s = load<u32>(h, 8);
  let i = 1;
  for (;;) {
    let c = i << 1;
    if (c > n) break;
    let cb = h + (c << 4);
    if (c < n) {
      const rt = load<i64>(cb, 16);
      const lt = load<i64>(cb);
      if (rt < lt || (rt == lt && load<u32>(cb, 24) < load<u32>(cb, 8))) {
        c++;
        cb += 16;
      }
    }
    if (before(t, s, cb)) break;
    const ib = h + (i << 4);
    store<i64>(ib, load<i64>(cb));
    store<i64>(ib, load<i64>(cb, 8), 8); // seq and payload together
    i = c;
  }
  const ib = h + (i << 4);
  store<i64>(ib, t);
  store<i64>(ib, load<i64>(h, 8), 8);
}

function siftUp(): void {
  const h = heapBase;
  const t = load<i64>(h);
  const s = load<u32>(h, 8);
  let i = ++heapN;
  while (i > 1) {
    const p = i >> 1;
    const pb = h + (p << 4);
    const pt = load<i64>(pb);
    if (pt < t || (pt == t && load<u32>(pb, 8) < s)) break;
    const ib = h + (i << 4);
    store<i64>(ib, pt);
    store<i64>(ib, load<i64>(pb, 8), 8);
    i = p;
  }
  const ib = h + (i << 4);
  store<i64>(ib, t);
  store<i64>(ib, load<i64>(h, 8), 8);
}

/** EventHeap.push / place: into a consumed top's place if there is one, else as a new leaf. */
function push(t: i64, seq: i64, payload: i32): void {
  if (seq > 0xffffffff) unreachable(); // seq is a u32 in a node
  const h = heapBase;
  store<i64>(h, t);
  store<u32>(h, <u32>seq, 8);
  store<i32>(h, payload, 12);
  if (topConsumed) {
    topConsumed = false;
    siftDown(heapN);
  } else siftUp();
}

function removeTop(): void {
  const last = heapN--;
  if (last == 1) return;
  const h = heapBase;
  const lb = h + (last << 4);
  store<i64>(h, load<i64>(lb));
  store<i64>(h, load<i64>(lb, 8), 8);
  siftDown(last - 1);
}

// ---- Channels (Simulator.scheduleOnChannelAfter, EventChannel).

function growChannel(l: i32): void {
  const n = load<i32>(l, L_CH_CAP);
  const old = load<i32>(l, L_CH_PTR);
  const head = load<i32>(l, L_CH_HEAD);
  const count = load<i32>(l, L_CH_COUNT);
  const ring = alloc(n << 5);
  for (let k = 0; k < count; k++) {
    const i = (head + k) % n;
    memory.copy(ring + (k << 4), old + (i << 4), 16);
  }
  store<i32>(l, ring, L_CH_PTR);
  store<i32>(l, n << 1, L_CH_CAP);
  store<i32>(l, 0, L_CH_HEAD);
}

@inline function scheduleOnChannel(l: i32, t: i64, p: i32): void {
  if (t < now || t < load<i64>(l, L_CH_LAST)) unreachable();
  const seq = nextSeq++;
  let count = load<i32>(l, L_CH_COUNT);
  if (count == 0) push(t, seq, l);
  if (count == load<i32>(l, L_CH_CAP)) growChannel(l);
  const cap = load<i32>(l, L_CH_CAP);
  let i = load<i32>(l, L_CH_HEAD) + count;
  if (i >= cap) i -= cap;
  const e = load<i32>(l, L_CH_PTR) + (i << 4);
  store<i64>(e, t);
  store<u32>(e, <u32>seq, 8);
  store<i32>(e, p, 12);
  store<i32>(l, count + 1, L_CH_COUNT);
  store<i64>(l, t, L_CH_LAST);
}

// ---- Packet pool (PacketPool: LIFO free list, doubling).

function growPool(): void {
  const c = poolCap << 1;
  const rows = alloc(c << ROW_SHIFT);
  memory.copy(rows, poolRows, poolCap << ROW_SHIFT);
  const free = alloc(c << 2);
  memory.copy(free, poolFree, poolCap << 2);
  poolRows = rows;
  poolFree = free;
  poolCap = c;
}

@inline function allocPacket(): i32 {
  live++;
  created++;
  if (freeCount > 0) return load<i32>(poolFree + (--freeCount << 2));
  if (allocated == poolCap) growPool();
  return allocated++;
}

@inline function release(p: i32): void {
  live--;
  store<i32>(poolFree + (freeCount++ << 2), p);
}

@inline function row(p: i32): i32 {
  return poolRows + (p << ROW_SHIFT);
}

// ---- Links (Link.admit with drop-tail's overLimit).

function growStarts(l: i32): void {
  const n = load<i32>(l, L_ST_CAP);
  const old = load<i32>(l, L_ST_PTR);
  const head = load<i32>(l, L_ST_HEAD);
  const ring = alloc(n << 4);
  memory.copy(ring, old + (head << 3), (n - head) << 3);
  memory.copy(ring + ((n - head) << 3), old, head << 3);
  store<i32>(l, ring, L_ST_PTR);
  store<i32>(l, n << 1, L_ST_CAP);
  store<i32>(l, 0, L_ST_HEAD);
}

/** Math.round for a positive product (JS rounds halves up). */
@inline function roundHalfUp(x: f64): i64 {
  const r = Math.floor(x);
  return <i64>(x - r >= 0.5 ? r + 1 : r);
}

const VERDICT_ADMIT: i32 = 0;
const VERDICT_DROP: i32 = 2;

/** Link.admit: the span until the packet reaches the far end, or -1 if the queue drops it. */
@inline function admit(l: i32, wireBytes: i32): i64 {
  let count = load<i32>(l, L_ST_COUNT);
  const cap = load<i32>(l, L_ST_CAP);
  const ptr = load<i32>(l, L_ST_PTR);
  if (count > 0) {
    let head = load<i32>(l, L_ST_HEAD);
    while (count > 0 && load<i64>(ptr + (head << 3)) <= now) {
      head = head + 1 == cap ? 0 : head + 1;
      count--;
    }
    store<i32>(l, head, L_ST_HEAD);
  }
  const free = load<i64>(l, L_FREE_AT);
  const drop = free > now && count >= load<i32>(l, L_LIMIT);
  store<i32>(l, drop ? VERDICT_DROP : VERDICT_ADMIT, L_LAST_VERDICT);
  store<i32>(l, load<i32>(l, L_OFFERED) + 1, L_OFFERED);
  if (drop) {
    store<i32>(l, count, L_ST_COUNT);
    return -1;
  }
  store<i32>(l, load<i32>(l, L_SENT) + 1, L_SENT);
  const start = free > now ? free : now;
  store<i64>(l, start - now, L_LAST_WAIT);
  if (start > now) {
    if (count == cap) {
      store<i32>(l, count, L_ST_COUNT);
      growStarts(l);
    }
    const c2 = load<i32>(l, L_ST_CAP);
    let tail = load<i32>(l, L_ST_HEAD) + count;
    if (tail >= c2) tail -= c2;
    store<i64>(load<i32>(l, L_ST_PTR) + (tail << 3), start);
    count++;
  }
  store<i32>(l, count, L_ST_COUNT);
  const freeAt = start + roundHalfUp(<f64>wireBytes * load<f64>(l, L_NS_PER_BYTE));
  store<i64>(l, freeAt, L_FREE_AT);
  return freeAt - now + load<i64>(l, L_DELAY);
}

// ---- The dumbbell (Dumbbell.forward, deliver, drop) and networkOnly's transport.

function dropAtQueue(p: i32, l: i32): void {
  store<i32>(l, load<i32>(l, L_DROPPED) + 1, L_DROPPED);
  const r = row(p);
  const f = load<i32>(r, P_FLOW);
  if (load<u8>(r, P_TYPE) == DATA) {
    store<i32>(f, load<i32>(f, F_DROPPED) + 1, F_DROPPED); // networkOnly's onQueueDrop
    const len = load<i32>(r, P_PAYLOAD);
    store<i64>(f, load<i64>(f, F_BYTES_IN_NET) - len, F_BYTES_IN_NET);
    store<i32>(f, load<i32>(f, F_SEGS_IN_NET) - 1, F_SEGS_IN_NET);
    if ((load<u8>(r, P_ECN) & ECN_FIELD) == ECN_CE) store<i32>(f, load<i32>(f, F_CE_DROPPED) + 1, F_CE_DROPPED);
    store<i32>(f, load<i32>(f, F_Q_DROP_SEGS) + 1, F_Q_DROP_SEGS);
    store<i64>(f, load<i64>(f, F_Q_DROP_BYTES) + len, F_Q_DROP_BYTES);
  } else store<i32>(f, load<i32>(f, F_ACK_Q_DROPS) + 1, F_ACK_Q_DROPS);
  release(p);
}

function forward(p: i32): void {
  const r = row(p);
  const f = load<i32>(r, P_FLOW);
  const l = load<i32>(f + F_PATH + ((<i32>load<u8>(r, P_TYPE) * 4 + <i32>load<u8>(r, P_HOP)) << 2));
  if (l == 0) {
    deliver(p, r, f);
    return;
  }
  const inNs = admit(l, load<i32>(r, P_WIRE));
  if (inNs < 0) {
    dropAtQueue(p, l);
    return;
  }
  scheduleOnChannel(l, now + inNs, p);
}

function sendData(f: i32, seq: i64, len: i32): void {
  const p = allocPacket();
  const r = row(p);
  store<i32>(r, f, P_FLOW);
  store<u8>(r, DATA, P_TYPE);
  store<u8>(r, 0, P_HOP);
  store<u8>(r, 0, P_ECN);
  store<u8>(r, 0, P_RETX);
  store<i64>(r, seq, P_SEQ);
  store<i64>(r, now, P_TS);
  store<i32>(r, len + dataWire - mss, P_WIRE);
  store<i32>(r, len, P_PAYLOAD);
  store<i64>(f, load<i64>(f, F_BYTES_IN_NET) + len, F_BYTES_IN_NET);
  store<i32>(f, load<i32>(f, F_SEGS_IN_NET) + 1, F_SEGS_IN_NET);
  forward(p);
}

function sendAck(f: i32, ackNo: i64, tsEcr: i64): void {
  const p = allocPacket();
  const r = row(p);
  store<i32>(r, f, P_FLOW);
  store<u8>(r, ACK, P_TYPE);
  store<u8>(r, 0, P_HOP);
  store<u8>(r, 0, P_ECN);
  store<u8>(r, 0, P_RETX); // no SACK blocks
  store<i64>(r, ackNo, P_SEQ);
  store<i64>(r, tsEcr, P_TS);
  store<i32>(r, ackWire, P_WIRE);
  store<i32>(r, 1 << 30, P_PAYLOAD);
  forward(p);
}

/** networkOnly's fill: top the flight up to the window (the flight is set first; drops are counted apart). */
function fill(f: i32): void {
  if (now >= load<i64>(f, F_STOP)) return;
  const want = window - load<i32>(f, F_IN_FLIGHT);
  store<i32>(f, window, F_IN_FLIGHT);
  for (let k = 0; k < want; k++) {
    const seq = load<i64>(f, F_HIGH_TX);
    sendData(f, seq, mss);
    store<i64>(f, seq + mss, F_HIGH_TX);
  }
}

function deliver(p: i32, r: i32, f: i32): void {
  const seq = load<i64>(r, P_SEQ);
  const ts = load<i64>(r, P_TS);
  if (load<u8>(r, P_TYPE) == DATA) {
    const len = load<i32>(r, P_PAYLOAD);
    store<i64>(f, load<i64>(f, F_BYTES_IN_NET) - len, F_BYTES_IN_NET);
    store<i32>(f, load<i32>(f, F_SEGS_IN_NET) - 1, F_SEGS_IN_NET);
    if ((load<u8>(r, P_ECN) & ECN_FIELD) == ECN_CE) store<i32>(f, load<i32>(f, F_CE_DELIVERED) + 1, F_CE_DELIVERED);
    release(p);
    // networkOnly's deliverData.
    store<i32>(f, load<i32>(f, F_IN_FLIGHT) - 1, F_IN_FLIGHT);
    const n = load<i32>(f, F_ARRIVED) + 1;
    store<i32>(f, n, F_ARRIVED);
    if ((n & 1) == 0) sendAck(f, seq + len, ts);
  } else {
    release(p);
    if (CALL_JS) ackHook(load<i32>(f, F_INDEX), <f64>seq);
    // networkOnly's deliverAck.
    store<i32>(f, load<i32>(f, F_IN_FLIGHT) - load<i32>(f, F_DROPPED), F_IN_FLIGHT);
    store<i32>(f, 0, F_DROPPED);
    fill(f);
  }
}

/** Simulator.run(untilNs) of networkOnly: the application starts in flow order, then the loop. Returns the events. */
export function run(untilNs: f64): f64 {
  const until = <i64>untilNs;
  for (let i = 0; i < nFlows; i++) {
    const f = load<i32>(flowAddrOf + (i << 2));
    const t = load<i64>(f, F_START);
    if (t < now) unreachable();
    push(t, nextSeq++, -f);
  }
  const h = heapBase;
  for (;;) {
    if (topConsumed) {
      topConsumed = false;
      removeTop();
    }
    if (heapN == 0) break;
    const t = load<i64>(h, 16);
    if (t > until) break;
    const payload = load<i32>(h, 28);
    now = t;
    events++;
    if (payload > 0) {
      // A channel's head: shift it; the channel's next head takes the top's place (one sift-down).
      const l = payload;
      const head = load<i32>(l, L_CH_HEAD);
      const ring = load<i32>(l, L_CH_PTR);
      const p = load<i32>(ring + (head << 4), 12);
      const count = load<i32>(l, L_CH_COUNT) - 1;
      store<i32>(l, count, L_CH_COUNT);
      if (count == 0) {
        store<i32>(l, 0, L_CH_HEAD);
        topConsumed = true;
      } else {
        const next = head + 1 == load<i32>(l, L_CH_CAP) ? 0 : head + 1;
        store<i32>(l, next, L_CH_HEAD);
        const e = ring + (next << 4);
        store<i64>(h, load<i64>(e));
        store<u32>(h, load<u32>(e, 8), 8);
        store<i32>(h, l, 12);
        siftDown(heapN);
      }
      trace(t, p, 0);
      // Dumbbell.onArrive: the next hop (no loss draw: rate 0).
      const r = row(p);
      store<u8>(r, load<u8>(r, P_HOP) + 1, P_HOP);
      forward(p);
    } else {
      topConsumed = true;
      trace(t, load<i32>(-payload, F_INDEX), 1);
      fill(-payload);
    }
  }
  now = until;
  return <f64>events;
}
