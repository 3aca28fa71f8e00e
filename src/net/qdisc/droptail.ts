import { EnqueueDisc } from './enqueueDisc.js';
import { VERDICT_ADMIT, VERDICT_DROP, type QueueDiscFactory } from './types.js';

/** Drop reason of every discipline's packet limit (ns-3 "Overlimit drop", Linux qdisc_drop at sch->limit). */
export const REASON_OVERLIMIT = 'overlimit';

/**
 * Drop-tail FIFO (ns-3 FifoQueueDisc, Linux pfifo): a packet that would wait is dropped when
 * `limitPackets` already wait. As in ns-3 the packet being serialised is not in the queue, so an
 * idle link sends even with a limit of 0.
 */
class DropTail extends EnqueueDisc {
  enqueue(_packet: number, nowNs: number, backlogPackets: number, busyUntilNs: number): number {
    return this.overLimit(nowNs, backlogPackets, busyUntilNs, 0) ? VERDICT_DROP : VERDICT_ADMIT;
  }
}

export const droptail: QueueDiscFactory = {
  kind: 'droptail',
  title: 'Drop-tail FIFO',
  holdsPackets: false,
  params: [],
  dropReasons: [REASON_OVERLIMIT],
  markReasons: [],
  create: (limitPackets, _params, ctx) => new DropTail(droptail, limitPackets, ctx),
};
