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
   */
  shouldDrop(u: number): boolean {
    const pb = redBaseProbability(this.avg, this.params);
    if (pb <= 0) {
      this.count = 0;
      return false;
    }
    if (pb >= 1) {
      this.count = 0;
      return true;
    }
    // count = packets admitted since the last drop, so the n-th packet after a drop is dropped with
    // p_b / (1 - (n - 1) p_b): the gap between drops is uniform on {1, ..., 1/p_b} (Floyd & Jacobson 7).
    const denom = 1 - this.count * pb;
    const pa = denom <= 0 ? 1 : Math.min(1, pb / denom);
    if (u < pa) {
      this.count = 0;
      return true;
    }
    this.count++;
    return false;
  }
}
