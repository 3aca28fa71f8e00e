import { markCe, type PacketPool } from '../packets.js';
import type { ParamSpec } from '../../cc/types.js';

/**
 * The queue-discipline plug-in interface of the packet engine, after ns-3's QueueDisc
 * (DoEnqueue / DoDequeue, DropBeforeEnqueue / DropAfterDequeue / Mark with a reason string, counted
 * per reason in QueueDisc::Stats) and Linux's Qdisc_ops (enqueue returns NET_XMIT_SUCCESS / _DROP /
 * _CN; dequeue). A discipline is a small object with private state; it sees packet ids and the
 * packet pool's headers, never the simulator.
 *
 * Two kinds of discipline, because the link has two ways to run:
 * - `holdsPackets: false` (drop-tail, RED, PIE): every decision is taken at enqueue and the order is
 *   FIFO, so the link computes a packet's departure at arrival (one event per packet; src/net/link.ts).
 * - `holdsPackets: true` (CoDel, FQ-CoDel): the discipline keeps the packets and decides at dequeue
 *   (CoDel drops at the head; FQ-CoDel picks the flow); the link asks `dequeue` each time its
 *   transmitter frees, one extra event per packet.
 */

/** Admitted unchanged (NET_XMIT_SUCCESS). */
export const VERDICT_ADMIT = 0;
/** Admitted with its IP ECN field set to CE instead of being dropped (RFC 3168 §5; Linux NET_XMIT_CN). */
export const VERDICT_MARK = 1;
/** The offered packet was dropped (NET_XMIT_DROP); the discipline counted the reason. */
export const VERDICT_DROP = 2;

/**
 * A parameter of a discipline: numbers as the congestion-control ParamSpec (src/cc/types.ts), plus
 * whether the bounds are exclusive and whether it is a whole number; or an on/off switch.
 */
export type QdiscParamSpec =
  | (ParamSpec & { minExclusive?: boolean; maxExclusive?: boolean; integer?: boolean })
  | { name: string; doc: string; unit: 'flag'; default: boolean; boolean: true };

/** Every parameter of a discipline, defaults filled in (what `create` receives). */
export type QdiscParams = Readonly<Record<string, number | boolean>>;

/** What a discipline gets from the link it sits on. */
export interface QdiscContext {
  /** Packet headers (wire bytes, flow, ECN field); read them through `pool.rows` and `pool.ecn`. */
  readonly pool: PacketPool;
  /** Link rate, bits per second (drain-rate estimates, RED's idle correction). */
  readonly bandwidthBps: number;
  /** Serialisation time of a full-sized packet, ns (RED's idle-period correction). */
  readonly typicalTxNs: number;
  /** The run's seeded uniform stream for this discipline's random draws. */
  readonly uniform: () => number;
  /**
   * Drops a packet the discipline holds (CoDel's head drop, FQ-CoDel's drop from the fattest
   * queue); the arriving packet of a VERDICT_DROP is dropped by the link, not through this.
   */
  dropHeld(packet: number): void;
}

/** Drops and marks by reason (ns-3 QueueDisc::Stats nDroppedPacketsBeforeEnqueue/AfterDequeue, nMarkedPackets by reason). */
export class QdiscStats {
  readonly drops: number[];
  readonly marks: number[];
  constructor(
    readonly dropReasons: readonly string[],
    readonly markReasons: readonly string[],
  ) {
    this.drops = dropReasons.map(() => 0);
    this.marks = markReasons.map(() => 0);
  }

  /**
   * The verdict for a packet the discipline will not admit as it is: marked CE where `mayMark` and the
   * packet is ECN-capable (RFC 3168 §5, counted under mark reason 0), else dropped for `dropReason`.
   */
  markOrDrop(mayMark: boolean, pool: PacketPool, packet: number, dropReason: number): number {
    if (mayMark && markCe(pool, packet)) {
      this.marks[0]!++;
      return VERDICT_MARK;
    }
    this.drops[dropReason]!++;
    return VERDICT_DROP;
  }

  /** {reason: count} for results and traces; reasons never seen are listed with 0. */
  toJSON(): { drops: Record<string, number>; marks: Record<string, number> } {
    const table = (names: readonly string[], counts: number[]): Record<string, number> => Object.fromEntries(names.map((n, i) => [n, counts[i]!]));
    return { drops: table(this.dropReasons, this.drops), marks: table(this.markReasons, this.marks) };
  }
}

export interface QueueDisc {
  readonly kind: string;
  /** See the module comment: false = FIFO decided at enqueue, true = held and dequeued by the link. */
  readonly holdsPackets: boolean;
  readonly stats: QdiscStats;
  /**
   * A packet is offered at nowNs. For a FIFO discipline `backlogPackets` is the number waiting (not
   * counting the one in transmission) and `busyUntilNs` when the transmitter frees (at or before nowNs
   * when idle); a held discipline keeps its own backlog and ignores both. Returns a VERDICT_*.
   */
  enqueue(packet: number, nowNs: number, backlogPackets: number, busyUntilNs: number): number;
  /** Held disciplines: the next packet to transmit at nowNs, or -1 when empty. FIFO disciplines have none (the link never asks). */
  dequeue?(nowNs: number): number;
  /** Held disciplines: packets held. FIFO: the link counts them. */
  readonly backlogPackets: number;
  /** Held disciplines: the sojourn time (ns) of the packet the last dequeue returned. */
  readonly lastSojournNs?: number;
}

/** A registered discipline: its `queue.kind`, its parameters and a factory for per-link instances. */
export interface QueueDiscFactory {
  readonly kind: string;
  readonly title: string;
  /** Decides at dequeue (the link runs its dequeue path) or at enqueue (FIFO fast path). */
  readonly holdsPackets: boolean;
  /** Parameters besides `limitPackets`, which every discipline has. */
  readonly params: readonly QdiscParamSpec[];
  readonly dropReasons: readonly string[];
  readonly markReasons: readonly string[];
  /**
   * Relations between parameters a range cannot express (CoDel's target below its interval);
   * returns [param, problem] or null. Defaults filled in.
   */
  check?(params: QdiscParams, limitPackets: number): [string, string] | null;
  create(limitPackets: number, params: QdiscParams, ctx: QdiscContext): QueueDisc;
}
