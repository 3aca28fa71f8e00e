import { QdiscStats, VERDICT_ADMIT, VERDICT_DROP, type QueueDisc, type QueueDiscFactory } from './types.js';

/** Drop reason of every discipline's packet limit (ns-3 "Overlimit drop", Linux qdisc_drop at sch->limit). */
export const REASON_OVERLIMIT = 'overlimit';

/**
 * Drop-tail FIFO (ns-3 FifoQueueDisc, Linux pfifo): a packet that would wait is dropped when
 * `limitPackets` already wait. As in ns-3 the packet being serialised is not in the queue, so an
 * idle link sends even with a limit of 0.
 */
class DropTail implements QueueDisc {
  readonly kind = 'droptail';
  readonly holdsPackets = false;
  readonly backlogPackets = 0;
  readonly stats = new QdiscStats([REASON_OVERLIMIT], []);

  constructor(private readonly limitPackets: number) {}

  enqueue(_packet: number, nowNs: number, backlogPackets: number, busyUntilNs: number): number {
    if (busyUntilNs > nowNs && backlogPackets >= this.limitPackets) {
      this.stats.drops[0]!++;
      return VERDICT_DROP;
    }
    return VERDICT_ADMIT;
  }
}

export const droptail: QueueDiscFactory = {
  kind: 'droptail',
  title: 'Drop-tail FIFO',
  holdsPackets: false,
  params: [],
  dropReasons: [REASON_OVERLIMIT],
  markReasons: [],
  create: (limitPackets) => new DropTail(limitPackets),
};
