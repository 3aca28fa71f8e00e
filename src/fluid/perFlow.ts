import type { Scenario } from '../scenario/types.js';

/**
 * A flow's congestion control and its parameters: the flow's own when it names one, else the
 * Scenario's top-level default.
 *
 * TODO(flows): the per-flow fields `flows[i].variant` / `flows[i].ccParams` are being added to
 * FlowSpec by the `flows` work; until they are in the type they are read through this one place.
 */
interface MaybePerFlow {
  variant?: string;
  ccParams?: Record<string, number>;
}

export function flowVariant(s: Scenario, i: number): string {
  return (s.flows[i] as MaybePerFlow | undefined)?.variant ?? s.variant;
}

export function flowCcParams(s: Scenario, i: number): Record<string, number> {
  return (s.flows[i] as MaybePerFlow | undefined)?.ccParams ?? s.ccParams;
}
