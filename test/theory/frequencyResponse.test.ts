import { describe, expect, it } from 'vitest';
import { cdiv, charDet, charMatrix, charSolve, cmul, solveC, type Cx } from '../../src/theory/frequencyResponse.js';

/** A seeded stream of numbers in (-1, 1) (xorshift32), for matrices that are the same on every run. */
function stream(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 31 - 1;
  };
}

/** Gaussian elimination with pairs, as cmul and cdiv compute (the reference the flat arrays must equal to the bit). */
function solveWithPairs(M: Cx[][], b: Cx[]): { x: Cx[]; det: Cx } {
  const n = b.length;
  const a = M.map((r, i) => [...r.map((c) => [c[0], c[1]] as Cx), [b[i]![0], b[i]![1]] as Cx]);
  const abs = (z: Cx) => Math.hypot(z[0], z[1]);
  let det: Cx = [1, 0];
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (abs(a[r]![c]!) > abs(a[piv]![c]!)) piv = r;
    if (abs(a[piv]![c]!) === 0) return { x: b.map(() => [NaN, NaN] as Cx), det: [0, 0] };
    if (piv !== c) {
      [a[piv], a[c]] = [a[c]!, a[piv]!];
      det = [-det[0], -det[1]];
    }
    det = cmul(det, a[c]![c]!);
    for (let r = c + 1; r < n; r++) {
      const k = cdiv(a[r]![c]!, a[c]![c]!);
      for (let j = c; j <= n; j++) {
        const t = cmul(k, a[c]![j]!);
        a[r]![j] = [a[r]![j]![0] - t[0], a[r]![j]![1] - t[1]];
      }
    }
  }
  const x: Cx[] = new Array(n);
  for (let r = n - 1; r >= 0; r--) {
    let acc: Cx = [a[r]![n]![0], a[r]![n]![1]];
    for (let j = r + 1; j < n; j++) {
      const t = cmul(a[r]![j]!, x[j]!);
      acc = [acc[0] - t[0], acc[1] - t[1]];
    }
    x[r] = cdiv(acc, a[r]![r]!);
  }
  return { x, det };
}

describe('complex linear systems on flat arrays (src/theory/frequencyResponse.ts)', () => {
  it('solveC, charSolve and charDet give the pair arithmetic\'s solution and determinant to the bit, pivoting and singular matrices included', () => {
    const rnd = stream(24);
    const same = (a: unknown, b: unknown) => expect(Object.is(JSON.stringify(a), JSON.stringify(b))).toBe(true);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + (trial % 5);
      // Scales apart by decades, so that pivoting swaps rows; every 7th matrix has a zero row (singular).
      const A0 = Array.from({ length: n }, (_, i) => Array.from({ length: n }, () => (trial % 7 === 0 && i === n - 1 ? 0 : rnd() * 10 ** Math.round(3 * rnd()))));
      const A1 = Array.from({ length: n }, (_, i) => Array.from({ length: n }, () => (trial % 7 === 0 && i === n - 1 ? 0 : rnd())));
      const b = Array.from({ length: n }, () => [rnd(), rnd()] as Cx);
      const w = trial % 7 === 0 ? 0 : 10 ** (3 * rnd());
      const tau = 0.05 + Math.abs(rnd());
      const M = charMatrix(A0, A1, w, tau);
      const ref = solveWithPairs(M, b);
      same(solveC(M, b), ref);
      same(charSolve(A0, A1, w, tau, b), ref);
      same(charDet(A0, A1, w, tau), ref.det);
    }
  });

  it('solves a known system: [[1, j], [2, 1]] x = [1 + j, 3] has x = [1, 1], det 1 - 2j', () => {
    const { x, det } = solveC(
      [
        [[1, 0], [0, 1]],
        [[2, 0], [1, 0]],
      ],
      [[1, 1], [3, 0]],
    );
    expect(x[0]![0]).toBeCloseTo(1, 12);
    expect(x[0]![1]).toBeCloseTo(0, 12);
    expect(x[1]![0]).toBeCloseTo(1, 12);
    expect(x[1]![1]).toBeCloseTo(0, 12);
    expect(det[0]).toBeCloseTo(1, 12);
    expect(det[1]).toBeCloseTo(-2, 12);
  });
});
