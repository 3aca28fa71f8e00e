/**
 * The congestion-control variants cclab knows. The same ids key the packet engine's algorithms
 * (`src/cc/registry.ts`) and the fluid models (`models/<id>.model.yaml`); a test checks both sides.
 */
export const VARIANTS = ['tahoe', 'reno', 'newreno', 'westwood', 'cubic'] as const;
export type Variant = (typeof VARIANTS)[number];

/** What a scenario runs when neither a flag nor a file names a variant. */
export const DEFAULT_VARIANT: Variant = 'reno';

export function isVariant(x: unknown): x is Variant {
  return typeof x === 'string' && (VARIANTS as readonly string[]).includes(x);
}

/** Engines that consume a Scenario and return a RunResult. */
export const ENGINES = ['packet', 'fluid'] as const;
export type Engine = (typeof ENGINES)[number];
