/**
 * Frequency-domain tools of the linear stability analysis (src/theory/stability.ts): complex
 * arithmetic on pairs, small complex linear systems, the delay system's characteristic matrix, a
 * loop's gain and phase margins with its Nyquist winding, and the open loop's right-half-plane test.
 * Nothing here knows a model: it works on matrices and on a function L(jw).
 */

/** A complex number as a pair; the loop is evaluated at thousands of frequencies, mathjs's Complex and inv cost 1 ms each there. */
export type Cx = [number, number];
export const cmul = (a: Cx, b: Cx): Cx => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
export const cdiv = (a: Cx, b: Cx): Cx => {
  const d = b[0] * b[0] + b[1] * b[1];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
};
export const cabs = (a: Cx): number => Math.hypot(a[0], a[1]);

/**
 * Solves M x = b (complex, small: Gaussian elimination with partial pivoting); also returns det M.
 * The matrix is held as two flat arrays (real, imaginary; rows swapped through an index), and each
 * product and quotient is written out with the very operations of {@link cmul} and {@link cdiv} in
 * their order, so the result is the same to the bit as with pairs, without a pair allocated per
 * operation (it runs at every frequency of every loop: ~17% of the seed study's stability analyses,
 * and much of their garbage).
 */
export function solveC(M: Cx[][], b: Cx[]): { x: Cx[]; det: Cx } {
  const n = b.length;
  const w = n + 1;
  const re = new Float64Array(n * w);
  const im = new Float64Array(n * w);
  for (let i = 0; i < n; i++) {
    const r = M[i]!;
    for (let j = 0; j < n; j++) {
      re[i * w + j] = r[j]![0];
      im[i * w + j] = r[j]![1];
    }
  }
  return solveFilled(n, re, im, b);
}

/** solveC(charMatrix(A0, A1, w, tau), b), the characteristic matrix written straight into the flat arrays (the same values). */
export function charSolve(A0: number[][], A1: number[][], wRadS: number, tau: number, b: Cx[]): { x: Cx[]; det: Cx } {
  const n = b.length;
  const { re, im } = charFlat(A0, A1, wRadS, tau, n + 1);
  return solveFilled(n, re, im, b);
}

/** det charMatrix(A0, A1, w, tau), as solveC gives it (the right-hand side never enters the pivots or the determinant). */
export function charDet(A0: number[][], A1: number[][], wRadS: number, tau: number): Cx {
  const n = A0.length;
  const { re, im } = charFlat(A0, A1, wRadS, tau, n);
  const row = Array.from({ length: n }, (_, i) => i * n);
  return eliminate(n, n, re, im, row) ?? [0, 0];
}

/** sI - A0 - A1 e^{-s tau} at s = jw in rows of `width` (charMatrix's expressions, element for element). */
function charFlat(A0: number[][], A1: number[][], wRadS: number, tau: number, width: number): { re: Float64Array; im: Float64Array } {
  const n = A0.length;
  const e0 = Math.cos(wRadS * tau);
  const e1 = -Math.sin(wRadS * tau);
  const re = new Float64Array(n * width);
  const im = new Float64Array(n * width);
  for (let i = 0; i < n; i++) {
    const a0 = A0[i]!;
    const a1 = A1[i]!;
    for (let j = 0; j < n; j++) {
      // 0 - a, not -a: sI has no real part, and 0 - 0 is +0 where -0 would not be.
      re[i * width + j] = 0 - a0[j]! - a1[j]! * e0;
      im[i * width + j] = (i === j ? wRadS : 0) - a1[j]! * e1;
    }
  }
  return { re, im };
}

/** The elimination and back substitution of solveC on a filled matrix (rows of n + 1, the last column b's). */
function solveFilled(n: number, re: Float64Array, im: Float64Array, b: Cx[]): { x: Cx[]; det: Cx } {
  const w = n + 1;
  const row = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    row[i] = i * w;
    re[i * w + n] = b[i]![0];
    im[i * w + n] = b[i]![1];
  }
  const det = eliminate(n, w, re, im, row);
  if (!det) return { x: b.map(() => [NaN, NaN] as Cx), det: [0, 0] };
  const x: Cx[] = new Array(n);
  for (let r = n - 1; r >= 0; r--) {
    const or = row[r]!;
    let accR = re[or + n]!;
    let accI = im[or + n]!;
    for (let j = r + 1; j < n; j++) {
      // acc -= cmul(a[r][j], x[j])
      const ar = re[or + j]!;
      const ai = im[or + j]!;
      const xj = x[j]!;
      accR = accR - (ar * xj[0] - ai * xj[1]);
      accI = accI - (ar * xj[1] + ai * xj[0]);
    }
    // x[r] = cdiv(acc, a[r][r])
    const br = re[or + r]!;
    const bi = im[or + r]!;
    const d = br * br + bi * bi;
    x[r] = [(accR * br + accI * bi) / d, (accI * br - accR * bi) / d];
  }
  return { x, det };
}

/** Forward elimination with partial pivoting over the `width` columns of rows at `row` (swapped in place); det, or null at a zero pivot. */
function eliminate(n: number, width: number, re: Float64Array, im: Float64Array, row: number[]): Cx | null {
  let dr = 1;
  let di = 0;
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.hypot(re[row[r]! + c]!, im[row[r]! + c]!) > Math.hypot(re[row[piv]! + c]!, im[row[piv]! + c]!)) piv = r;
    if (Math.hypot(re[row[piv]! + c]!, im[row[piv]! + c]!) === 0) return null;
    if (piv !== c) {
      const t = row[piv]!;
      row[piv] = row[c]!;
      row[c] = t;
      dr = -dr;
      di = -di;
    }
    const oc = row[c]!;
    const pr = re[oc + c]!;
    const pi = im[oc + c]!;
    // det = cmul(det, pivot)
    const ndr = dr * pr - di * pi;
    di = dr * pi + di * pr;
    dr = ndr;
    for (let r = c + 1; r < n; r++) {
      const or = row[r]!;
      // k = cdiv(a[r][c], pivot)
      const ar = re[or + c]!;
      const ai = im[or + c]!;
      const d = pr * pr + pi * pi;
      const kr = (ar * pr + ai * pi) / d;
      const ki = (ai * pr - ar * pi) / d;
      for (let j = c; j < width; j++) {
        // a[r][j] -= cmul(k, a[c][j])
        const cr = re[oc + j]!;
        const ci = im[oc + j]!;
        re[or + j] = re[or + j]! - (kr * cr - ki * ci);
        im[or + j] = im[or + j]! - (kr * ci + ki * cr);
      }
    }
  }
  return [dr, di];
}

/** sI - A0 - A1 e^{-s tau} at s = jw. */
export function charMatrix(A0: number[][], A1: number[][], w: number, tau: number): Cx[][] {
  const e: Cx = [Math.cos(w * tau), -Math.sin(w * tau)];
  return A0.map((r, i) => r.map((a, j) => [0 - a - A1[i]![j]! * e[0], (i === j ? w : 0) - A1[i]![j]! * e[1]] as Cx));
}

/** The margins of a loop L(jw) whose delay is about R0 (its frequency grid spans 1e-4 to 1e3 over R0). */
export interface Margins {
  dcGain: number;
  crossoverRadS: number | null;
  phaseMarginDeg: number;
  phaseCrossoverRadS: number | null;
  gainMargin: number;
  /** Encirclements of -1 by L(jw) over w in (-inf, inf) (Nyquist). */
  encirclements: number;
  /** |L| < 1 at the top of the grid (the contour's large arc adds nothing). */
  rollsOff: boolean;
  response: { wRadS: number; re: number; im: number }[];
}

/** Gain and phase margins and the Nyquist winding of `L` (used for the models' loop and for Hollot et al.'s closed form alike). */
export function loopMargins(L: (w: number) => Cx, R0: number, originPoles = 0): Margins {
  const g = sampleLoop(L, R0);
  const { ws, mag, n } = g;
  const { crossoverRadS, phaseCrossoverRadS } = crossovers(L, g);
  // From the unwrapped phase: a loop whose gain crosses 1 only far out, after the delay has turned
  // the phase many times (drop-tail's cliff), has a margin of minus thousands of degrees.
  const phaseMarginDeg = crossoverRadS === null ? Infinity : 180 + (g.unwrapAt(crossoverRadS, Math.max(0, ws.findIndex((w) => w >= crossoverRadS!))) * 180) / Math.PI;
  const gainMargin = phaseCrossoverRadS === null ? Infinity : 1 / cabs(L(phaseCrossoverRadS));
  return {
    dcGain: cabs(L(0)),
    crossoverRadS,
    phaseMarginDeg,
    phaseCrossoverRadS,
    gainMargin,
    encirclements: encirclementsOfMinusOne(g.vals, originPoles),
    rollsOff: mag[n - 1]! < 1,
    response: ws.filter((_, k) => k % 40 === 0).map((w) => {
      const v = L(w);
      return { wRadS: w, re: v[0], im: v[1] };
    }),
  };
}

/** `a` shifted by whole turns to within half a turn of `ref` (phase unwrapping). */
function unwrapNear(a: number, ref: number): number {
  while (a - ref > Math.PI) a -= 2 * Math.PI;
  while (a - ref < -Math.PI) a += 2 * Math.PI;
  return a;
}

/** L on the frequency grid (1e-4 to 1e3 over R0, log-spaced), its gain, and its phase unwrapped and measured from w -> 0. */
interface LoopSamples {
  n: number;
  ws: number[];
  vals: Cx[];
  mag: number[];
  /** Unwrapped phase, 0 at w -> 0 for a negative-feedback loop. */
  ph: number[];
  /** The phase of L at w, unwrapped near grid point k. */
  unwrapAt(w: number, k: number): number;
}

function sampleLoop(L: (w: number) => Cx, R0: number): LoopSamples {
  const n = 2000;
  const ws = Array.from({ length: n }, (_, k) => (1e-4 / R0) * Math.pow(1e7, k / (n - 1)));
  const vals = ws.map(L);
  const mag = vals.map(cabs);
  const phase: number[] = [];
  let prev = Math.atan2(vals[0]![1], vals[0]![0]);
  phase.push(prev);
  for (let k = 1; k < n; k++) {
    const a = unwrapNear(Math.atan2(vals[k]![1], vals[k]![0]), prev);
    phase.push(a);
    prev = a;
  }
  // The phase at w -> 0 is 0 for a negative-feedback loop; measure the margins from there.
  const offset = Math.round(phase[0]! / (2 * Math.PI)) * 2 * Math.PI;
  const ph = phase.map((a) => a - offset);
  const unwrapAt = (w: number, k: number): number => {
    const v = L(w);
    return unwrapNear(Math.atan2(v[1], v[0]) - offset, ph[k]!);
  };
  return { n, ws, vals, mag, ph, unwrapAt };
}

/** The gain crossover (|L| falls through 1) and the phase crossover (the phase falls through -pi), each refined by bisection; null where none. */
function crossovers(L: (w: number) => Cx, g: LoopSamples): { crossoverRadS: number | null; phaseCrossoverRadS: number | null } {
  const { n, ws, mag, ph } = g;
  const refine = (k: number, f: (w: number) => number): number => {
    let lo = ws[k - 1]!;
    let hi = ws[k]!;
    const flo = f(lo);
    for (let i = 0; i < 60; i++) {
      const mid = Math.sqrt(lo * hi);
      if (Math.sign(f(mid)) === Math.sign(flo)) lo = mid;
      else hi = mid;
    }
    return Math.sqrt(lo * hi);
  };
  let crossoverRadS: number | null = null;
  for (let k = 1; k < n && crossoverRadS === null; k++) if (mag[k - 1]! >= 1 && mag[k]! < 1) crossoverRadS = refine(k, (w) => Math.log(cabs(L(w))));
  let phaseCrossoverRadS: number | null = null;
  for (let k = 1; k < n && phaseCrossoverRadS === null; k++) {
    if (ph[k - 1]! > -Math.PI && ph[k]! <= -Math.PI) phaseCrossoverRadS = refine(k, (w) => g.unwrapAt(w, k) + Math.PI);
  }
  return { crossoverRadS, phaseCrossoverRadS };
}

/**
 * Nyquist: encirclements of -1, the winding of 1 + L(jw) around 0 over w in (-inf, inf), twice that
 * over (0, inf) by symmetry (L(0) real); L -> 0 at high frequency, so the contour's arc adds nothing.
 */
function encirclementsOfMinusOne(vals: readonly Cx[], originPoles: number): number {
  let wind = 0;
  let a0 = Math.atan2(vals[0]![1], 1 + vals[0]![0]);
  for (let k = 1; k < vals.length; k++) {
    const a = Math.atan2(vals[k]![1], 1 + vals[k]![0]);
    let d = a - a0;
    while (d > Math.PI) d -= 2 * Math.PI;
    while (d < -Math.PI) d += 2 * Math.PI;
    wind += d;
    a0 = a;
  }
  // A pole of L at s = 0 (an integrating AQM: PIE's drop probability) lies on the contour; it is
  // indented to the right by a small half-circle, on which L ~ K / s turns by -pi per such pole
  // whatever the sign of K (Franklin, Powell, Emami-Naeini, 6.3): that half-turn joins the two halves.
  return Math.round((2 * wind - originPoles * Math.PI) / (2 * Math.PI));
}

/**
 * Whether the open loop (plant with p held, AQM on its own) is stable: the plant's characteristic
 * function det(sI - A0 - A1 e^{-s R0}) has no zero with Re s > 0 (argument principle on the right
 * half-plane's boundary, large semicircle neglected: the delayed part is bounded there), and the
 * AQM's matrix has eigenvalues in the left half-plane (a first-order filter: its diagonal).
 */
export function openLoopPoles(A0: number[][], A1: number[][], Gz: number[][], R0: number): boolean {
  // A pure integrator (a zero row: s = 0, on the indented contour, see loopMargins) is not in the right half-plane.
  for (let i = 0; i < Gz.length; i++) if (!(Gz[i]![i]! < 0) && !Gz[i]!.every((g) => g === 0)) return false;
  const n = A0.length;
  const det = (w: number): Cx => charDet(A0, A1, w, R0);
  // det ~ (jw)^n at large |w|: its argument changes by pi (n - 2 Z) along the imaginary axis, Z the
  // zeros with Re s > 0, half of that over (0, W) by conjugate symmetry.
  const m = 4000;
  const W = 1e4 / R0;
  let wind = 0;
  let prev = det(0);
  for (let k = 1; k <= m; k++) {
    const w = (W * k * k) / (m * m);
    const d = det(w);
    let a = Math.atan2(d[1], d[0]) - Math.atan2(prev[1], prev[0]);
    while (a > Math.PI) a -= 2 * Math.PI;
    while (a < -Math.PI) a += 2 * Math.PI;
    wind += a;
    prev = d;
  }
  const rhpZeros = n / 2 - wind / Math.PI;
  return Math.abs(rhpZeros) < 0.5;
}
