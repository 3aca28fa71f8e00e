/** Did g cross zero between two consecutive evaluations, in the wanted direction? */
export function crossed(ga: number, gb: number, direction: 'rising' | 'falling' | 'either', strict: boolean): boolean {
  if (!Number.isFinite(ga) || !Number.isFinite(gb)) return false;
  const rising = strict ? ga <= 0 && gb > 0 : (ga < 0 && gb >= 0) || (ga === 0 && gb > 0);
  const falling = strict ? ga >= 0 && gb < 0 : (ga > 0 && gb <= 0) || (ga === 0 && gb < 0);
  if (direction === 'rising') return rising;
  if (direction === 'falling') return falling;
  return rising || falling;
}

/**
 * Locate a sign change of g on [a, b] (g(a) = ga, g(b) = gb of opposite signs or gb = 0) with the
 * Illinois variant of regula falsi (Dowell & Jarratt 1971): superlinear, and bracketing like bisection.
 * Returns the right end of the final bracket, so the located time is at or just after the crossing
 * (an event then sees the condition already true).
 */
export function findRoot(g: (s: number) => number, a: number, b: number, ga: number, gb: number, tol: number): number {
  if (gb === 0) return b;
  const b0 = b;
  const r = illinois(g, a, b, ga, gb, tol);
  // A few ulps past the crossing, so that right-hand sides written with the strict inequality
  // (`t - tl > R`) already see the new branch at the restart point: a step that starts on the left
  // limit of a jump would need an ever smaller step to pass it.
  return Math.min(b0, r + 4 * Number.EPSILON * Math.max(1, Math.abs(r)));
}

function illinois(g: (s: number) => number, a: number, b: number, ga: number, gb: number, tol: number): number {
  let side = 0;
  for (let iter = 0; iter < 100 && b - a > tol; iter++) {
    let c = (a * gb - b * ga) / (gb - ga);
    if (!(c > a && c < b)) c = 0.5 * (a + b);
    const gc = g(c);
    if (gc === 0) return c;
    if (Math.sign(gc) === Math.sign(gb)) {
      b = c;
      gb = gc;
      if (side === -1) ga /= 2;
      side = -1;
    } else {
      a = c;
      ga = gc;
      if (side === 1) gb /= 2;
      side = 1;
    }
  }
  return b;
}
