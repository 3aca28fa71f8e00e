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
  /** Points of the finished buckets (and the first point), in time order: memory grows with what is kept. */
  private readonly t: number[] = [];
  private readonly v: number[] = [];
  /** The bucket being filled (-1: none yet) and its extremes. Times never decrease, so it only moves on. */
  private cur = -1;
  /** End (exclusive, ns) of the open bucket; -Infinity before the first bucket opens. */
  private curEndNs = -Infinity;
  private minT = 0;
  private minV = 0;
  private maxT = 0;
  private maxV = 0;
  private started = false;
  private lastT = -Infinity;
  private lastV = NaN;

  /**
   * @param durationNs span of the run (integer ns); later points go to the last bucket.
   * @param maxPoints upper bound on emitted points (>= 4).
   */
  constructor(durationNs: number, maxPoints: number) {
    this.buckets = Math.max(2, Math.floor(maxPoints / 2) - 1);
    this.bucketNs = Math.max(1, Math.ceil(durationNs / this.buckets));
  }

  /**
   * Records value v at time tNs if it differs from the last recorded value.
   * @throws RangeError if tNs is before the previous point (the simulator's clock never runs back).
   */
  record(tNs: number, v: number): void {
    if (v === this.lastV) return;
    if (tNs < this.lastT) throw new RangeError(`trace point at ${tNs} ns is before the previous one (${this.lastT} ns)`);
    this.lastV = v;
    this.lastT = tNs;
    // Most points land in the open bucket: one comparison, no division.
    if (tNs < this.curEndNs) {
      if (v < this.minV) {
        this.minV = v;
        this.minT = tNs;
      }
      if (v > this.maxV) {
        this.maxV = v;
        this.maxT = tNs;
      }
      return;
    }
    this.open(tNs, v);
  }

  /** The run's first point, or the first of a later bucket: flush the open bucket and start the next. */
  private open(tNs: number, v: number): void {
    if (!this.started) {
      // The run's first point is kept outside the buckets.
      this.started = true;
      this.t.push(nsToSeconds(tNs));
      this.v.push(v);
      return;
    }
    let b = Math.floor(tNs / this.bucketNs);
    if (b >= this.buckets) b = this.buckets - 1;
    if (this.cur >= 0) this.flush(this.t, this.v);
    this.cur = b;
    // The last bucket takes every later point.
    this.curEndNs = b === this.buckets - 1 ? Infinity : (b + 1) * this.bucketNs;
    this.minT = this.maxT = tNs;
    this.minV = this.maxV = v;
  }

  /** Appends the open bucket's minimum and maximum, in time order (one point if they coincide). */
  private flush(t: number[], v: number[]): void {
    const minFirst = this.minT <= this.maxT;
    const t1 = minFirst ? this.minT : this.maxT;
    const v1 = minFirst ? this.minV : this.maxV;
    const t2 = minFirst ? this.maxT : this.minT;
    const v2 = minFirst ? this.maxV : this.minV;
    t.push(nsToSeconds(t1));
    v.push(v1);
    if (t2 !== t1 || v2 !== v1) {
      t.push(nsToSeconds(t2));
      v.push(v2);
    }
  }

  /** The recorded series, times in seconds (recording may go on afterwards). */
  toSeries(): Series {
    const t = this.t.slice();
    const v = this.v.slice();
    if (this.cur >= 0) this.flush(t, v);
    return { t, v };
  }
}
