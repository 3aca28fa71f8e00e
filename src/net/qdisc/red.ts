import { EnqueueDisc } from './enqueueDisc.js';
import { VERDICT_ADMIT, VERDICT_DROP, type QdiscContext, type QdiscParams, type QueueDiscFactory } from './types.js';

/**
 * Random Early Detection (Floyd & Jacobson 1993; RFC 2309), with the gentle variant
 * (Floyd 2000) and the idle-period correction of the average, as ns-3's RedQueueDisc does.
 * Pure arithmetic plus a little state; the random draw comes from the caller's seeded stream.
 */
export interface RedParams {
  minThPackets: number;
  maxThPackets: number;
  maxP: number;
  /** EWMA weight w_q of the average queue. */
  weight: number;
  gentle: boolean;
}

/**
 * The base drop probability p_b for an average queue `avg` (packets):
 * 0 below minTh; maxP (avg - minTh) / (maxTh - minTh) up to maxTh; then, if gentle,
 * maxP + (1 - maxP)(avg - maxTh) / maxTh up to 2 maxTh; 1 beyond (forced drop).
 */
export function redBaseProbability(avg: number, p: RedParams): number {
  if (avg < p.minThPackets) return 0;
  if (avg < p.maxThPackets) return (p.maxP * (avg - p.minThPackets)) / (p.maxThPackets - p.minThPackets);
  if (p.gentle && avg < 2 * p.maxThPackets) return p.maxP + ((1 - p.maxP) * (avg - p.maxThPackets)) / p.maxThPackets;
  return 1;
}

export class RedState {
  /** Average queue length (packets), the EWMA. */
  avg = 0;
  /** Packets admitted since the last drop while in the probabilistic region (Floyd's `count`). */
  count = 0;

  constructor(readonly params: RedParams) {}

  /**
   * EWMA update on a packet arrival seeing `queuePackets` waiting. After an idle period of `idleNs`
   * (queue empty), the average decays as if m = idleNs / typicalTxNs small packets had arrived
   * empty-handed: avg = (1 - w)^(m+1) avg + w q (Floyd & Jacobson, section 11; ns-3 Estimator).
   */
  updateAverage(queuePackets: number, idleNs: number, typicalTxNs: number): void {
    const w = this.params.weight;
    if (idleNs > 0) {
      const m = Math.floor(idleNs / typicalTxNs);
      this.avg = this.avg * Math.pow(1 - w, m + 1) + w * queuePackets;
    } else {
      this.avg = (1 - w) * this.avg + w * queuePackets;
    }
  }

  /**
   * Early-drop decision for the arriving packet (after {@link updateAverage}). Uses the count
   * correction p_a = p_b / (1 - count p_b), so drops are spread evenly (uniform inter-drop gaps).
   * @param u a uniform draw in [0, 1).
   * @returns EARLY_NONE, EARLY_UNFORCED (the probabilistic region) or EARLY_FORCED (p_b = 1:
   *   beyond maxTh, or 2 maxTh when gentle; ns-3 RedQueueDisc::DropEarly's 0 / 1 / 2).
   */
  decide(u: number): number {
    const pb = redBaseProbability(this.avg, this.params);
    if (pb <= 0) {
      this.count = 0;
      return EARLY_NONE;
    }
    if (pb >= 1) {
      this.count = 0;
      return EARLY_FORCED;
    }
    // count = packets admitted since the last drop, so the n-th packet after a drop is dropped with
    // p_b / (1 - (n - 1) p_b): the gap between drops is uniform on {1, ..., 1/p_b} (Floyd & Jacobson 7).
    const denom = 1 - this.count * pb;
    const pa = denom <= 0 ? 1 : Math.min(1, pb / denom);
    if (u < pa) {
      this.count = 0;
      return EARLY_UNFORCED;
    }
    this.count++;
    return EARLY_NONE;
  }

  /** {@link decide} as a yes/no: drop (or mark) the arriving packet. */
  shouldDrop(u: number): boolean {
    return this.decide(u) !== EARLY_NONE;
  }
}

export const EARLY_NONE = 0;
export const EARLY_UNFORCED = 1;
export const EARLY_FORCED = 2;

const DROP_OVERLIMIT = 0;
const DROP_FORCED = 1;
const DROP_UNFORCED = 2;

/**
 * The RED discipline (ns-3 RedQueueDisc, Linux sch_red): the average updated on every arrival (idle
 * correction included), the packet limit, then the early decision on a fresh uniform draw. With
 * `ecn`, an ECN-capable packet in the probabilistic region is marked CE instead of dropped; a forced
 * drop stays a drop (RFC 3168 §7 leaves that to the router; ns-3's UseHardDrop default true, Linux
 * red_use_harddrop with ECN, drop above max_P's region unless 'harddrop' is off).
 */
export class RedQueueDisc extends EnqueueDisc {
  private readonly state: RedState;
  private readonly ecn: boolean;

  constructor(limitPackets: number, params: QdiscParams, ctx: QdiscContext) {
    super(red, limitPackets, ctx);
    this.state = new RedState({
      minThPackets: params.minThPackets as number,
      maxThPackets: params.maxThPackets as number,
      maxP: params.maxP as number,
      weight: params.weight as number,
      gentle: params.gentle as boolean,
    });
    this.ecn = params.ecn as boolean;
  }

  /** The average queue (packets), RED's EWMA. */
  get averagePackets(): number {
    return this.state.avg;
  }

  enqueue(packet: number, nowNs: number, backlogPackets: number, busyUntilNs: number): number {
    const idleNs = backlogPackets === 0 && busyUntilNs < nowNs ? nowNs - busyUntilNs : 0;
    this.state.updateAverage(backlogPackets, idleNs, this.ctx.typicalTxNs);
    if (this.overLimit(nowNs, backlogPackets, busyUntilNs, DROP_OVERLIMIT)) return VERDICT_DROP;
    const early = this.state.decide(this.ctx.uniform());
    if (early === EARLY_NONE) return VERDICT_ADMIT;
    return this.markOrDrop(early === EARLY_UNFORCED && this.ecn, packet, early === EARLY_FORCED ? DROP_FORCED : DROP_UNFORCED);
  }
}

export const red: QueueDiscFactory = {
  kind: 'red',
  title: 'Random Early Detection (Floyd & Jacobson 1993, gentle variant)',
  holdsPackets: false,
  // Defaults: ns-3 RedQueueDisc's (MinTh 5, MaxTh 15, QW 0.002, LInterm 50, Gentle true).
  params: [
    { name: 'minThPackets', doc: 'average queue where early drops begin', unit: 'packets', default: 5, min: 0, max: 1e7 },
    { name: 'maxThPackets', doc: 'average queue where the early-drop probability reaches maxP', unit: 'packets', default: 15, min: 0, max: 1e7, minExclusive: true },
    { name: 'maxP', doc: 'early-drop probability at maxThPackets (1 / ns-3 LInterm)', unit: 'probability', default: 0.02, min: 0, max: 1, minExclusive: true },
    { name: 'weight', doc: 'EWMA weight w_q of the average queue', unit: 'weight', default: 0.002, min: 0, max: 1, minExclusive: true },
    { name: 'gentle', doc: 'drop probability rises from maxP to 1 between maxTh and 2 maxTh', unit: 'flag', default: true, boolean: true },
    { name: 'ecn', doc: 'mark ECN-capable packets CE instead of an unforced (early) drop', unit: 'flag', default: false, boolean: true },
  ],
  dropReasons: ['overlimit', 'forced', 'unforced'],
  markReasons: ['unforced'],
  check(p, limitPackets) {
    if ((p.minThPackets as number) >= (p.maxThPackets as number)) return ['minThPackets', `must be below maxThPackets (${p.maxThPackets}), got ${p.minThPackets}`];
    if ((p.maxThPackets as number) > limitPackets) return ['maxThPackets', `must not exceed limitPackets (${limitPackets}), got ${p.maxThPackets}`];
    return null;
  },
  create: (limitPackets, params, ctx) => new RedQueueDisc(limitPackets, params, ctx),
};
