import type { Propagation } from './propagate.js';

/** A time a few ulps of t (the unit of the landing margins below). */
export const ulp = (t: number): number => Number.EPSILON * Math.max(1, Math.abs(t));

/** Where the next step may go: its size and what it lands on (an echo, a forced stop, the end, or nothing). */
export interface StepPlan {
  /** The step to try. */
  hTry: number;
  /** The controller's proposal before a landing shortened it. */
  hProposed: number;
  /** The step ends on the target (a few ulps before the kink it guards). */
  landing: boolean;
  /** The target is an echo (else a stop or the end). */
  onEcho: boolean;
  /** Where a landing step ends. */
  tTarget: number;
  /** The next predicted echo, and the margin either side of it. */
  tEchoRaw: number;
  ulps: number;
  /** The next forced stop or timed event (or the end), and the margin before it (0 at the end). */
  tStop: number;
  stopUlps: number;
}

/**
 * The next step from t with the proposal h: a predicted echo is a kink, so the step ends a few ulps
 * before it (every stage on the left branch) and the step after restarts a few ulps after it (k1 on
 * the right branch), so no step mixes the two; a timed event or a forced stop `nextStop` likewise.
 */
export function planStep(t: number, h: number, t1: number, nextStop: number, prop: Propagation): StepPlan {
  // 32 ulps each side: the event that caused the echo was placed 4 ulps past its crossing, and t - lag
  // rounds; with 4 ulps the landing stages could already sit on the far side of the kink, and the
  // controller then shrank the step towards zero (normal with 10 Gbit/s access, reno: step collapse).
  // An echo whose landing point is already behind t (t sits within 32 ulps of it: a clock of period R
  // ticks on the echo of its previous tick) is reached: plan for the next one. Landing on it would be
  // a step of zero length, whose dense output divides by h = 0 (bbr3 with `period: R` failed so).
  let tEchoRaw = prop.nextPredicted(t + 16 * ulp(t));
  while (tEchoRaw - 32 * ulp(tEchoRaw) <= t) tEchoRaw = prop.nextPredicted(tEchoRaw);
  const ulps = 32 * ulp(tEchoRaw);
  const tEchoNext = tEchoRaw - ulps;
  const tStop = Math.min(t1, nextStop);
  // A timed event (a flow starting) or a forced stop is a switch of the rhs too: end the step 32 ulps
  // before it, so that no stage of the landing step (k7 sits at its end) sees the new branch and the
  // controller does not creep up on it; the step after starts exactly on it.
  const stopUlps = tStop < t1 ? 32 * ulp(tStop) : 0;
  const tStopLand = tStop - stopUlps;
  const onEcho = tEchoNext < tStopLand;
  const tTarget = onEcho ? tEchoNext : tStopLand;
  const hProposed = h;
  const landing = t + h >= tTarget - 1e-12 * Math.max(1, Math.abs(tTarget));
  return { hTry: landing ? tTarget - t : h, hProposed, landing, onEcho, tTarget, tEchoRaw, ulps, tStop, stopUlps };
}

/** Sort the first m candidates by (root, index): insertion sort (m is the few events of one step). */
export function sortCandidates(idx: Int32Array, root: Float64Array, m: number): void {
  for (let a = 1; a < m; a++) {
    const k = idx[a]!;
    const r = root[a]!;
    let b = a - 1;
    while (b >= 0 && (root[b]! > r || (root[b] === r && idx[b]! > k))) {
      idx[b + 1] = idx[b]!;
      root[b + 1] = root[b]!;
      b--;
    }
    idx[b + 1] = k;
    root[b + 1] = r;
  }
}
