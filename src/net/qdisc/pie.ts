import { REASON_OVERLIMIT } from './droptail.js';
import { EnqueueDisc } from './enqueueDisc.js';
import { VERDICT_ADMIT, VERDICT_DROP, type QdiscContext, type QdiscParams, type QueueDiscFactory } from './types.js';

/**
 * PIE, Proportional Integral controller Enhanced (RFC 8033; Linux net/sched/sch_pie.c + pie.h;
 * ns-3 PieQueueDisc). Drops (or marks) at enqueue with probability drop_prob, which a PI law on the
 * queue delay updates every T_UPDATE (§4.2), its gains scaled down while drop_prob is small (the
 * auto-tuning table of §4.2), with a burst allowance (§4.3) and the work-conserving safeguards of §4.1.
 * Decisions are taken at enqueue and the order is FIFO, so PIE runs on the link's one-event path.
 *
 * The queue delay is the time a packet arriving now waits before its transmission starts: the
 * backlog divided by the drain rate (§4.2's Little's-law form), exact here because the link's rate is
 * known, so there is no departure-rate estimator to warm up. The periodic update needs no timer
 * event: between two arrivals the link's busy-until time does not change, so the delay at every
 * T_UPDATE boundary passed since the last arrival is known, and the updates are applied in order when
 * the next packet arrives (the same values a timer would compute, without one event per 15 ms).
 *
 * Where the peers differ and what cclab follows (the RFC throughout):
 * - Burst allowance: the RFC starts it at MAX_BURST, takes T_UPDATE off at each update and resets it
 *   when drop_prob is 0 and the current and previous delays are under QDELAY_REF/2. ns-3 follows an
 *   earlier draft: drop_prob is held at 0 while the allowance lasts, and a three-state burst machine
 *   (NO_BURST / IN_BURST_PROTECTING / IN_BURST) restarts it.
 * - Linux adds 2% to the adjustment when the delay exceeds 250 ms; the RFC has no such rule.
 * - De-randomization (RFC 8033 §5.1's optional accu_prob) is not implemented (ns-3's default is off too).
 * - ECN (RFC 8033 §5.1): an ECN-capable packet is marked instead of dropped while drop_prob is below
 *   mark_ecnth = 0.1, dropped above (ns-3 MarkEcnThreshold 0.1; Linux marks at <= 10%).
 */

/** The auto-tuning table of RFC 8033 §4.2: the adjustment's divisor for the current drop_prob. */
export function pieTuningDivisor(dropProb: number): number {
  if (dropProb < 0.000001) return 2048;
  if (dropProb < 0.00001) return 512;
  if (dropProb < 0.0001) return 128;
  if (dropProb < 0.001) return 32;
  if (dropProb < 0.01) return 8;
  if (dropProb < 0.1) return 2;
  return 1;
}

/** PIE's parameters in seconds, Hz and probabilities (RFC 8033 §4 names in the docs). */
export interface PieParams {
  targetS: number;
  tUpdateS: number;
  alpha: number;
  beta: number;
  maxBurstS: number;
  ecn: boolean;
  markEcnThreshold: number;
}

/** PIE's controller state and its periodic update (RFC 8033 §4.2-4.3), free of any queue. */
export class PieController {
  dropProb = 0;
  qdelayOldS = 0;
  /** Burst allowance left, integer ns (seconds would leave 1e-17 s after ten 15-ms steps off 150 ms). */
  burstAllowanceNs: number;
  private readonly maxBurstNs: number;
  private readonly tUpdateNs: number;

  constructor(readonly params: PieParams) {
    this.maxBurstNs = Math.round(params.maxBurstS * 1e9);
    this.tUpdateNs = Math.round(params.tUpdateS * 1e9);
    this.burstAllowanceNs = this.maxBurstNs;
  }

  /** One T_UPDATE step with the current queue delay (seconds). */
  update(qdelayS: number): void {
    const { targetS, alpha, beta } = this.params;
    let p = alpha * (qdelayS - targetS) + beta * (qdelayS - this.qdelayOldS);
    p /= pieTuningDivisor(this.dropProb);
    // Cap the adjustment at 2% once drop_prob is 10% or more (§4.2), so one burst cannot push it far.
    if (this.dropProb >= 0.1 && p > 0.02) p = 0.02;
    let prob = this.dropProb + p;
    // Decay when the queue has been empty at two updates in a row (§4.2).
    if (qdelayS === 0 && this.qdelayOldS === 0) prob *= 0.98;
    this.dropProb = prob < 0 ? 0 : prob > 1 ? 1 : prob;
    // Burst allowance (§4.3): spent by T_UPDATE per update, reset once the congestion is gone.
    this.burstAllowanceNs = Math.max(0, this.burstAllowanceNs - this.tUpdateNs);
    if (this.dropProb === 0 && qdelayS < targetS / 2 && this.qdelayOldS < targetS / 2) this.burstAllowanceNs = this.maxBurstNs;
    this.qdelayOldS = qdelayS;
  }

  /** At the fixed point of an empty queue further updates change nothing. */
  get idle(): boolean {
    return this.dropProb === 0 && this.qdelayOldS === 0 && this.burstAllowanceNs === this.maxBurstNs;
  }
}

const DROP_OVERLIMIT = 0;
const DROP_UNFORCED = 1;

export class PieQueueDisc extends EnqueueDisc {
  readonly controller: PieController;
  private readonly tUpdateNs: number;
  /** Time of the next T_UPDATE boundary not yet applied. */
  private nextUpdateNs: number;

  constructor(limitPackets: number, params: QdiscParams, ctx: QdiscContext) {
    super(pie, limitPackets, ctx);
    this.controller = new PieController(pieParams(params));
    this.tUpdateNs = Math.round((params.tUpdateS as number) * 1e9);
    this.nextUpdateNs = this.tUpdateNs;
  }

  /** Applies every update due at or before nowNs; the link was busy until busyUntilNs throughout. */
  private catchUp(nowNs: number, busyUntilNs: number): void {
    const c = this.controller;
    while (this.nextUpdateNs <= nowNs) {
      const t = this.nextUpdateNs;
      const qdelayS = busyUntilNs > t ? (busyUntilNs - t) / 1e9 : 0;
      if (qdelayS === 0 && c.idle) {
        // Every later boundary up to now would leave the state as it is: skip to the last one.
        this.nextUpdateNs = t + Math.floor((nowNs - t) / this.tUpdateNs + 1) * this.tUpdateNs;
        return;
      }
      c.update(qdelayS);
      this.nextUpdateNs = t + this.tUpdateNs;
    }
  }

  enqueue(packet: number, nowNs: number, backlogPackets: number, busyUntilNs: number): number {
    this.catchUp(nowNs, busyUntilNs);
    if (this.overLimit(nowNs, backlogPackets, busyUntilNs, DROP_OVERLIMIT)) return VERDICT_DROP;
    const c = this.controller;
    // §4.1 and §4.3: no random drop during the burst allowance, while the delay was under half the
    // target and drop_prob is below 20%, or with at most two packets waiting (work conservation).
    if (c.burstAllowanceNs > 0) return VERDICT_ADMIT;
    if (c.qdelayOldS < c.params.targetS / 2 && c.dropProb < 0.2) return VERDICT_ADMIT;
    if (backlogPackets <= 2) return VERDICT_ADMIT;
    if (this.ctx.uniform() >= c.dropProb) return VERDICT_ADMIT;
    return this.markOrDrop(c.params.ecn && c.dropProb < c.params.markEcnThreshold, packet, DROP_UNFORCED);
  }
}

export function pieParams(p: QdiscParams): PieParams {
  return {
    targetS: p.targetS as number,
    tUpdateS: p.tUpdateS as number,
    alpha: p.alpha as number,
    beta: p.beta as number,
    maxBurstS: p.maxBurstS as number,
    ecn: p.ecn as boolean,
    markEcnThreshold: p.markEcnThreshold as number,
  };
}

export const pie: QueueDiscFactory = {
  kind: 'pie',
  title: 'PIE, Proportional Integral controller Enhanced (RFC 8033)',
  holdsPackets: false,
  params: [
    { name: 'targetS', doc: 'queue delay the controller steers to (RFC 8033 QDELAY_REF)', unit: 's', default: 0.015, min: 0, max: 10, minExclusive: true },
    { name: 'tUpdateS', doc: 'period of the drop-probability update (RFC 8033 T_UPDATE)', unit: 's', default: 0.015, min: 1e-6, max: 10 },
    { name: 'alpha', doc: 'gain on the delay error, per second (RFC 8033 alpha; Linux tc accepts up to 32/16 Hz)', unit: 'Hz', default: 0.125, min: 0, max: 2, minExclusive: true },
    { name: 'beta', doc: 'gain on the delay change, per second (RFC 8033 beta; Linux tc accepts up to 32/16 Hz)', unit: 'Hz', default: 1.25, min: 0, max: 2, minExclusive: true },
    { name: 'maxBurstS', doc: 'burst allowance: no random drop for this long after congestion starts (RFC 8033 MAX_BURST)', unit: 's', default: 0.15, min: 0, max: 100 },
    { name: 'markEcnThreshold', doc: 'mark instead of drop only while drop_prob is below this (RFC 8033 mark_ecnth)', unit: 'probability', default: 0.1, min: 0, max: 1 },
    { name: 'ecn', doc: 'mark ECN-capable packets CE instead of dropping them, below markEcnThreshold', unit: 'flag', default: false, boolean: true },
  ],
  dropReasons: [REASON_OVERLIMIT, 'unforced'],
  markReasons: ['unforced'],
  create: (limitPackets, params, ctx) => new PieQueueDisc(limitPackets, params, ctx),
};
