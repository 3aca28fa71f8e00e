import type { ClosedFormLike } from '../compare/types.js';
import type { Scenario } from '../scenario/types.js';
import type { Variant } from '../variants.js';

/** Closed-form predictions for a scenario (src/theory/closedForms.ts), injected or loaded lazily. */
export type ClosedFormsFn = (s: Scenario) => readonly ClosedFormLike[];

const THEORY_MODULE = '../theory/closedForms.js';

/** Loads src/theory's closedForms; undefined when it is not available (the report then omits theory lines). */
export async function loadClosedForms(): Promise<ClosedFormsFn | undefined> {
  try {
    const m = (await import(THEORY_MODULE)) as { closedForms?: ClosedFormsFn };
    return m.closedForms;
  } catch {
    return undefined;
  }
}

/**
 * Elasticities theory predicts, for the loss-limited region: Mathis et al. G ∝ MSS / (RTT sqrt(p))
 * for the Reno family (Westwood+'s bandwidth-estimate cut keeps it close to Reno when losses are
 * random), and the CUBIC response function W ∝ (RTT / p)^(3/4), G = W / RTT ∝ p^(-3/4) RTT^(-1/4)
 * (RFC 9438 §5.1, cubic region).
 */
export const THEORY_ELASTICITY: Readonly<Record<Variant, { loss: number; rtt: number; source: string }>> = {
  tahoe: { loss: -0.5, rtt: -1, source: 'Mathis et al. 1997 (square-root law)' },
  reno: { loss: -0.5, rtt: -1, source: 'Mathis et al. 1997 (square-root law)' },
  newreno: { loss: -0.5, rtt: -1, source: 'Mathis et al. 1997 (square-root law)' },
  westwood: { loss: -0.5, rtt: -1, source: 'Reno-like under random loss (Mascolo et al.)' },
  cubic: { loss: -0.75, rtt: -0.25, source: 'RFC 9438 §5.1 response function (cubic region)' },
};

/** Fair share of the slowest link on flow 0's path, bit/s of goodput (payload fraction of the wire). */
export function fairShareBps(s: Scenario): number {
  const f = s.flows[0]!;
  const rate = Math.min(s.bottleneck.bandwidthBps, f.access.bandwidthBps, f.receiverAccess?.bandwidthBps ?? Infinity);
  return (rate * s.mssBytes) / (s.mssBytes + s.headerBytes) / s.flows.length;
}

/**
 * Fallback closed forms, used only when src/theory is unavailable: the three curves the report
 * draws, at the scenario's base RTT (no queueing delay) and loss rate p.
 * - Mathis et al. 1997: W = sqrt(3 / (2 b p)) segments, b = segments per ACK.
 * - PFTK (Padhye et al. 1998, full model without the window limit), T0 = max(minRto, RTT):
 *   B = 1 / (RTT sqrt(2bp/3) + T0 min(1, 3 sqrt(3bp/8)) p (1 + 32 p^2)) segments/s.
 * - CUBIC response (RFC 9438 §5.1): W = max((C (3+β) / (4 (1-β)))^(1/4) (RTT/p)^(3/4) [RTT in s],
 *   sqrt(3 (1+β) / (2 (1-β) p))), C = 0.4, β = 0.7 unless ccParams say otherwise.
 */
export function builtinClosedForms(s: Scenario): ClosedFormLike[] {
  const f = s.flows[0]!;
  const rtt = 2 * (f.access.delayS + s.bottleneck.delayS + (f.receiverAccess?.delayS ?? 0));
  const p = s.bottleneck.loss.rate;
  if (!(p > 0) || !(rtt > 0)) return [];
  const b = s.tcp.delAckCount;
  const seg = s.mssBytes * 8;
  const renoFamily: Variant[] = ['tahoe', 'reno', 'newreno', 'westwood'];
  const wMathis = Math.sqrt(3 / (2 * b * p));
  const t0 = Math.max(s.tcp.minRtoS, rtt);
  const pftkRate = 1 / (rtt * Math.sqrt((2 * b * p) / 3) + t0 * Math.min(1, 3 * Math.sqrt((3 * b * p) / 8)) * p * (1 + 32 * p * p));
  const c = s.ccParams.c ?? 0.4;
  const beta = s.ccParams.beta ?? 0.7;
  const wCubic = ((c * (3 + beta)) / (4 * (1 - beta))) ** 0.25 * (rtt / p) ** 0.75;
  const wAimd = Math.sqrt((3 * (1 + beta)) / (2 * (1 - beta) * p));
  const wC = Math.max(wCubic, wAimd);
  return [
    { formula: 'mathis', title: 'Mathis et al. (square-root law)', appliesTo: renoFamily, cwndSegments: wMathis, goodputBps: (wMathis * seg) / rtt },
    { formula: 'pftk', title: 'Padhye et al. (PFTK, with timeouts)', appliesTo: renoFamily, cwndSegments: pftkRate * rtt, goodputBps: pftkRate * seg },
    {
      formula: 'cubic-response', title: 'CUBIC response function (RFC 9438)', appliesTo: ['cubic'], cwndSegments: wC, goodputBps: (wC * seg) / rtt,
      note: wCubic >= wAimd ? 'cubic region' : 'Reno-friendly region',
    },
  ];
}
