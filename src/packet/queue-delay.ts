import { TraceRecorder } from '../engine/trace.js';
import type { QueueDelaySummary, Series } from '../result/types.js';

/**
 * Queueing delay (sojourn time: from arrival at the traced queue to the start of transmission) of
 * every data packet through the traced queue: a series over the run, and per flow and overall the
 * mean and the 99th percentile over the measurement interval.
 *
 * Percentiles come from per-flow histograms with bins 2% wide on a log scale from 1 us to ~100 s
 * (one bin below 1 us, which holds the packets that did not wait), so p99 is exact to 1% whatever
 * the number of packets; each flow's histogram (3.7 kB) is made on its first packet. Means are exact.
 */
const FIRST_EDGE_S = 1e-6;
const RATIO = 1.02;
const LOG_RATIO = Math.log(RATIO);
const BINS = 2 + Math.ceil(Math.log(1e8) / LOG_RATIO);
/** Slots of the sojourn-to-bin cache (a power of two). */
const BIN_CACHE = 4096;

/** Histogram bin of a delay in seconds (0 below 1 us). */
export function delayBin(s: number): number {
  if (s < FIRST_EDGE_S) return 0;
  return Math.min(BINS - 1, 1 + Math.floor(Math.log(s / FIRST_EDGE_S) / LOG_RATIO));
}

/** The value a bin stands for: 0 for bin 0, else its geometric middle. */
export function delayOfBin(bin: number): number {
  return bin === 0 ? 0 : FIRST_EDGE_S * Math.pow(RATIO, bin - 0.5);
}

export class QueueDelayStats {
  private readonly series: TraceRecorder;
  private readonly histograms: (Uint32Array | null)[];
  private readonly sums: Float64Array;
  private readonly counts: Float64Array;
  /**
   * Bins of recently seen sojourn times, direct-mapped on their low bits: a FIFO's sojourns repeat
   * (multiples of a serialisation time, give or take the arrival phase), and a hit saves the
   * Math.log of {@link delayBin}, which was ~4% of the large case's events. Exact: the cache holds the
   * sojourn (integer ns) it computed each bin from.
   */
  private readonly binOfNs = new Float64Array(BIN_CACHE).fill(-1);
  private readonly binCached = new Int32Array(BIN_CACHE);

  constructor(
    flows: number,
    private readonly fromNs: number,
    durationNs: number,
    maxPoints: number,
  ) {
    // Recorded in ns, emitted in s: a sojourn in ns is passed unboxed (TraceGroup's unitsPerValue).
    this.series = new TraceRecorder(durationNs, maxPoints, 1e9);
    this.histograms = new Array<Uint32Array | null>(flows).fill(null);
    this.sums = new Float64Array(flows);
    this.counts = new Float64Array(flows);
  }

  /**
   * A data packet of `flow` starts its transmission now (`clock`'s time) after waiting sojournNs.
   * The clock rather than its time: a time past 2^31 ns handed to a call V8 did not inline is boxed
   * in a new heap number, one per traced packet (issue 24, bench/packet.ts --alloc).
   */
  record(flow: number, clock: { readonly nowNs: number }, sojournNs: number): void {
    this.series.recordNow(clock, sojournNs);
    if (clock.nowNs < this.fromNs) return;
    const s = sojournNs / 1e9;
    let h = this.histograms[flow];
    if (!h) this.histograms[flow] = h = new Uint32Array(BINS);
    const slot = sojournNs & (BIN_CACHE - 1);
    let bin: number;
    if (this.binOfNs[slot] === sojournNs) bin = this.binCached[slot]!;
    else {
      bin = delayBin(s);
      this.binOfNs[slot] = sojournNs;
      this.binCached[slot] = bin;
    }
    h[bin]!++;
    this.sums[flow]! += s;
    this.counts[flow]!++;
  }

  toSeries(): Series {
    return this.series.toSeries();
  }

  /** Flow i's mean and p99 (null when none of its packets crossed the queue in the interval). */
  flowSummary(flow: number): QueueDelaySummary | null {
    const h = this.histograms[flow];
    if (!h) return null;
    return { meanS: this.sums[flow]! / this.counts[flow]!, p99S: percentile(h, this.counts[flow]!, 0.99), packets: this.counts[flow]! };
  }

  /** All flows together. */
  summary(): QueueDelaySummary | null {
    const all = new Float64Array(BINS);
    let n = 0;
    let sum = 0;
    this.histograms.forEach((h, i) => {
      if (!h) return;
      for (let b = 0; b < BINS; b++) all[b]! += h[b]!;
      n += this.counts[i]!;
      sum += this.sums[i]!;
    });
    if (n === 0) return null;
    return { meanS: sum / n, p99S: percentile(all, n, 0.99), packets: n };
  }
}

/** The q-quantile of a histogram of n samples: the bin holding the ceil(q n)-th smallest. */
function percentile(h: ArrayLike<number>, n: number, q: number): number {
  const rank = Math.ceil(q * n);
  let seen = 0;
  for (let b = 0; b < h.length; b++) {
    seen += h[b]!;
    if (seen >= rank) return delayOfBin(b);
  }
  return delayOfBin(h.length - 1);
}
