import type { Simulator } from '../engine/simulator.js';
import { rngStream, type Uniform } from '../engine/rng.js';
import { flowPath } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import { secondsToNs } from '../units.js';
import { Link } from './link.js';
import { EV_ARRIVE } from '../packet/events.js';
import { sackOptionBytes } from '../tcp/sack-blocks.js';
import { ACK as ACK_TYPE, DATA as DATA_TYPE, PacketPool, SACK_SLOTS } from './packets.js';

// Module-local copies: imported bindings are read through accessor functions under tsx/vite, which
// costs a call per use on the hot path; these are read once at load.
const DATA: number = DATA_TYPE;
const ACK: number = ACK_TYPE;

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
  private readonly paths: Int32Array[] = [];
  private readonly lossRate: number;
  private readonly lossAcks: boolean;
  private readonly lossDraw: Uniform;
  private endpoints: Endpoints | null = null;
  /** Simulator channel of each link (its arrivals come in time order). */
  private readonly channelOf: number[] = [];
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
      this.paths[2 * i] = Int32Array.from(fwd);
      this.paths[2 * i + 1] = Int32Array.from(rev);
    });
    // Flow 0's forward path lists its links in the order of src/scenario/path.ts.
    this.tracedQueueLink = this.paths[0]![flowPath(scenario, 0).tightestIndex]!;
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
    this.channelOf.push(this.sim.createChannel(EV_ARRIVE));
    return this.links.length - 1;
  }

  /** A sender puts a data segment on its access link. */
  sendData(flow: number, seq: number, len: number, isRetransmission: boolean): void {
    const pool = this.pool;
    const p = pool.alloc();
    pool.type[p] = DATA;
    pool.flow[p] = flow;
    pool.hop[p] = 0;
    pool.seq[p] = seq;
    pool.payloadBytes[p] = len;
    pool.wireBytes[p] = len + this.headerBytes;
    pool.tsValNs[p] = this.sim.nowNs;
    pool.retx[p] = isRetransmission ? 1 : 0;
    const c = this.counters[flow]!;
    c.dataBytesInNetwork += len;
    c.dataSegmentsInNetwork++;
    this.forward(p);
  }

  /** A receiver sends an ACK: headers, plus the SACK option's bytes when it carries blocks. */
  sendAck(flow: number, ackNo: number, tsEcrNs: number, rwndBytes: number, sackCount: number, sackBlocks: Float64Array): void {
    const pool = this.pool;
    const p = pool.alloc();
    pool.type[p] = ACK;
    pool.flow[p] = flow;
    pool.hop[p] = 0;
    pool.seq[p] = ackNo;
    pool.payloadBytes[p] = 0;
    pool.wireBytes[p] = this.headerBytes + sackOptionBytes(sackCount);
    pool.tsEcrNs[p] = tsEcrNs;
    pool.rwndBytes[p] = rwndBytes;
    pool.sackCount[p] = sackCount;
    const base = p * SACK_SLOTS;
    for (let i = 0; i < 2 * sackCount; i++) pool.sack[base + i] = sackBlocks[i]!;
    this.forward(p);
  }

  /** EV_ARRIVE: packet p reached the far end of the link at its current hop. */
  onArrive(p: number): void {
    const pool = this.pool;
    const isData = pool.type[p] === DATA;
    const path = this.paths[2 * pool.flow[p]! + (isData ? 0 : 1)]!;
    const linkId = path[pool.hop[p]!]!;
    if (this.lossRate > 0 && (linkId === this.bottleneckForward || linkId === this.bottleneckReverse)) {
      if ((isData || this.lossAcks) && this.lossDraw() < this.lossRate) {
        this.drop(p, false);
        return;
      }
    }
    pool.hop[p]!++;
    this.forward(p);
  }

  /** Offers p to the link at its hop, or delivers it if the path is done. */
  private forward(p: number): void {
    const pool = this.pool;
    const isData = pool.type[p] === DATA;
    const flow = pool.flow[p]!;
    const path = this.paths[2 * flow + (isData ? 0 : 1)]!;
    const hop = pool.hop[p]!;
    if (hop >= path.length) {
      this.deliver(p, isData, flow);
      return;
    }
    const linkId = path[hop]!;
    const link = this.links[linkId]!;
    const now = this.sim.nowNs;
    const at = link.admit(now, pool.wireBytes[p]!);
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
    if (isData) {
      const len = pool.payloadBytes[p]!;
      const seq = pool.seq[p]!;
      const ts = pool.tsValNs[p]!;
      const c = this.counters[flow]!;
      c.dataBytesInNetwork -= len;
      c.dataSegmentsInNetwork--;
      pool.release(p);
      ep.deliverData(flow, seq, len, ts);
    } else {
      const ackNo = pool.seq[p]!;
      const ts = pool.tsEcrNs[p]!;
      const rwnd = pool.rwndBytes[p]!;
      const n = pool.sackCount[p]!;
      const blocks = this.sackScratch;
      const base = p * SACK_SLOTS;
      for (let i = 0; i < 2 * n; i++) blocks[i] = pool.sack[base + i]!;
      pool.release(p);
      ep.deliverAck(flow, ackNo, ts, rwnd, n, blocks);
    }
  }

  private drop(p: number, byQueue: boolean): void {
    const pool = this.pool;
    const c = this.counters[pool.flow[p]!]!;
    if (pool.type[p] === DATA) {
      const len = pool.payloadBytes[p]!;
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

