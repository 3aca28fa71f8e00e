import { dumbbellScenario } from '../scenario/defaults.js';
import { baseRttS } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import type { Cx } from './frequencyResponse.js';

/**
 * The worked example of C. V. Hollot, V. Misra, D. Towsley, W.-B. Gong, "A control theoretic
 * analysis of RED", IEEE INFOCOM 2001 (also the RED baseline of their PI paper the same year): N
 * Reno flows on a C = 3750 packets/s link (15 Mbit/s of 500-byte packets), propagation RTT Tp =
 * 0.2 s, RED designed for N >= 60 and R0 <= 0.246 s with the drop slope L_red = pmax / (maxth -
 * minth) = 1.86e-4 and the averaging filter's pole K = 0.005 rad/s (EWMA weight 1 - e^{-K/C} =
 * 1.33e-6 per packet).
 *
 * The constants could not be checked against the paper's text here (no copy in the reference
 * corpora); they are checked against the paper's own design rule instead ({@link hmtgDesignBound}:
 * L_red (R+ C)^3 / (2 N-)^2 <= sqrt(wg^2 / K^2 + 1), wg = 0.1 min(2 N- / (R+^2 C), 1 / R+), which
 * 1.86e-4 meets with 5% to spare at K = 0.005), and the example's claims (stable for N >= 60 at
 * R0 <= 0.246 s, unstable for fewer flows or longer RTTs) are what the tests and the report show.
 */
export const HMTG = { C: 3750, TpS: 0.2, N: 60, RplusS: 0.246, Lred: 1.86e-4, K: 0.005, minTh: 129.8, packetBytes: 500 } as const;

/**
 * MGT's Reno (per-packet losses, no timeouts, +1 segment per RTT, mean-field W^2 p / 2): the
 * parameters of reno.model.yaml that make its equation theirs.
 */
export const MGT_RENO = { lossEvents: 0, timeouts: 0, segmentCounting: 1, overflowCuts: 0, secondMoment: 1 } as const;

/**
 * Their scenario with N flows and propagation RTT Tp: min_th placed so that the operating point is
 * theirs at N = 60 (q0 = 175 packets, R0 = 0.2467 s; p0 = L_red (q0 - min_th) = 2 / W0^2). With
 * `queue: 'droptail'` the same 1000-packet buffer without RED, the loop RED was designed to replace.
 */
export function hmtgScenario(N: number = HMTG.N, TpS: number = HMTG.TpS, durationS = 1500, queue: 'red' | 'droptail' = 'red'): Scenario {
  const s = dumbbellScenario('reno', N);
  s.name = `hmtg-N${N}-Tp${TpS}`;
  s.mssBytes = HMTG.packetBytes - 40;
  s.headerBytes = 40;
  s.bottleneck.bandwidthBps = HMTG.C * HMTG.packetBytes * 8;
  for (const f of s.flows) {
    f.access = { bandwidthBps: 1e12, delayS: 0, queuePackets: 10000 };
    f.receiverAccess = null;
  }
  s.bottleneck.delayS = 0;
  s.bottleneck.delayS = (TpS - baseRttS(s)) / 2; // the base RTT (with serialisation) is Tp exactly
  s.bottleneck.queue =
    queue === 'red'
      ? { kind: 'red', limitPackets: 1000, minThPackets: HMTG.minTh, maxThPackets: HMTG.minTh + 0.1 / HMTG.Lred, maxP: 0.1, weight: 1 - Math.exp(-HMTG.K / HMTG.C), gentle: false }
      : { kind: 'droptail', limitPackets: 1000 };
  s.durationS = durationS;
  if (queue === 'droptail') s.name = `${s.name}-droptail`;
  return s;
}

/** Their loop: L(jw) = L_red (R0 C)^3 / (2N)^2 e^{-jw R0} / ((jw/K + 1)(jw R0^2 C / (2N) + 1)(jw R0 + 1)). */
export function hmtgLoop(N: number, R0: number, w: number): Cx {
  const g = (HMTG.Lred * (R0 * HMTG.C) ** 3) / (2 * N) ** 2;
  let re = g * Math.cos(w * R0);
  let im = -g * Math.sin(w * R0);
  for (const b of [w / HMTG.K, (w * R0 * R0 * HMTG.C) / (2 * N), w * R0]) {
    const d = 1 + b * b;
    [re, im] = [(re + im * b) / d, (im - re * b) / d];
  }
  return [re, im];
}

/** Their design rule's bound on L_red for N >= N-, R0 <= R+ (the loop is then stable): sqrt(wg^2 / K^2 + 1) (2 N-)^2 / (R+ C)^3. */
export function hmtgDesignBound(Nminus: number = HMTG.N, RplusS: number = HMTG.RplusS, K: number = HMTG.K): number {
  const wg = 0.1 * Math.min((2 * Nminus) / (RplusS * RplusS * HMTG.C), 1 / RplusS);
  return (Math.sqrt((wg * wg) / (K * K) + 1) * (2 * Nminus) ** 2) / (RplusS * HMTG.C) ** 3;
}
