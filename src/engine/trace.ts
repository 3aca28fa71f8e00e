import type { Series } from '../result/types.js';
import { nsToSeconds } from '../units.js';

/**
 * Bounded time-series recorders for record-on-change traces. The run's time span is cut into
 * maxPoints / 2 equal buckets; each bucket keeps only its minimum and its maximum point (in time
 * order), so a trace never holds more than maxPoints points however long the run, and the peaks and
 * troughs of a sawtooth survive decimation (a plain every-k-th sample would cut them off).
 * The first point of each series is always kept.
 *
 * A {@link TraceGroup} records several series on one clock (a flow's cwnd, ssthresh, srtt and
 * inflight, recorded together after every ACK): their state sits in one typed array and the bucket
 * is found once per time step, not once per series. With 1000 flows a flow's ACK lands in a new
 * bucket nearly every time; four recorder objects and eight growing arrays per flow made the traces
 * ~20% of a run. {@link TraceRecorder} is a group of one.
 */

/** Numbers of state per series: the last recorded point, the open bucket and its extremes. */
const S = 8;
const LAST_V = 0;
/** Bucket index of the series' open bucket; -1 before its first bucket (or before its first point). */
const CUR = 1;
const MIN_T = 2;
const MIN_V = 3;
const MAX_T = 4;
const MAX_V = 5;
/** 1 once the series' first point (kept outside the buckets) is recorded. */
const STARTED = 6;

/**
 * Thrown from here, not from record: with the template literal inside record (called four times per
 * ACK by FlowStats, once per packet by the queue traces) V8 compiled record poorly (a microbenchmark
 * of four series: ~60 ns a call instead of ~6), and the large case of bench/packet.ts ran 1.38x
 * slower (in-process A/B, 6 alternating rounds, 1.27-1.41x).
 */
function timeRanBack(tNs: number, lastNs: number): never {
  throw new RangeError(`trace point at ${tNs} ns is before the previous one (${lastNs} ns)`);
}

export class TraceGroup {
  private readonly bucketNs: number;
  private readonly buckets: number;
  private readonly maxPoints: number;
  private readonly state: Float64Array;
  /** Per series, the kept points of its finished buckets (and its first point) as [tNs, v] pairs. */
  private readonly points: Float64Array[] = [];
  /** Numbers used in each points array (2 per point). */
  private readonly used: Int32Array;
  /** The bucket the group's clock is in (-1: none yet) and its end (exclusive, ns). */
  private cur = -1;
  private curEndNs = -Infinity;
  private lastT = -Infinity;
  /** Scratch for {@link extremes}: no allocation per flushed bucket. */
  private readonly ext = new Float64Array(4);
  /** Recorded values are divided by this on output (see the constructor). */
  private readonly unitsPerValue: number;

  /**
   * @param series how many series the group records.
   * @param durationNs span of the run (integer ns); later points go to the last bucket.
   * @param maxPoints upper bound on emitted points per series (>= 4).
   * @param unitsPerValue recorded values are integers in units of 1 / unitsPerValue, emitted divided
   *   by it (the queueing delay: recorded in ns, emitted in s). Recording the integer keeps it a small
   *   integer that V8 passes unboxed to a call it did not inline (a fractional number is a new heap
   *   number per call), and keeps the same points: x -> x / unitsPerValue is increasing and, for
   *   integers below 2^53 with a power-of-ten divisor like 1e9, one-to-one (consecutive quotients are
   *   1e-9 apart, many ulps at any delay a run can have), so the change test, each bucket's minimum and maximum
   *   and the emitted numbers are those of recording the quotient.
   */
  constructor(series: number, durationNs: number, maxPoints: number, unitsPerValue = 1) {
    this.unitsPerValue = unitsPerValue;
    this.buckets = Math.max(2, Math.floor(maxPoints / 2) - 1);
    this.bucketNs = Math.max(1, Math.ceil(durationNs / this.buckets));
    // The first point plus at most two per bucket.
    this.maxPoints = 1 + 2 * this.buckets;
    this.state = new Float64Array(S * series);
    this.used = new Int32Array(series);
    for (let k = 0; k < series; k++) {
      this.state[S * k + LAST_V] = NaN;
      this.state[S * k + CUR] = -1;
      this.points.push(new Float64Array(2 * Math.min(8, this.maxPoints)));
    }
  }

  /**
   * Records value v of series k at time tNs if it differs from the series' last recorded value.
   * @throws RangeError if tNs is before the group's previous point (the simulator's clock never runs back).
   */
  record(k: number, tNs: number, v: number): void {
    if (tNs < this.lastT) timeRanBack(tNs, this.lastT);
    const st = this.state;
    const o = S * k;
    if (v === st[o + LAST_V]) return;
    st[o + LAST_V] = v;
    this.lastT = tNs;
    if (tNs >= this.curEndNs) this.advance();
    // Most points land in the series' open bucket: two comparisons, no division.
    if (st[o + CUR] === this.cur) {
      if (v < st[o + MIN_V]!) {
        st[o + MIN_V] = v;
        st[o + MIN_T] = tNs;
      }
      if (v > st[o + MAX_V]!) {
        st[o + MAX_V] = v;
        st[o + MAX_T] = tNs;
      }
      return;
    }
    this.open(k, v);
  }

  /**
   * {@link record} at `clock`'s time, read here: a time past 2^30 ns handed to a call V8 did not
   * inline is boxed in a new heap number (one per traced packet; bench/packet.ts --target --alloc).
   * The same code as record, not a call to it, for that reason.
   */
  recordNow(k: number, clock: { readonly nowNs: number }, v: number): void {
    const tNs = clock.nowNs;
    if (tNs < this.lastT) timeRanBack(tNs, this.lastT);
    const st = this.state;
    const o = S * k;
    if (v === st[o + LAST_V]) return;
    st[o + LAST_V] = v;
    this.lastT = tNs;
    if (tNs >= this.curEndNs) this.advance();
    if (st[o + CUR] === this.cur) {
      if (v < st[o + MIN_V]!) {
        st[o + MIN_V] = v;
        st[o + MIN_T] = tNs;
      }
      if (v > st[o + MAX_V]!) {
        st[o + MAX_V] = v;
        st[o + MAX_T] = tNs;
      }
      return;
    }
    this.open(k, v);
  }

  /** The recorded series k, times in seconds (recording may go on afterwards). */
  toSeries(k: number): Series {
    const p = this.points[k]!;
    const n = this.used[k]!;
    const t: number[] = [];
    const v: number[] = [];
    const u = this.unitsPerValue;
    for (let i = 0; i < n; i += 2) {
      t.push(nsToSeconds(p[i]!));
      v.push(u === 1 ? p[i + 1]! : p[i + 1]! / u);
    }
    const o = S * k;
    const st = this.state;
    if (st[o + CUR]! >= 0) {
      const e = this.ext;
      const two = this.extremes(o);
      t.push(nsToSeconds(e[0]!));
      v.push(u === 1 ? e[1]! : e[1]! / u);
      if (two) {
        t.push(nsToSeconds(e[2]!));
        v.push(u === 1 ? e[3]! : e[3]! / u);
      }
    }
    return { t, v };
  }

  /**
   * Moves the group's clock to the bucket of its last point's time (lastT; times never decrease, so
   * it only moves on). advance and open read the time from lastT rather than take it: with the time
   * an argument of both calls, V8 boxed it once at the branch both calls follow, i.e. on every
   * changed value (~one heap number per traced packet and per changed flow series); a microbenchmark
   * of 2e7 recordNow calls at times past 2^30 ns ran 300 scavenges with the argument, 5 without.
   */
  private advance(): void {
    const tNs = this.lastT;
    let b = Math.floor(tNs / this.bucketNs);
    if (b >= this.buckets) b = this.buckets - 1;
    this.cur = b;
    // The last bucket takes every later point.
    this.curEndNs = b === this.buckets - 1 ? Infinity : (b + 1) * this.bucketNs;
  }

  /** Series k's first point (value v at lastT), or its first of a later bucket: flush its open bucket and start the next. */
  private open(k: number, v: number): void {
    const tNs = this.lastT;
    const st = this.state;
    const o = S * k;
    if (st[o + STARTED] === 0) {
      // The series' first point is kept outside the buckets.
      st[o + STARTED] = 1;
      this.append(k, tNs, v);
      return;
    }
    if (st[o + CUR]! >= 0) {
      const e = this.ext;
      const two = this.extremes(o);
      this.append(k, e[0]!, e[1]!);
      if (two) this.append(k, e[2]!, e[3]!);
    }
    st[o + CUR] = this.cur;
    st[o + MIN_T] = st[o + MAX_T] = tNs;
    st[o + MIN_V] = st[o + MAX_V] = v;
  }

  /**
   * The open bucket of the series at state offset o: its minimum and maximum in time order into
   * ext as [t1, v1, t2, v2]; returns whether they are two points (one if they coincide).
   */
  private extremes(o: number): boolean {
    const st = this.state;
    const e = this.ext;
    const minT = st[o + MIN_T]!;
    const maxT = st[o + MAX_T]!;
    const minFirst = minT <= maxT;
    e[0] = minFirst ? minT : maxT;
    e[1] = minFirst ? st[o + MIN_V]! : st[o + MAX_V]!;
    e[2] = minFirst ? maxT : minT;
    e[3] = minFirst ? st[o + MAX_V]! : st[o + MIN_V]!;
    return e[2] !== e[0] || e[3] !== e[1];
  }

  private append(k: number, tNs: number, v: number): void {
    let p = this.points[k]!;
    const n = this.used[k]!;
    if (n === p.length) {
      // Doubling, but never past what the series can keep.
      const grown = new Float64Array(Math.min(2 * p.length, 2 * this.maxPoints));
      grown.set(p);
      this.points[k] = p = grown;
    }
    p[n] = tNs;
    p[n + 1] = v;
    this.used[k] = n + 2;
  }
}

/** One record-on-change series (the queue trace): a {@link TraceGroup} of one. */
export class TraceRecorder {
  private readonly group: TraceGroup;

  /**
   * @param durationNs span of the run (integer ns); later points go to the last bucket.
   * @param maxPoints upper bound on emitted points (>= 4).
   * @param unitsPerValue see {@link TraceGroup}'s constructor.
   */
  constructor(durationNs: number, maxPoints: number, unitsPerValue = 1) {
    this.group = new TraceGroup(1, durationNs, maxPoints, unitsPerValue);
  }

  /**
   * Records value v at time tNs if it differs from the last recorded value.
   * @throws RangeError if tNs is before the previous point (the simulator's clock never runs back).
   */
  record(tNs: number, v: number): void {
    this.group.record(0, tNs, v);
  }

  /** {@link record} at `clock`'s time, read here: a time passed to a call V8 did not inline is boxed in a new heap number. */
  recordNow(clock: { readonly nowNs: number }, v: number): void {
    this.group.recordNow(0, clock, v);
  }

  /** The recorded series, times in seconds (recording may go on afterwards). */
  toSeries(): Series {
    return this.group.toSeries(0);
  }
}
