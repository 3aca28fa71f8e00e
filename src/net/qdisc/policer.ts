import { F_WIRE_BYTES, ROW_SLOTS } from '../packets.js';
import { REASON_OVERLIMIT } from './droptail.js';
import { EnqueueDisc } from './enqueueDisc.js';
import { VERDICT_ADMIT, VERDICT_DROP, type QdiscContext, type QdiscParams, type QueueDiscFactory } from './types.js';

/** Drop reason of a packet that found too few tokens. */
export const REASON_POLICED = 'policed';

/**
 * A token-bucket policer in front of a FIFO (Linux `tc ... police rate R burst B drop`, act_police;
 * RFC 2697's committed bucket on its own): tokens accrue at `rateBps` up to `burstBytes`, the bucket
 * starting full. A packet that finds at least its wire bytes in the bucket takes them and enters the
 * drop-tail FIFO of `limitPackets` in front of the link; one that finds fewer is dropped at once and
 * takes nothing. Policing drops instead of queueing: with the link faster than `rateBps` the queue
 * stays short and the flow meets loss after an initial burst, the case of draft-ietf-ccwg-bbr's
 * Appendix A "Handling Token Bucket Policers" and of BBRv1's long-term sampling (Flach et al.,
 * "An Internet-Wide Analysis of Traffic Policing", SIGCOMM 2016). ns-3 has no policer discipline
 * (its TbfQueueDisc shapes: it holds packets until tokens come).
 */
export class Policer extends EnqueueDisc {
  private readonly bytesPerNs: number;
  private readonly burstBytes: number;
  /** Tokens, bytes, as of `lastNs`. */
  tokensBytes: number;
  private lastNs = 0;

  constructor(limitPackets: number, params: QdiscParams, ctx: QdiscContext) {
    super(policer, limitPackets, ctx);
    this.bytesPerNs = (params.rateBps as number) / 8e9;
    this.burstBytes = params.burstBytes as number;
    this.tokensBytes = this.burstBytes;
  }

  enqueue(packet: number, nowNs: number, backlogPackets: number, busyUntilNs: number): number {
    this.tokensBytes = Math.min(this.burstBytes, this.tokensBytes + (nowNs - this.lastNs) * this.bytesPerNs);
    this.lastNs = nowNs;
    const bytes = this.ctx.pool.rows[packet * ROW_SLOTS + F_WIRE_BYTES]!;
    if (this.tokensBytes < bytes) {
      this.stats.drops[0]!++;
      return VERDICT_DROP;
    }
    if (this.overLimit(nowNs, backlogPackets, busyUntilNs, 1)) return VERDICT_DROP;
    this.tokensBytes -= bytes;
    return VERDICT_ADMIT;
  }
}

export const policer: QueueDiscFactory = {
  kind: 'policer',
  title: 'Token-bucket policer (Linux act_police) before a drop-tail FIFO',
  holdsPackets: false,
  params: [
    { name: 'rateBps', doc: 'Token rate: the policed rate, bits per second of wire bytes', unit: 'bit/s', default: 10e6, min: 0, max: 1e13, minExclusive: true },
    { name: 'burstBytes', doc: 'Bucket size: the burst allowed above the rate (the bucket starts full)', unit: 'bytes', default: 64_000, min: 1, max: 1e12 },
  ],
  dropReasons: [REASON_POLICED, REASON_OVERLIMIT],
  markReasons: [],
  create: (limitPackets, params, ctx) => new Policer(limitPackets, params, ctx),
};
