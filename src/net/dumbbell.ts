import type { Simulator } from '../engine/simulator.js';
import { rngStream, type Uniform } from '../engine/rng.js';
import { flowPath } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import { secondsToNs } from '../units.js';
import { Link } from './link.js';
import { EV_ARRIVE } from '../packet/events.js';
import { sackOptionBytes } from '../tcp/sack-blocks.js';
import {
  ACK as ACK_TYPE,
  DATA as DATA_TYPE,
  F_FLOW as F_FLOW_SLOT,
  F_HOP as F_HOP_SLOT,
  F_PAYLOAD_OR_RWND as F_PAYLOAD_OR_RWND_SLOT,
  F_RETX_OR_SACKS as F_RETX_OR_SACKS_SLOT,
  F_SEQ as F_SEQ_SLOT,
  F_TS_NS as F_TS_NS_SLOT,
  F_TYPE as F_TYPE_SLOT,
  F_WIRE_BYTES as F_WIRE_BYTES_SLOT,
  PacketPool,
  ROW_SLOTS,
  SACK_SLOTS,
} from './packets.js';

// Module-local copies: imported bindings are read through accessor functions under tsx/vite, which
// costs a call per use on the hot path; these are read once at load.
const DATA: number = DATA_TYPE;
const ACK: number = ACK_TYPE;
const ROW: number = ROW_SLOTS;
const F_FLOW: number = F_FLOW_SLOT;
const F_HOP: number = F_HOP_SLOT;
const F_PAYLOAD_OR_RWND: number = F_PAYLOAD_OR_RWND_SLOT;
const F_RETX_OR_SACKS: number = F_RETX_OR_SACKS_SLOT;
const F_SEQ: number = F_SEQ_SLOT;
const F_TS_NS: number = F_TS_NS_SLOT;
const F_TYPE: number = F_TYPE_SLOT;
const F_WIRE_BYTES: number = F_WIRE_BYTES_SLOT;
/** Slots per path in Dumbbell.pathLinks: at most 3 links (access, bottleneck, receiver access) and the -1 end. */
const PATH_SLOTS = 4;

/** Where delivered packets go: the TCP endpoints of each flow. */
export interface Endpoints {
  deliverData(flow: number, seq: number, len: number, tsValNs: number): void;
  /** `sackBlocks` holds `sackCount` [start, end) pairs and is reused after the call. */
  deliverAck(flow: number, ackNo: number, tsEcrNs: number, rwndBytes: number, sackCount: number, sackBlocks: Float64Array): void;
}

/** Per-flow data-packet accounting (for the conservation check and loss rates). */
export class FlowCounters {
  dataBytesInNetwork = 0;
  dataSegmentsInNetwork = 0;
  queueDropSegments = 0;
  queueDropBytes = 0;
  randomDropSegments = 0;
  randomDropBytes = 0;
  ackQueueDrops = 0;
  ackRandomDrops = 0;
}

/**
 * The dumbbell: flow i's data crosses [access_i, bottleneck, receiverAccess_i] (an ideal receiver
 * access link is left out), its ACKs cross the reverse directions in reverse order. Every direction
 * is a Link with its own FIFO queue (drop-tail, or RED on the bottleneck's forward direction), so
 * ACKs are serialised too. Bernoulli loss sits at the far end of the bottleneck, as ns-3's receive
 * error model: a packet uses the bottleneck, then data packets (and ACKs when direction is 'both')
 * are dropped with probability `loss.rate`.
 */
export class Dumbbell {
  readonly links: Link[] = [];
  readonly pool = new PacketPool(4096);
  readonly counters: FlowCounters[];
  readonly bottleneckForward: number;
  readonly bottleneckReverse: number;
  /**
   * Every path in one array: path 2i (flow i's data) and 2i + 1 (its ACKs) are the link ids at
   * PATH_SLOTS * path, ended by -1. One array instead of one per path: a hop reads a slot of it
   * instead of a path object, its header and then its elements (3 cache lines with 1000 flows).
   */
  private readonly pathLinks: Int32Array;
  private readonly lossRate: number;
  private readonly lossAcks: boolean;
  private readonly lossDraw: Uniform;
  private endpoints: Endpoints | null = null;
  /** Simulator channel of each link (its arrivals come in time order). */
  private readonly channelOfList: number[] = [];
  private readonly channelOf: Int32Array;
  private readonly headerBytes: number;
  private readonly sackScratch = new Float64Array(SACK_SLOTS);
  /**
   * The queue the run traces: the slowest forward link on flow 0's path, where packets wait. That is
   * the bottleneck link unless an access link is slower (as on the ns-3 presets `normal` and `lfn`,
   * whose 10 Mbit/s access link is the real bottleneck); ties go to the bottleneck.
   */
  readonly tracedQueueLink: number;
  /** Called for every data segment a queue drops (flow, link id); tests and loss traces. */
  onQueueDrop: ((flow: number, linkId: number) => void) | null = null;
  /** Called after every packet offered to the traced queue (for the queue trace). */
  onTracedQueue: ((queuePackets: number) => void) | null = null;

  constructor(
    private readonly sim: Simulator,
    scenario: Scenario,
  ) {
    this.headerBytes = scenario.headerBytes;
    const full = scenario.mssBytes + scenario.headerBytes;
    const b = scenario.bottleneck;
    const ns = secondsToNs;
    const redRng = rngStream(scenario.seed, 'red');
    const q = b.queue;
    const red = q.kind === 'red' ? q : null;
    this.bottleneckForward = this.addLink(new Link('bottleneck', b.bandwidthBps, ns(b.delayS), q.limitPackets, red, full, redRng));
    this.bottleneckReverse = this.addLink(new Link('bottleneck-reverse', b.bandwidthBps, ns(b.delayS), q.limitPackets, null, full, redRng));
    this.lossRate = b.loss.rate;
    this.lossAcks = b.loss.direction === 'both';
    this.lossDraw = rngStream(scenario.seed, 'loss');
    this.counters = scenario.flows.map(() => new FlowCounters());
    const paths: number[][] = [];
    scenario.flows.forEach((f, i) => {
      const a = f.access;
      const upFwd = this.addLink(new Link(`access${i}`, a.bandwidthBps, ns(a.delayS), a.queuePackets, null, full, redRng));
      const upRev = this.addLink(new Link(`access${i}-reverse`, a.bandwidthBps, ns(a.delayS), a.queuePackets, null, full, redRng));
      const fwd = [upFwd, this.bottleneckForward];
      const rev = [this.bottleneckReverse, upRev];
      const r = f.receiverAccess;
      if (r !== null) {
        fwd.push(this.addLink(new Link(`receiver${i}`, r.bandwidthBps, ns(r.delayS), r.queuePackets, null, full, redRng)));
        rev.unshift(this.addLink(new Link(`receiver${i}-reverse`, r.bandwidthBps, ns(r.delayS), r.queuePackets, null, full, redRng)));
      }
      paths.push(fwd, rev);
    });
    this.pathLinks = new Int32Array(PATH_SLOTS * paths.length).fill(-1);
    paths.forEach((path, k) => this.pathLinks.set(path, PATH_SLOTS * k));
    this.channelOf = Int32Array.from(this.channelOfList);
    // Flow 0's forward path lists its links in the order of src/scenario/path.ts.
    this.tracedQueueLink = paths[0]![flowPath(scenario, 0).tightestIndex]!;
  }

  /** Name of the traced link (`bottleneck`, `access0`, ...). */
  get tracedQueueName(): string {
    return this.links[this.tracedQueueLink]!.name;
  }

  setEndpoints(endpoints: Endpoints): void {
    this.endpoints = endpoints;
  }

  private addLink(link: Link): number {
    this.links.push(link);
    this.channelOfList.push(this.sim.createChannel(EV_ARRIVE));
    return this.links.length - 1;
  }

  /** A sender puts a data segment on its access link. */
  sendData(flow: number, seq: number, len: number, isRetransmission: boolean): void {
    const p = this.pool.alloc();
    const r = this.pool.rows;
    const b = p * ROW;
    r[b + F_TYPE] = DATA;
    r[b + F_FLOW] = flow;
    r[b + F_HOP] = 0;
    r[b + F_SEQ] = seq;
    r[b + F_WIRE_BYTES] = len + this.headerBytes;
    r[b + F_TS_NS] = this.sim.nowNs;
    r[b + F_PAYLOAD_OR_RWND] = len;
    r[b + F_RETX_OR_SACKS] = isRetransmission ? 1 : 0;
    const c = this.counters[flow]!;
    c.dataBytesInNetwork += len;
    c.dataSegmentsInNetwork++;
    this.forward(p);
  }

  /** A receiver sends an ACK: headers, plus the SACK option's bytes when it carries blocks. */
  sendAck(flow: number, ackNo: number, tsEcrNs: number, rwndBytes: number, sackCount: number, sackBlocks: Float64Array): void {
    const pool = this.pool;
    const p = pool.alloc();
    const r = pool.rows;
    const b = p * ROW;
    r[b + F_TYPE] = ACK;
    r[b + F_FLOW] = flow;
    r[b + F_HOP] = 0;
    r[b + F_SEQ] = ackNo;
    r[b + F_WIRE_BYTES] = this.headerBytes + sackOptionBytes(sackCount);
    r[b + F_TS_NS] = tsEcrNs;
    r[b + F_PAYLOAD_OR_RWND] = rwndBytes;
    r[b + F_RETX_OR_SACKS] = sackCount;
    if (sackCount > 0) {
      const sack = pool.sack;
      const base = p * SACK_SLOTS;
      for (let i = 0; i < 2 * sackCount; i++) sack[base + i] = sackBlocks[i]!;
    }
    this.forward(p);
  }

  /** EV_ARRIVE: packet p reached the far end of the link at its current hop. */
  onArrive(p: number): void {
    const r = this.pool.rows;
    const b = p * ROW;
    const hop = r[b + F_HOP]!;
    if (this.lossRate > 0) {
      const isData = r[b + F_TYPE] === DATA;
      const linkId = this.pathLinks[(2 * r[b + F_FLOW]! + (isData ? 0 : 1)) * PATH_SLOTS + hop]!;
      if ((linkId === this.bottleneckForward || linkId === this.bottleneckReverse) && (isData || this.lossAcks) && this.lossDraw() < this.lossRate) {
        this.drop(p, false);
        return;
      }
    }
    r[b + F_HOP] = hop + 1;
    this.forward(p);
  }

  /** Offers p to the link at its hop, or delivers it if the path is done. */
  private forward(p: number): void {
    const r = this.pool.rows;
    const b = p * ROW;
    const isData = r[b + F_TYPE] === DATA;
    const flow = r[b + F_FLOW]!;
    const path = (2 * flow + (isData ? 0 : 1)) * PATH_SLOTS;
    const hop = r[b + F_HOP]!;
    const linkId = this.pathLinks[path + hop]!;
    if (linkId < 0) {
      this.deliver(p, isData, flow);
      return;
    }
    const link = this.links[linkId]!;
    const now = this.sim.nowNs;
    const at = link.admit(now, r[b + F_WIRE_BYTES]!);
    if (linkId === this.tracedQueueLink && this.onTracedQueue !== null) {
      this.onTracedQueue(link.queueLength(now));
    }
    if (at < 0) {
      if (isData && this.onQueueDrop !== null) this.onQueueDrop(flow, linkId);
      this.drop(p, true);
      return;
    }
    this.sim.scheduleOnChannel(this.channelOf[linkId]!, at, p);
  }

  private deliver(p: number, isData: boolean, flow: number): void {
    const pool = this.pool;
    const ep = this.endpoints!;
    const r = pool.rows;
    const b = p * ROW;
    const seq = r[b + F_SEQ]!;
    const ts = r[b + F_TS_NS]!;
    if (isData) {
      const len = r[b + F_PAYLOAD_OR_RWND]!;
      const c = this.counters[flow]!;
      c.dataBytesInNetwork -= len;
      c.dataSegmentsInNetwork--;
      pool.release(p);
      ep.deliverData(flow, seq, len, ts);
    } else {
      const rwnd = r[b + F_PAYLOAD_OR_RWND]!;
      const n = r[b + F_RETX_OR_SACKS]!;
      const blocks = this.sackScratch;
      const sack = pool.sack;
      const base = p * SACK_SLOTS;
      for (let i = 0; i < 2 * n; i++) blocks[i] = sack[base + i]!;
      pool.release(p);
      ep.deliverAck(flow, seq, ts, rwnd, n, blocks);
    }
  }

  private drop(p: number, byQueue: boolean): void {
    const pool = this.pool;
    const b = p * ROW;
    const c = this.counters[pool.rows[b + F_FLOW]!]!;
    if (pool.rows[b + F_TYPE] === DATA) {
      const len = pool.rows[b + F_PAYLOAD_OR_RWND]!;
      c.dataBytesInNetwork -= len;
      c.dataSegmentsInNetwork--;
      if (byQueue) {
        c.queueDropSegments++;
        c.queueDropBytes += len;
      } else {
        c.randomDropSegments++;
        c.randomDropBytes += len;
      }
    } else if (byQueue) {
      c.ackQueueDrops++;
    } else {
      c.ackRandomDrops++;
    }
    pool.release(p);
  }
}

