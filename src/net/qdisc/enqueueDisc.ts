import { QdiscStats, type QdiscContext, type QueueDisc, type QueueDiscFactory } from './types.js';

/**
 * What the disciplines that decide at enqueue (`holdsPackets: false`: drop-tail, step, RED, PIE, the
 * policer) share: the link keeps their FIFO and its backlog, the discipline returns a verdict for each
 * arriving packet. Each applies drop-tail's packet limit (ns-3 FifoQueueDisc's and RedQueueDisc's
 * "Overlimit drop", Linux qdisc_drop at sch->limit) and, where it marks, RFC 3168's mark-or-drop; the
 * kind and the drop and mark reasons are its factory's.
 */
export abstract class EnqueueDisc implements QueueDisc {
  readonly kind: string;
  readonly holdsPackets = false;
  readonly backlogPackets = 0;
  readonly stats: QdiscStats;

  constructor(
    factory: QueueDiscFactory,
    private readonly limitPackets: number,
    protected readonly ctx: QdiscContext,
  ) {
    this.kind = factory.kind;
    this.stats = new QdiscStats(factory.dropReasons, factory.markReasons);
  }

  abstract enqueue(packet: number, nowNs: number, backlogPackets: number, busyUntilNs: number): number;

  /**
   * The packet limit: true (the drop counted under `dropReason`) when the packet would wait and
   * `limitPackets` already wait. As in ns-3 the packet being serialised is not in the queue, so an
   * idle link sends even with a limit of 0.
   */
  protected overLimit(nowNs: number, backlogPackets: number, busyUntilNs: number, dropReason: number): boolean {
    if (busyUntilNs > nowNs && backlogPackets >= this.limitPackets) {
      this.stats.drops[dropReason]!++;
      return true;
    }
    return false;
  }

  /** The verdict for a packet not admitted as it is: CE where `mayMark` and it is ECN-capable, else dropped for `dropReason`. */
  protected markOrDrop(mayMark: boolean, packet: number, dropReason: number): number {
    return this.stats.markOrDrop(mayMark, this.ctx.pool, packet, dropReason);
  }
}
