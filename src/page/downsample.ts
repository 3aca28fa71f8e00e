import type { Series } from '../result/types.js';

/**
 * Reduce a series to at most about 2 x `buckets` points keeping each bucket's minimum and maximum
 * (in time order), plus the first and last points. A sawtooth keeps every peak and trough that is
 * wider than a bucket, which averaging or plain striding would shave off. O(n).
 */
export function minMaxDownsample(s: Series, buckets: number): Series {
  const n = s.t.length;
  if (n <= 2 * buckets + 2 || buckets < 1) return { t: s.t.slice(), v: s.v.slice() };
  const t0 = s.t[0]!;
  const span = s.t[n - 1]! - t0;
  const out: Series = { t: [s.t[0]!], v: [s.v[0]!] };
  let i = 1;
  for (let b = 0; b < buckets && i < n - 1; b++) {
    const end = b === buckets - 1 ? Infinity : t0 + (span * (b + 1)) / buckets;
    let iMin = -1;
    let iMax = -1;
    for (; i < n - 1 && s.t[i]! < end; i++) {
      if (iMin < 0 || s.v[i]! < s.v[iMin]!) iMin = i;
      if (iMax < 0 || s.v[i]! > s.v[iMax]!) iMax = i;
    }
    if (iMin < 0) continue;
    const [a, c] = iMin <= iMax ? [iMin, iMax] : [iMax, iMin];
    out.t.push(s.t[a]!);
    out.v.push(s.v[a]!);
    if (c !== a) {
      out.t.push(s.t[c]!);
      out.v.push(s.v[c]!);
    }
  }
  out.t.push(s.t[n - 1]!);
  out.v.push(s.v[n - 1]!);
  return out;
}

/** Round to `digits` significant digits: chart data need not carry 17 digits into the page. */
export function roundSig(x: number, digits = 4): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  return Number(x.toPrecision(digits));
}
