/**
 * A windowed running max (or min) filter, after Kathleen Nichols' algorithm as Linux implements it
 * in lib/win_minmax.c (used by BBR for its bandwidth max over 10 rounds and by TCP for its min RTT;
 * ns-3 ports it as WindowedFilter, windowed-filter.h). It keeps the best, second-best and third-best
 * samples of the window, each from a later time than the one before, so the estimate is the best
 * sample of the last `window` time units (rounds or seconds) in O(1) per update and O(1) memory.
 *
 * Time is whatever the caller counts in (BBR: packet-timed rounds; the min-RTT filter: seconds);
 * `window` is in the same unit.
 */
export class WindowedFilter {
  // Typed arrays and a flag rather than number arrays and a comparator closure: the rate sampler's
  // min filter and BBR's max filter share these call sites on every ACK, where two closures made
  // each comparison a polymorphic call.
  private readonly t = new Float64Array(3);
  private readonly v = new Float64Array(3);
  private readonly isMax: boolean;

  /**
   * @param kind 'max' keeps the largest sample (minmax_running_max), 'min' the smallest (minmax_running_min).
   * @param window length of the window, in the caller's time unit.
   * @param initial value before any sample, at time 0 (Linux minmax_reset(m, 0, 0) for BBR's bw).
   */
  constructor(
    readonly kind: 'max' | 'min',
    readonly window: number,
    initial: number,
  ) {
    this.isMax = kind === 'max';
    this.reset(0, initial);
  }

  /** a is at least as good as b (ties count: a newer equal sample replaces the older one). */
  private better(a: number, b: number): boolean {
    return this.isMax ? a >= b : a <= b;
  }

  /** The windowed best (s[0]). */
  get best(): number {
    return this.v[0]!;
  }

  /** Forgets every sample: `value` at `time` becomes the best, second and third (minmax_reset). */
  reset(time: number, value: number): void {
    for (let i = 0; i < 3; i++) {
      this.t[i] = time;
      this.v[i] = value;
    }
  }

  /**
   * A new sample (minmax_running_max / _min); the windowed best is then {@link best}. Nothing is
   * returned: a double returned from a call V8 does not inline is a new heap number, and BBR offers
   * its bandwidth sample on every ACK.
   */
  update(time: number, value: number): void {
    const t = this.t;
    const v = this.v;
    // A new best, or nothing left in the window: forget the earlier samples.
    if (this.better(value, v[0]!) || time - t[2]! > this.window) {
      this.reset(time, value);
      return;
    }
    if (this.better(value, v[1]!)) {
      t[2] = t[1] = time;
      v[2] = v[1] = value;
    } else if (this.better(value, v[2]!)) {
      t[2] = time;
      v[2] = value;
    }
    this.subwindowUpdate(time, value);
  }

  /** minmax_subwin_update: age the choices as the window passes. */
  private subwindowUpdate(time: number, value: number): void {
    const t = this.t;
    const v = this.v;
    const dt = time - t[0]!;
    if (dt > this.window) {
      // The whole window passed without a new best: the second choice moves up, the third too, and
      // this sample becomes the third; the new best may itself be too old, so once more.
      this.shift(time, value);
      if (time - t[0]! > this.window) this.shift(time, value);
    } else if (t[1] === t[0] && dt > this.window / 4) {
      // A quarter of the window without a second choice: take one from the second quarter.
      t[2] = t[1] = time;
      v[2] = v[1] = value;
    } else if (t[2] === t[1] && dt > this.window / 2) {
      // Half the window without a third choice: take one from the last half.
      t[2] = time;
      v[2] = value;
    }
  }

  private shift(time: number, value: number): void {
    const t = this.t;
    const v = this.v;
    t[0] = t[1]!;
    v[0] = v[1]!;
    t[1] = t[2]!;
    v[1] = v[2]!;
    t[2] = time;
    v[2] = value;
  }
}
