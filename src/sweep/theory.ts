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
