/**
 * How evenly flows share a bottleneck. Jain's fairness index (Jain, Chiu, Hawe 1984, DEC-TR-301,
 * eq. 1): J = (sum x)^2 / (n sum x^2), 1 when every flow gets the same, 1/n when one flow gets all.
 */

/** Jain's index of the allocations `x` (any unit); null when there is nothing to share (all zero, or none). */
export function jainIndex(x: readonly number[]): number | null {
  let sum = 0;
  let sumSq = 0;
  for (const v of x) {
    sum += v;
    sumSq += v * v;
  }
  return x.length > 0 && sumSq > 0 ? (sum * sum) / (x.length * sumSq) : null;
}

/** Each flow's fraction of the total (sums to 1); null entries when the total is zero. */
export function shares(x: readonly number[]): (number | null)[] {
  const total = x.reduce((a, v) => a + v, 0);
  return x.map((v) => (total > 0 ? v / total : null));
}
