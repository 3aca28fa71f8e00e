import { F_FLOW as F_FLOW_SLOT, F_WIRE_BYTES as F_WIRE_BYTES_SLOT, ROW_SLOTS } from '../packets.js';
import { checkCodelTimes, CODEL_PARAMS, codelParams, CodelStep, CodelVars, type CodelHost } from './codel.js';
import { REASON_OVERLIMIT } from './droptail.js';
import { PacketFifo } from './fifo.js';
import { QdiscStats, VERDICT_ADMIT, type QdiscContext, type QdiscParams, type QueueDisc, type QueueDiscFactory } from './types.js';

/**
 * FQ-CoDel (RFC 8290; Linux net/sched/sch_fq_codel.c; ns-3 FqCoDelQueueDisc): packets are classified
 * into per-flow queues, served by deficit round robin with a quantum of bytes, with the DRR++
 * preference for flows that were idle (the new-flows list is served before the old-flows list), and
 * CoDel runs on each queue at dequeue.
 *
 * Where the peers differ and what cclab follows:
 * - Classification: RFC 8290 §4.1.1 hashes the 5-tuple into `flows` buckets (Linux and ns-3: 1024,
 *   with a perturbation so collisions change). cclab's flows are numbered, so flow i goes to queue
 *   i mod `flows`: no collisions while there are at most `flows` flows, the modulo beyond.
 * - Overlimit: RFC 8290 §4.1 drops from the head of the queue with the most bytes; Linux and ns-3
 *   drop a batch (up to half that queue's bytes, at most 64 packets: drop_batch_size) at once to
 *   spend less time there. cclab drops one packet per packet over the limit (the RFC's rule).
 * - CoDel's MAXPACKET test reads the whole discipline's backlog, as Linux's fq_codel passes
 *   sch->qstats.backlog to codel_dequeue; ns-3's per-flow CoDel children read their own queue's.
 * - ECN on by default, as Linux's fq_codel and ns-3's FqCoDelQueueDisc (UseEcn true).
 */

// Module-local copies of the header layout (imported bindings cost a call per read under tsx).
const ROW: number = ROW_SLOTS;
const F_FLOW: number = F_FLOW_SLOT;
const F_WIRE_BYTES: number = F_WIRE_BYTES_SLOT;

const LIST_NONE = 0;
const LIST_NEW = 1;
const LIST_OLD = 2;

const DROP_OVERLIMIT = 0;
const DROP_CODEL = 1;

/** One flow queue: its packets, DRR deficit, CoDel state and list links. */
class FlowQueue {
  readonly q = new PacketFifo();
  readonly vars = new CodelVars();
  deficit = 0;
  /** Which list it is on (LIST_*). */
  list = LIST_NONE;
  /** Next queue on its list, or null. */
  next: FlowQueue | null = null;
}

/** A singly linked list of flow queues with head and tail (DRR++ only pops the head and appends). */
class FlowList {
  head: FlowQueue | null = null;
  tail: FlowQueue | null = null;

  push(f: FlowQueue, list: number): void {
    f.list = list;
    f.next = null;
    if (this.tail === null) this.head = f;
    else this.tail.next = f;
    this.tail = f;
  }

  shift(): FlowQueue {
    const f = this.head!;
    this.head = f.next;
    if (this.head === null) this.tail = null;
    f.next = null;
    f.list = LIST_NONE;
    return f;
  }
}

export class FqCodelQueueDisc implements QueueDisc, CodelHost {
  readonly kind = 'fq_codel';
  readonly holdsPackets = true;
  readonly stats = new QdiscStats(fqCodel.dropReasons, fqCodel.markReasons);
  /** Packets held, all queues. */
  backlogPackets = 0;
  /** Bytes held, all queues. */
  private heldTotalBytes = 0;
  /** Per-bucket queues, made on their first packet. */
  private readonly queues: (FlowQueue | null)[];
  /** One past the highest bucket that has a queue: the overlimit scan stops there (100 flows: 100 of 1024 buckets). */
  private bucketsInUse = 0;
  private readonly newFlows = new FlowList();
  private readonly oldFlows = new FlowList();
  private readonly step: CodelStep;
  private readonly quantumBytes: number;

  constructor(
    private readonly limitPackets: number,
    params: QdiscParams,
    private readonly ctx: QdiscContext,
  ) {
    this.queues = new Array<FlowQueue | null>(params.flows as number).fill(null);
    this.quantumBytes = params.quantumBytes as number;
    this.step = new CodelStep(codelParams(params), ctx, this.stats, DROP_CODEL, 0);
  }

  /** Sojourn time of the packet the last dequeue returned (ns). */
  get lastSojournNs(): number {
    return this.step.lastSojournNs;
  }

  /** Bucket of flow `flow` (see the module comment). */
  bucketOf(flow: number): number {
    return flow % this.queues.length;
  }

  /** The queue of a bucket (null before its first packet): tests read deficits and lists. */
  queueOf(bucket: number): { readonly deficit: number; readonly list: number; readonly length: number; readonly vars: CodelVars } | null {
    const f = this.queues[bucket];
    return f ? { deficit: f.deficit, list: f.list, length: f.q.length, vars: f.vars } : null;
  }

  enqueue(packet: number, nowNs: number): number {
    const rows = this.ctx.pool.rows;
    const b = this.bucketOf(rows[packet * ROW + F_FLOW]!);
    let f = this.queues[b];
    if (!f) {
      this.queues[b] = f = new FlowQueue();
      if (b >= this.bucketsInUse) this.bucketsInUse = b + 1;
    }
    const bytes = rows[packet * ROW + F_WIRE_BYTES]!;
    f.q.push(packet, nowNs, bytes);
    this.backlogPackets++;
    this.heldTotalBytes += bytes;
    // RFC 8290 §4.1: a queue that was on no list joins the new flows with a full quantum.
    if (f.list === LIST_NONE) {
      f.deficit = this.quantumBytes;
      this.newFlows.push(f, LIST_NEW);
    }
    if (this.backlogPackets > this.limitPackets) this.dropFromFattest();
    return VERDICT_ADMIT;
  }

  /** RFC 8290 §4.1: over the limit, drop the head packet of the queue holding the most bytes. */
  private dropFromFattest(): void {
    let fattest: FlowQueue | null = null;
    const queues = this.queues;
    for (let b = 0; b < this.bucketsInUse; b++) {
      const f = queues[b]!;
      if (f !== null && (fattest === null || f.q.bytes > fattest.q.bytes)) fattest = f;
    }
    const p = this.take(fattest!.q);
    this.stats.drops[DROP_OVERLIMIT]!++;
    this.ctx.dropHeld(p);
  }

  /** RFC 8290 §4.2: DRR++ over the new, then the old flows; CoDel on the chosen queue. */
  dequeue(nowNs: number): number {
    for (;;) {
      const fromNew = this.newFlows.head !== null;
      const list = fromNew ? this.newFlows : this.oldFlows;
      const f = list.head;
      if (f === null) return -1;
      if (f.deficit <= 0) {
        // Quantum used up: a new quantum and to the end of the old flows.
        f.deficit += this.quantumBytes;
        this.oldFlows.push(list.shift(), LIST_OLD);
        continue;
      }
      const p = this.step.dequeue(f.q, f.vars, this, nowNs);
      if (p < 0) {
        // Empty: a new flow goes to the old list if that list has flows (so that a flow cannot stay
        // "new" by emptying and refilling: RFC 8290 §4.2), otherwise it leaves the lists.
        list.shift();
        if (fromNew && this.oldFlows.head !== null) this.oldFlows.push(f, LIST_OLD);
        continue;
      }
      f.deficit -= this.ctx.pool.rows[p * ROW + F_WIRE_BYTES]!;
      return p;
    }
  }

  take(q: PacketFifo): number {
    const before = q.bytes;
    const p = q.shift();
    this.heldTotalBytes -= before - q.bytes;
    this.backlogPackets--;
    return p;
  }

  heldBytes(): number {
    return this.heldTotalBytes;
  }

  dropTaken(p: number): void {
    this.ctx.dropHeld(p);
  }
}

export const fqCodel: QueueDiscFactory = {
  kind: 'fq_codel',
  title: 'FQ-CoDel, flow queueing with CoDel (RFC 8290)',
  holdsPackets: true,
  params: [
    ...CODEL_PARAMS,
    { name: 'flows', doc: 'flow queues; flow i uses queue i mod flows (RFC 8290 / Linux default 1024)', unit: 'count', default: 1024, min: 1, max: 65536, integer: true },
    { name: 'quantumBytes', doc: 'DRR quantum, bytes a queue may send per round (RFC 8290: 1514, one Ethernet MTU)', unit: 'bytes', default: 1514, min: 64, max: 1e6, integer: true },
    { name: 'ecn', doc: 'mark ECN-capable packets CE instead of dropping them (Linux fq_codel and ns-3 default: on)', unit: 'flag', default: true, boolean: true },
  ],
  dropReasons: [REASON_OVERLIMIT, 'target exceeded'],
  markReasons: ['target exceeded'],
  check: checkCodelTimes,
  create: (limitPackets, params, ctx) => new FqCodelQueueDisc(limitPackets, params, ctx),
};
