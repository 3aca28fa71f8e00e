import type { Variant } from '../variants.js';

/** A fluid model as a report shows it: title, citation, equations in LaTeX. */
export interface ModelDoc {
  id: string;
  title: string;
  citation?: string;
  description?: string;
  equations: { label?: string; latex: string }[];
  /** Symbol table under the equations. */
  symbols?: { latex: string; meaning: string }[];
}

/** Where model documentation comes from: the fluid engine's models by default, anything in tests. */
export type ModelDocSource = (variant: Variant) => ModelDoc[] | Promise<ModelDoc[]>;

/** The fluid engine's models, loaded on first use; no equations (and a note in the report) when it has none. */
export async function defaultModelDocs(): Promise<ModelDocSource | null> {
  const path = '../fluid/docs.js';
  try {
    const mod = (await import(path)) as { modelDocs?: ModelDocSource };
    return mod.modelDocs ?? null;
  } catch {
    return null;
  }
}
