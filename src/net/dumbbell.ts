import type { Simulator } from '../engine/simulator.js';
import { rngStream, type Uniform } from '../engine/rng.js';
import type { Scenario } from '../scenario/types.js';
import { Link } from './link.js';
import { EV_ARRIVE, EV_TX_END } from './events.js';
import { FlowCounters } from './flow-counters.js';
import { VERDICT_DROP, type QdiscContext, type QueueDisc } from './qdisc/types.js';
import { layOutDumbbell, PATH_SLOTS as PATH_SLOTS_COUNT } from './topology.js';
import {
  ACK as ACK_TYPE,
  DATA as DATA_TYPE,
  ECN_CE as ECN_CE_CODEPOINT,
  ECN_FIELD as ECN_FIELD_MASK,
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
  TCP_ECE as TCP_ECE_FLAG,
  sackOptionBytes,
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
const ECN_FIELD: number = ECN_FIELD_MASK;
const ECN_CE: number = ECN_CE_CODEPOINT;
const TCP_ECE: number = TCP_ECE_FLAG;
const PATH_SLOTS: number = PATH_SLOTS_COUNT;

/** Where delivered packets go: the TCP endpoints of each flow. */
export interface Endpoints {
  /** `ecnBits`: the segment's ECN byte (IP ECN field and TCP CWR, src/net/packets.ts). */
  deliverData(flow: number, seq: number, len: number, tsValNs: number, ecnBits: number): void;
  /** `sackBlocks` holds `sackCount` [start, end) pairs and is reused after the call; `ece` the TCP ECN-Echo flag. */
  deliverAck(flow: number, ackNo: number, tsEcrNs: number, rwndBytes: number, sackCount: number, sackBlocks: Float64Array, ece: boolean): void;
}

/**
 * The dumbbell: flow i's data crosses [access_i, bottleneck, receiverAccess_i] (an ideal receiver
 * access link is left out), its ACKs cross the reverse directions in reverse order (the links and
 * paths: src/net/topology.ts). Every direction is a Link with its own queue (the scenario's
 * discipline on the bottleneck's forward direction, drop-tail elsewhere), so ACKs are serialised
 * too. Bernoulli loss sits at the far end of the bottleneck, as ns-3's receive error model: a packet
 * uses the bottleneck, then data packets (and ACKs when direction is 'both') are dropped with
 * probability `loss.rate`. Data draw from the stream 'loss'; ACKs from the same one (`ackStream`
 * 'shared', ns-3's example's one RateErrorModel on both devices) or from their own, 'loss-ack'
 * (`ackStream: own`: the same law, but a data packet's fate no longer depends on how many ACKs
 * crossed before it, so a fluid run reads its seed's data losses exactly: src/fluid/run/lossThresholds.ts).
 */
export class Dumbbell {
  readonly links: Link[] = [];
  readonly pool = new PacketPool(4096);
  readonly counters: FlowCounters[];
  readonly bottleneckForward: number;
  readonly bottleneckReverse: number;
  /** Every path's link ids, PATH_SLOTS a path (DumbbellLayout.pathLinks, src/net/topology.ts). */
  private readonly pathLinks: Int32Array;
  private readonly lossRate: number;
  private readonly lossAcks: boolean;
  private readonly lossDraw: Uniform;
  private readonly ackLossDraw: Uniform;
  private endpoints: Endpoints | null = null;
  /** Simulator channel of each link (its arrivals come in time order). */
  private readonly channelOfList: number[] = [];
  private readonly channelOf: Int32Array;
  /** Per link, the channel of its EV_TX_END events (held-packet disciplines only; -1 otherwise). */
  private readonly txEndChannelOfList: number[] = [];
  private readonly txEndChannelOf: Int32Array;
  private readonly mssBytes: number;
  private readonly headerBytes: number;
  private readonly sackScratch = new Float64Array(SACK_SLOTS);
  /** The queue the run traces: the slowest forward link on flow 0's path (DumbbellLayout.tracedQueueLink). */
  readonly tracedQueueLink: number;
  /** Called for every data segment a queue drops (flow, link id); tests and loss traces. */
  onQueueDrop: ((flow: number, linkId: number) => void) | null = null;
  /** Called after every packet offered to the traced queue (for the queue trace). */
  onTracedQueue: ((queuePackets: number) => void) | null = null;
  /** Called when a packet starts its transmission on the traced queue's link, with its queueing delay. */
  onTracedSojourn: ((flow: number, sojournNs: number) => void) | null = null;

  constructor(
    private readonly sim: Simulator,
    scenario: Scenario,
  ) {
    this.headerBytes = scenario.headerBytes;
    this.mssBytes = scenario.mssBytes;
    const layout = layOutDumbbell(scenario, (...link) => this.addLink(...link));
    this.bottleneckForward = layout.bottleneckForward;
    this.bottleneckReverse = layout.bottleneckReverse;
    this.pathLinks = layout.pathLinks;
    this.tracedQueueLink = layout.tracedQueueLink;
    this.channelOf = Int32Array.from(this.channelOfList);
    this.txEndChannelOf = Int32Array.from(this.txEndChannelOfList);
    const loss = scenario.bottleneck.loss;
    this.lossRate = loss.rate;
    this.lossAcks = loss.direction === 'both';
    this.lossDraw = rngStream(scenario.seed, 'loss');
    this.ackLossDraw = loss.ackStream === 'own' ? rngStream(scenario.seed, 'loss-ack') : this.lossDraw;
    this.counters = scenario.flows.map(() => new FlowCounters());
  }

  /** Name of the traced link (`bottleneck`, `access0`, ...). */
  get tracedQueueName(): string {
    return this.links[this.tracedQueueLink]!.name;
  }

  setEndpoints(endpoints: Endpoints): void {
    this.endpoints = endpoints;
  }

  /** Adds a link whose discipline `makeQdisc` builds; returns its id. */
  private addLink(name: string, bandwidthBps: number, delayNs: number, makeQdisc: (ctx: QdiscContext) => QueueDisc, uniform: Uniform): number {
    const id = this.links.length;
    const ctx: QdiscContext = {
      pool: this.pool,
      bandwidthBps,
      typicalTxNs: Math.max(1, Math.round((this.headerBytes + this.mssBytes) * (8e9 / bandwidthBps))),
      uniform,
      dropHeld: (p) => this.dropAtQueue(p, id),
    };
    const link = new Link(name, bandwidthBps, delayNs, makeQdisc(ctx));
    this.links.push(link);
    this.channelOfList.push(this.sim.createChannel(EV_ARRIVE));
    this.txEndChannelOfList.push(link.holdsPackets ? this.sim.createChannel(EV_TX_END) : -1);
    return id;
  }

  /**
   * A sender puts a data segment on its access link. `ecnBits`: its IP ECN field (ECN_ECT0 from an
   * ECN-capable sender, RFC 3168 §6.1.2) and TCP CWR flag, src/net/packets.ts; 0 = Not-ECT.
   */
  sendData(flow: number, seq: number, len: number, isRetransmission: boolean, ecnBits = 0): void {
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
    this.pool.ecn[p] = ecnBits;
    const c = this.counters[flow]!;
    c.dataBytesInNetwork += len;
    c.dataSegmentsInNetwork++;
    this.forward(p);
  }

  /** A receiver sends an ACK: headers, plus the SACK option's bytes when it carries blocks. */
  sendAck(flow: number, ackNo: number, tsEcrNs: number, rwndBytes: number, sackCount: number, sackBlocks: Float64Array, ece = false): void {
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
    pool.ecn[p] = ece ? TCP_ECE : 0;
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
    if (this.lossRate > 0 && this.lostAtBottleneck(p, hop)) return;
    r[b + F_HOP] = hop + 1;
    this.forward(p);
  }

  /**
   * Random loss at the far end of the bottleneck: draws for p if it just crossed it, and drops it
   * if the draw says so. Out of line: arrivals are ~all events, and V8 inlines the hop path into
   * the simulator loop only while the loop's inlining budget (bytecode size) lasts.
   */
  private lostAtBottleneck(p: number, hop: number): boolean {
    const r = this.pool.rows;
    const b = p * ROW;
    const isData = r[b + F_TYPE] === DATA;
    const linkId = this.pathLinks[(2 * r[b + F_FLOW]! + (isData ? 0 : 1)) * PATH_SLOTS + hop]!;
    if ((linkId === this.bottleneckForward || linkId === this.bottleneckReverse) && (isData ? this.lossDraw() : this.lossAcks ? this.ackLossDraw() : 1) < this.lossRate) {
      this.drop(p, false);
      return true;
    }
    return false;
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
    if (link.holdsPackets) {
      this.offerHeld(linkId, link, p);
      return;
    }
    const now = this.sim.nowNs;
    const inNs = link.admit(now, r[b + F_WIRE_BYTES]!, p);
    if (linkId === this.tracedQueueLink) this.traceFifo(link, flow, inNs >= 0);
    if (inNs < 0) {
      this.dropAtQueue(p, linkId);
      return;
    }
    this.sim.scheduleOnChannelAfter(this.channelOf[linkId]!, inNs, p);
  }

  /** The traced FIFO queue just after a packet was offered: its length, and the packet's wait if admitted. */
  private traceFifo(link: Link, flow: number, admitted: boolean): void {
    if (this.onTracedQueue !== null) this.onTracedQueue(link.waitingAfterAdmit);
    if (admitted && this.onTracedSojourn !== null) this.onTracedSojourn(flow, link.lastWaitNs);
  }

  /** A discipline that holds packets: enqueue, and start a transmission if the transmitter is idle. */
  private offerHeld(linkId: number, link: Link, p: number): void {
    const now = this.sim.nowNs;
    link.offered++;
    if (link.qdisc.enqueue(p, now, 0, link.freeAtNs) === VERDICT_DROP) this.dropAtQueue(p, linkId);
    else if (!link.transmitting) this.transmitNext(linkId, link, now);
    if (linkId === this.tracedQueueLink && this.onTracedQueue !== null) this.onTracedQueue(link.queueLength(now));
  }

  /** EV_TX_END: the held-packet link `linkId` finished serialising; the discipline picks the next packet. */
  onTxEnd(linkId: number): void {
    const link = this.links[linkId]!;
    const now = this.sim.nowNs;
    link.transmitting = false;
    this.transmitNext(linkId, link, now);
    if (linkId === this.tracedQueueLink && this.onTracedQueue !== null) this.onTracedQueue(link.queueLength(now));
  }

  /** Dequeues (the discipline may drop at the head first) and serialises one packet, if any is left. */
  private transmitNext(linkId: number, link: Link, now: number): void {
    const p = link.qdisc.dequeue!(now); // held disciplines only (the link's dequeue path)
    if (p < 0) return;
    link.sent++;
    if (linkId === this.tracedQueueLink && this.onTracedSojourn !== null) {
      this.onTracedSojourn(this.pool.rows[p * ROW + F_FLOW]!, link.qdisc.lastSojournNs!);
    }
    const txNs = link.txNs(this.pool.rows[p * ROW + F_WIRE_BYTES]!);
    link.freeAtNs = now + txNs;
    link.transmitting = true;
    this.sim.scheduleOnChannelAfter(this.channelOf[linkId]!, txNs + link.delayNs, p);
    this.sim.scheduleOnChannelAfter(this.txEndChannelOf[linkId]!, txNs, linkId);
  }

  /** A queue dropped packet p (at enqueue, or a held one at dequeue or to make room). */
  private dropAtQueue(p: number, linkId: number): void {
    this.links[linkId]!.dropped++;
    const r = this.pool.rows;
    const b = p * ROW;
    if (r[b + F_TYPE] === DATA && this.onQueueDrop !== null) this.onQueueDrop(r[b + F_FLOW]!, linkId);
    this.drop(p, true);
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
      const bits = pool.ecn[p]!;
      if ((bits & ECN_FIELD) === ECN_CE) c.ceDeliveredSegments++;
      pool.release(p);
      ep.deliverData(flow, seq, len, ts, bits);
    } else {
      const rwnd = r[b + F_PAYLOAD_OR_RWND]!;
      const n = r[b + F_RETX_OR_SACKS]!;
      const blocks = this.sackScratch;
      const sack = pool.sack;
      const base = p * SACK_SLOTS;
      for (let i = 0; i < 2 * n; i++) blocks[i] = sack[base + i]!;
      const ece = (pool.ecn[p]! & TCP_ECE) !== 0;
      pool.release(p);
      ep.deliverAck(flow, seq, ts, rwnd, n, blocks, ece);
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
      if ((pool.ecn[p]! & ECN_FIELD) === ECN_CE) c.ceDroppedSegments++;
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

