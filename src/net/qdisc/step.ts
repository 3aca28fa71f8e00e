import { REASON_OVERLIMIT } from './droptail.js';
import { EnqueueDisc } from './enqueueDisc.js';
import { VERDICT_ADMIT, VERDICT_DROP, type QdiscContext, type QdiscParams, type QueueDiscFactory } from './types.js';

/**
 * Step marking at a threshold K, the switch configuration DCTCP is designed for (Alizadeh et al.,
 * SIGCOMM 2010 3.1; RFC 8257 3.1: "mark ... if the queue occupancy is greater than K upon
 * arrival"). An arriving packet that finds `thresholdPackets` or more waiting is marked CE if it is
 * ECN-capable and dropped if not (RFC 3168 5: a Not-ECT packet gets the drop the mark stands for);
 * the packet limit applies first, as drop-tail's. Instantaneous queue, no averaging and no
 * randomness: ns-3 builds the same with RedQueueDisc MinTh = MaxTh = K, QW = 1, UseHardDrop false,
 * Linux with `red ... min K max K probability 1 ecn` or fq_codel's ce_threshold.
 */
class StepQueueDisc extends EnqueueDisc {
  private readonly threshold: number;
  private readonly ecn: boolean;

  constructor(limitPackets: number, params: QdiscParams, ctx: QdiscContext) {
    super(step, limitPackets, ctx);
    this.threshold = params.thresholdPackets as number;
    this.ecn = params.ecn as boolean;
  }

  enqueue(packet: number, nowNs: number, backlogPackets: number, busyUntilNs: number): number {
    if (this.overLimit(nowNs, backlogPackets, busyUntilNs, 0)) return VERDICT_DROP;
    if (backlogPackets < this.threshold) return VERDICT_ADMIT;
    return this.markOrDrop(this.ecn, packet, 1);
  }
}

export const step: QueueDiscFactory = {
  kind: 'step',
  title: 'Step marking at K (DCTCP switch, RFC 8257 3.1)',
  holdsPackets: false,
  params: [
    {
      name: 'thresholdPackets',
      doc: 'K: an arriving packet that finds K or more packets waiting is marked CE (dropped if Not-ECT); DCTCP guidance K > C x RTT / 7 (Alizadeh et al. 2010, 3.3)',
      unit: 'packets',
      default: 20,
      min: 0,
      max: 1e7,
      integer: true,
    },
    { name: 'ecn', doc: 'mark ECN-capable packets CE at K (off: drop every packet at K, a drop-tail queue of K)', unit: 'flag', default: true, boolean: true },
  ],
  dropReasons: [REASON_OVERLIMIT, 'threshold'],
  markReasons: ['threshold'],
  check(p, limitPackets) {
    if ((p.thresholdPackets as number) > limitPackets) return ['thresholdPackets', `must not exceed limitPackets (${limitPackets}), got ${p.thresholdPackets}`];
    return null;
  },
  create: (limitPackets, params, ctx) => new StepQueueDisc(limitPackets, params, ctx),
};
