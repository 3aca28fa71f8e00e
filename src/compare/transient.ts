import type { Series } from '../result/types.js';

/** Relative drop that counts as "the window went down", above solver and decimation noise. */
export const DROP_TOLERANCE = 1e-3;

/** Stated in reports next to the steady-state figures. */
export const TRANSIENT_METHOD =
  'end of the first slow start = first time cwnd decreases by more than 0.1% ' +
  '(the first loss reaction: a window cut in the packet engine, the peak of the fluid window) ' +
  'or reaches ssthresh; the steady-state window starts at the later of the two engines\' ends';

/**
 * First time the window leaves its initial slow start: the first sample where cwnd is below the
 * previous one by more than DROP_TOLERANCE, or where it is at or above a finite ssthresh
 * (HyStart or a configured initial ssthresh end slow start without a loss). Null if it never does.
 */
export function slowStartEnd(cwnd: Series, ssthresh?: Series): number | null {
  const { t, v } = cwnd;
  let end: number | null = null;
  for (let i = 1; i < v.length; i++) {
    if (v[i]! < v[i - 1]! * (1 - DROP_TOLERANCE)) {
      end = t[i - 1]!; // the peak: the loss reaction follows it
      break;
    }
  }
  if (ssthresh && ssthresh.t.length > 0) {
    // ssthresh is "unlimited" (huge or Infinity) until the first loss. Only a crossing from below
    // counts, so a model that reports ssthresh = cwnd throughout does not end slow start at t = 0.
    let k = 0;
    let wasBelow = false;
    for (let i = 0; i < v.length; i++) {
      const ti = t[i]!;
      if (end !== null && ti >= end) break;
      while (k + 1 < ssthresh.t.length && ssthresh.t[k + 1]! <= ti) k++;
      const th = ssthresh.v[k]!;
      const finite = Number.isFinite(th) && th > 0 && th < 1e15;
      if (finite && wasBelow && v[i]! >= th) {
        end = ti;
        break;
      }
      wasBelow = !finite || v[i]! < th;
    }
  }
  return end;
}
