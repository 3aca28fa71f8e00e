import { VARIANT_FACTS, VARIANTS, type Elasticity, type Variant } from '../variants.js';

/** Theory's goodput elasticities per variant (their home and sources: src/variants.ts). */
export const THEORY_ELASTICITY: Readonly<Record<Variant, Elasticity>> = Object.fromEntries(
  VARIANTS.map((v) => [v, VARIANT_FACTS[v].elasticity]),
) as Record<Variant, Elasticity>;
