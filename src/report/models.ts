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

/** The subset of the fluid engine's ParsedModel (src/fluid/models.ts) a report shows. */
interface ParsedModelLike {
  id: string;
  title: string;
  citation: string;
  description: string;
  states: { name: string; unit: string; doc: string; discrete: boolean }[];
  params: { name: string; unit: string; doc: string }[];
  outputs: { name: string; latex: string }[];
  equations: { state: string; latex: string }[];
  events: { name: string; latex: string }[];
}

/** ParsedModel -> ModelDoc: equations, then outputs, then events (jumps); states and parameters as symbols. */
export function modelDoc(m: ParsedModelLike, symbolTex: (name: string) => string): ModelDoc {
  const unit = (u: string) => (u && u !== '1' && u !== '-' ? ` [${u}]` : '');
  const doc: ModelDoc = {
    id: m.id,
    title: m.title,
    equations: [
      ...m.equations.map((e) => ({ latex: e.latex })),
      // The engine prints an output's name raw (`pred = ...`): typeset it like every other symbol.
      ...m.outputs.map((o) => ({ label: 'output', latex: o.latex.startsWith(`${o.name} = `) ? `${symbolTex(o.name)} = ${o.latex.slice(o.name.length + 3)}` : o.latex })),
      ...m.events.map((e) => ({ label: `event ${e.name}`, latex: e.latex })),
    ],
    symbols: [...m.states, ...m.params].map((s) => ({ latex: symbolTex(s.name), meaning: `${s.doc}${unit(s.unit)}` })),
  };
  if (m.citation) doc.citation = m.citation;
  if (m.description) doc.description = m.description;
  return doc;
}

/** The fluid engine's models (the shared bottleneck, then the variant's flow model); null if unavailable. */
export async function defaultModelDocs(): Promise<ModelDocSource | null> {
  try {
    const [models, latex] = await Promise.all([import('../fluid/models.js'), import('../fluid/latex.js')]);
    const sym = (n: string) => latex.toLatex(n);
    return (v) => [modelDoc(models.defaultModels().bottleneck, sym), modelDoc(models.getModel(v), sym)];
  } catch {
    return null;
  }
}
