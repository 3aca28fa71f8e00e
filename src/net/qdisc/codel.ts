import { F_WIRE_BYTES as F_WIRE_BYTES_SLOT, markCe, ROW_SLOTS } from '../packets.js';
import { REASON_OVERLIMIT } from './droptail.js';
import { PacketFifo } from './fifo.js';
import { QdiscStats, VERDICT_ADMIT, VERDICT_DROP, type QdiscContext, type QdiscParams, type QdiscParamSpec, type QueueDisc, type QueueDiscFactory } from './types.js';

/**
 * CoDel, Controlled Delay (RFC 8289; Linux include/net/codel_impl.h; ns-3 CoDelQueueDisc), as the
 * RFC's pseudocode (§5.4-5.6) writes it: the sojourn time of each dequeued packet is compared with
 * TARGET; once it has stayed above for INTERVAL, CoDel enters the dropping state and drops at the
 * head at times spaced by the control law interval / sqrt(count).
 *
 * Where the peers differ and what cclab follows:
 * - The control law: the RFC writes t + interval / sqrt(count); Linux and ns-3 (a port of Linux)
 *   compute 1/sqrt(count) by a Newton step on a 16-bit fixed-point reciprocal and keep time in
 *   1024-ns units, so their drop times are within ~0.1% of the RFC's. cclab computes the RFC's
 *   expression in double precision on integer-ns time.
 * - Re-entering the dropping state: the RFC's count = count - lastcount when that is above 1 and the
 *   last drop_next is less than 16 intervals ago (else 1); Linux and ns-3 do the same (ns-3 compares
 *   with 16 intervals as well). cclab follows the RFC.
 * - ECN (RFC 8289 §5 leaves "drop or mark" to the implementation): as Linux's codel_dequeue, an
 *   ECN-capable packet due for a drop is marked CE and sent instead, and the schedule moves on to the
 *   next drop time; a Not-ECT packet is dropped. ns-3's UseEcn does the same.
 * - MAXPACKET: no drop while the queue holds at most one MTU of bytes after the dequeue (RFC 8289
 *   §5.4 bytes() <= MAXPACKET; Linux params->mtu; ns-3 MinBytes, 1500 B default).
 */

// Module-local copies of the header layout (imported bindings cost a call per read under tsx).
const ROW: number = ROW_SLOTS;
const F_WIRE_BYTES: number = F_WIRE_BYTES_SLOT;

/** Parameters in engine units. */
export interface CodelParams {
  targetNs: number;
  intervalNs: number;
  mtuBytes: number;
  ecn: boolean;
}

/** RFC 8289's per-queue state (Linux struct codel_vars). */
export class CodelVars {
  /** Drops (and marks) since entering the dropping state, the control law's count. */
  count = 0;
  /** count when the last dropping state was entered (the hysteresis of §5.6). */
  lastCount = 0;
  dropping = false;
  /** When the sojourn time will have been above target for an interval (0 = not above). */
  firstAboveTimeNs = 0;
  /** Next scheduled drop while dropping. */
  dropNextNs = 0;
}

/** What the CoDel step needs from the discipline that holds the queue. */
export interface CodelHost {
  /** Removes q's head packet (the host keeps its totals) and returns its id. */
  take(q: PacketFifo): number;
  /** Bytes the discipline holds now (after a take): RFC 8289's bytes(). */
  heldBytes(q: PacketFifo): number;
  /** Drops a held packet that CoDel decided to drop. */
  dropTaken(p: number): void;
}

/** The control law (RFC 8289 §5.5): the next drop time, interval / sqrt(count) after t. */
export function controlLaw(tNs: number, intervalNs: number, count: number): number {
  return tNs + intervalNs / Math.sqrt(count);
}

/**
 * CoDel's dequeue over one queue (RFC 8289 §5.6 dequeue(), with §5.5 dodequeue() inlined as
 * {@link CodelStep.doDequeue}). One instance per discipline; the state lives in the CodelVars passed
 * in, so FQ-CoDel runs it over each flow's queue (Linux's codel_dequeue with callbacks).
 */
export class CodelStep {
  /** Sojourn time of the packet the last {@link dequeue} returned (ns). */
  lastSojournNs = 0;
  private okToDrop = false;

  constructor(
    readonly params: CodelParams,
    private readonly ctx: QdiscContext,
    private readonly stats: QdiscStats,
    private readonly dropReason: number,
    private readonly markReason: number,
  ) {}

  /** §5.5: takes the head packet (or -1) and says whether CoDel may drop it (this.okToDrop). */
  private doDequeue(q: PacketFifo, v: CodelVars, host: CodelHost, nowNs: number): number {
    if (q.length === 0) {
      v.firstAboveTimeNs = 0;
      this.okToDrop = false;
      return -1;
    }
    const sojournNs = nowNs - q.headEnqueuedAtNs();
    const p = host.take(q);
    this.lastSojournNs = sojournNs;
    this.okToDrop = false;
    if (sojournNs < this.params.targetNs || host.heldBytes(q) <= this.params.mtuBytes) {
      v.firstAboveTimeNs = 0;
    } else if (v.firstAboveTimeNs === 0) {
      v.firstAboveTimeNs = nowNs + this.params.intervalNs;
    } else if (nowNs >= v.firstAboveTimeNs) {
      this.okToDrop = true;
    }
    return p;
  }

  /** Marks p CE when ECN is on and p is ECN-capable (counted); false = it must be dropped. */
  private mark(p: number): boolean {
    if (!this.params.ecn || !markCe(this.ctx.pool, p)) return false;
    this.stats.marks[this.markReason]!++;
    return true;
  }

  private drop(p: number, host: CodelHost): void {
    this.stats.drops[this.dropReason]!++;
    host.dropTaken(p);
  }

  /** §5.6: the next packet to send from q at nowNs, or -1; drops (or marks) per the state machine. */
  dequeue(q: PacketFifo, v: CodelVars, host: CodelHost, nowNs: number): number {
    const interval = this.params.intervalNs;
    let p = this.doDequeue(q, v, host, nowNs);
    if (v.dropping) {
      if (!this.okToDrop) {
        // Sojourn back under target (or the queue nearly empty): leave the dropping state.
        v.dropping = false;
      }
      while (v.dropping && nowNs >= v.dropNextNs) {
        if (this.mark(p)) {
          // Linux codel_dequeue: a marked packet is sent; the next drop time follows the law.
          v.count++;
          v.dropNextNs = controlLaw(v.dropNextNs, interval, v.count);
          return p;
        }
        this.drop(p, host);
        v.count++;
        p = this.doDequeue(q, v, host, nowNs);
        if (!this.okToDrop) v.dropping = false;
        else v.dropNextNs = controlLaw(v.dropNextNs, interval, v.count);
      }
    } else if (this.okToDrop) {
      // Entering the dropping state: drop (or mark) this packet, then send the next.
      if (!this.mark(p)) {
        this.drop(p, host);
        p = this.doDequeue(q, v, host, nowNs);
      }
      v.dropping = true;
      // §5.6: resume near the last drop rate if the last dropping state ended less than 16 intervals ago.
      const delta = v.count - v.lastCount;
      v.count = delta > 1 && nowNs - v.dropNextNs < 16 * interval ? delta : 1;
      v.dropNextNs = controlLaw(nowNs, interval, v.count);
      v.lastCount = v.count;
    }
    return p;
  }
}

/** Parameters every CoDel-based discipline has (RFC 8289 defaults). */
export const CODEL_PARAMS: readonly QdiscParamSpec[] = [
  { name: 'targetS', doc: 'acceptable standing queue delay (RFC 8289 TARGET)', unit: 's', default: 0.005, min: 0, max: 10, minExclusive: true },
  { name: 'intervalS', doc: 'sliding window over which the minimum sojourn is judged, ~ a worst-case RTT (RFC 8289 INTERVAL)', unit: 's', default: 0.1, min: 0, max: 100, minExclusive: true },
  { name: 'mtuBytes', doc: 'no drop while the queue holds at most this many bytes (RFC 8289 MAXPACKET; ns-3 MinBytes)', unit: 'bytes', default: 1500, min: 0, max: 1e9, integer: true },
];

export function codelParams(p: QdiscParams): CodelParams {
  return { targetNs: (p.targetS as number) * 1e9, intervalNs: (p.intervalS as number) * 1e9, mtuBytes: p.mtuBytes as number, ecn: p.ecn as boolean };
}

/** CoDel's relation between its times: target below interval (RFC 8289 §4.3-4.4: 5-10% of it). */
export function checkCodelTimes(p: QdiscParams): [string, string] | null {
  if ((p.targetS as number) >= (p.intervalS as number)) return ['targetS', `must be below intervalS (${p.intervalS}), got ${p.targetS}`];
  return null;
}

const DROP_OVERLIMIT = 0;
const DROP_CODEL = 1;

/** CoDel on one FIFO queue; the link dequeues it at each transmission end. */
export class CodelQueueDisc implements QueueDisc, CodelHost {
  readonly kind = 'codel';
  readonly holdsPackets = true;
  readonly stats = new QdiscStats(codel.dropReasons, codel.markReasons);
  readonly vars = new CodelVars();
  private readonly q = new PacketFifo();
  private readonly step: CodelStep;

  constructor(
    private readonly limitPackets: number,
    params: QdiscParams,
    private readonly ctx: QdiscContext,
  ) {
    this.step = new CodelStep(codelParams(params), ctx, this.stats, DROP_CODEL, 0);
  }

  get backlogPackets(): number {
    return this.q.length;
  }

  /** Sojourn time of the packet the last dequeue returned (ns). */
  get lastSojournNs(): number {
    return this.step.lastSojournNs;
  }

  enqueue(packet: number, nowNs: number): number {
    if (this.q.length >= this.limitPackets) {
      this.stats.drops[DROP_OVERLIMIT]!++;
      return VERDICT_DROP;
    }
    this.q.push(packet, nowNs, this.ctx.pool.rows[packet * ROW + F_WIRE_BYTES]!);
    return VERDICT_ADMIT;
  }

  dequeue(nowNs: number): number {
    return this.step.dequeue(this.q, this.vars, this, nowNs);
  }

  take(q: PacketFifo): number {
    return q.shift();
  }

  heldBytes(q: PacketFifo): number {
    return q.bytes;
  }

  dropTaken(p: number): void {
    this.ctx.dropHeld(p);
  }
}

export const codel: QueueDiscFactory = {
  kind: 'codel',
  title: 'CoDel, Controlled Delay (RFC 8289)',
  holdsPackets: true,
  params: [...CODEL_PARAMS, { name: 'ecn', doc: 'mark ECN-capable packets CE instead of dropping them (Linux codel default: off)', unit: 'flag', default: false, boolean: true }],
  dropReasons: [REASON_OVERLIMIT, 'target exceeded'],
  markReasons: ['target exceeded'],
  check: checkCodelTimes,
  create: (limitPackets, params, ctx) => new CodelQueueDisc(limitPackets, params, ctx),
};
