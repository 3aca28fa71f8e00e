import type { Variant } from '../variants.js';

/**
 * Elasticities of goodput theory predicts in the loss-limited region: Mathis et al. G ∝ MSS / (RTT
 * sqrt(p)) for the Reno family (Westwood+'s bandwidth-estimate cut keeps it close to Reno when losses
 * are random), and CUBIC's response function W ∝ (RTT / p)^(3/4), G = W / RTT ∝ p^(-3/4) RTT^(-1/4)
 * (RFC 9438 §5.1, cubic region).
 */
export const THEORY_ELASTICITY: Readonly<Record<Variant, { loss: number; rtt: number; source: string }>> = {
  tahoe: { loss: -0.5, rtt: -1, source: 'Mathis et al. 1997 (square-root law)' },
  reno: { loss: -0.5, rtt: -1, source: 'Mathis et al. 1997 (square-root law)' },
  newreno: { loss: -0.5, rtt: -1, source: 'Mathis et al. 1997 (square-root law)' },
  westwood: { loss: -0.5, rtt: -1, source: 'Reno-like under random loss (Mascolo et al.)' },
  cubic: { loss: -0.75, rtt: -0.25, source: 'RFC 9438 §5.1 response function (cubic region)' },
};
