import type { Series } from '../result/types.js';
import { nsToSeconds } from '../units.js';

/**
 * A bounded time-series recorder for record-on-change traces. The run's time span is cut into
 * maxPoints / 2 equal buckets; each bucket keeps only its minimum and its maximum point (in time
 * order), so a trace never holds more than maxPoints points however long the run, and the peaks and
 * troughs of a sawtooth survive decimation (a plain every-k-th sample would cut them off).
 * The first point of the run is always kept.
 */
export class TraceRecorder {
  private readonly bucketNs: number;
  private readonly buckets: number;
  private readonly minT: Float64Array;
  private readonly minV: Float64Array;
  private readonly maxT: Float64Array;
  private readonly maxV: Float64Array;
  private readonly used: Uint8Array;
  private firstT = NaN;
  private firstV = NaN;
  private lastV = NaN;

  /**
   * @param durationNs span of the run (integer ns); later points go to the last bucket.
   * @param maxPoints upper bound on emitted points (>= 4).
   */
  constructor(durationNs: number, maxPoints: number) {
    this.buckets = Math.max(2, Math.floor(maxPoints / 2) - 1);
    this.bucketNs = Math.max(1, Math.ceil(durationNs / this.buckets));
    this.minT = new Float64Array(this.buckets);
    this.minV = new Float64Array(this.buckets);
    this.maxT = new Float64Array(this.buckets);
    this.maxV = new Float64Array(this.buckets);
    this.used = new Uint8Array(this.buckets);
  }

  /** Records value v at time tNs if it differs from the last recorded value. */
  record(tNs: number, v: number): void {
    if (v === this.lastV) return;
    this.lastV = v;
    if (Number.isNaN(this.firstT)) {
      this.firstT = tNs;
      this.firstV = v;
      return;
    }
    let b = Math.floor(tNs / this.bucketNs);
    if (b >= this.buckets) b = this.buckets - 1;
    if (this.used[b] === 0) {
      this.used[b] = 1;
      this.minT[b] = this.maxT[b] = tNs;
      this.minV[b] = this.maxV[b] = v;
      return;
    }
    if (v < this.minV[b]!) {
      this.minV[b] = v;
      this.minT[b] = tNs;
    }
    if (v > this.maxV[b]!) {
      this.maxV[b] = v;
      this.maxT[b] = tNs;
    }
  }

  /** The recorded series, times in seconds. */
  toSeries(): Series {
    const t: number[] = [];
    const v: number[] = [];
    if (!Number.isNaN(this.firstT)) {
      t.push(nsToSeconds(this.firstT));
      v.push(this.firstV);
    }
    for (let b = 0; b < this.buckets; b++) {
      if (this.used[b] === 0) continue;
      const a = this.minT[b]! <= this.maxT[b]! ? 0 : 1;
      const t1 = a === 0 ? this.minT[b]! : this.maxT[b]!;
      const v1 = a === 0 ? this.minV[b]! : this.maxV[b]!;
      const t2 = a === 0 ? this.maxT[b]! : this.minT[b]!;
      const v2 = a === 0 ? this.maxV[b]! : this.minV[b]!;
      t.push(nsToSeconds(t1));
      v.push(v1);
      if (t2 !== t1 || v2 !== v1) {
        t.push(nsToSeconds(t2));
        v.push(v2);
      }
    }
    return { t, v };
  }
}
