import type { FlowShare } from './competition.js';
import type { Comparison } from './types.js';

/** One closed form's share of the link for the BBR flows, with its validity. */
export interface ShareForm {
  formula: string;
  title: string;
  share: number;
  valid: boolean;
  reasons: string[];
}

/** BBR's aggregate share of the bottleneck by each source, for a scenario where BBR(v1) flows meet loss-based ones. */
export interface BbrShare {
  /** Flows running bbr. */
  bbrFlows: number;
  /** Their goodput over all flows' goodput, packet engine and fluid model (null when a run has no per-flow figures or no model). */
  packet: number | null;
  fluid: number | null;
  /** Ware et al.'s forms (src/theory/bbrClosedForms.ts), the extended one first. */
  forms: ShareForm[];
}

/**
 * The BBR flows' share of the bottleneck from a comparison's per-flow goodputs and its closed forms;
 * null when the scenario has no BBR flow beside another flow, or no closed form gives a share.
 */
export function bbrShare(c: Comparison, variant = 'bbr'): BbrShare | null {
  const flows = c.competition?.flows;
  if (!flows || !flows.some((f) => f.variant === variant)) return null;
  const sum = (pick: (f: FlowShare) => number | null): number | null => {
    let acc = 0;
    for (const f of flows) {
      if (f.variant !== variant) continue;
      const x = pick(f);
      if (x === null) return null;
      acc += x;
    }
    return acc;
  };
  const forms = c.closedForms.flatMap((f) => (f.bbr?.share != null ? [{ formula: f.formula, title: f.title, share: f.bbr.share, valid: f.validity.valid, reasons: f.validity.reasons }] : []));
  return { bbrFlows: flows.filter((f) => f.variant === variant).length, packet: sum((f) => f.packetShare), fluid: sum((f) => f.fluidShare), forms };
}
