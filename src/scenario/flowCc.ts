import { hasEngine, type Engine, type Variant } from '../variants.js';
import type { Scenario } from './types.js';

/** The congestion control one flow runs: its variant and the knobs given for it (defaults not filled in). */
export interface FlowCc {
  variant: Variant;
  ccParams: Record<string, number>;
}

/**
 * Resolves flow i's congestion control: its own `variant`, else the scenario's. The top-level
 * `ccParams` belong to the top-level variant, so they reach a flow only when it runs that variant
 * (a Reno flow beside CUBIC ones must not inherit CUBIC's `beta`); the flow's own `ccParams` win.
 * Under both lie the profile's knobs for that variant (`ccDefaults`, src/scenario/profiles.ts).
 */
export function flowCc(s: Pick<Scenario, 'variant' | 'ccParams' | 'flows' | 'ccDefaults'>, i: number): FlowCc {
  const f = s.flows[i]!;
  const variant = f.variant ?? s.variant;
  const inherited = variant === s.variant ? s.ccParams : {};
  const profile = s.ccDefaults?.[variant];
  return { variant, ccParams: profile === undefined ? { ...inherited, ...f.ccParams } : { ...profile, ...inherited, ...f.ccParams } };
}

/** Distinct variants of a scenario's flows, in flow order. */
export function flowVariants(s: Pick<Scenario, 'variant' | 'flows'>): Variant[] {
  return [...new Set(s.flows.map((f) => f.variant ?? s.variant))];
}

/**
 * The variants of a scenario's flows that `engine` cannot run (VariantFacts.engines): for the fluid
 * engine, the flows without a model file. Comparison, report and predict show "no model" for such a
 * scenario instead of failing; a variant gains its column by gaining the engine, with no change here.
 */
export function variantsWithoutEngine(s: Pick<Scenario, 'variant' | 'flows'>, engine: Engine): Variant[] {
  return flowVariants(s).filter((v) => !hasEngine(v, engine));
}

/** The one sentence every "no model" cell and note shows. */
export function noModelText(missing: readonly Variant[]): string {
  return `no fluid model of ${missing.join(', ')} yet (packet engine only)`;
}
