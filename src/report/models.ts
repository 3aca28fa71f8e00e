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

/**
 * The fluid models of `modelsDir` (default the repository's): the shared bottleneck, then the
 * variant's flow model. Each variant's model is read on its own, so a broken file throws its
 * InputError for that variant only (the report shows the others and names the broken one).
 */
export async function defaultModelDocs(modelsDir?: string): Promise<ModelDocSource> {
  const [systems, doc, latex] = await Promise.all([import('../fluid/systems.js'), import('../fluid/modelDoc.js'), import('../fluid/latex.js')]);
  const source = systems.modelSystems(modelsDir);
  const sym = (n: string) => latex.toLatex(n);
  return (v) => {
    const sys = source.system(v);
    return [modelDoc(doc.describe(sys.bottleneck), sym), modelDoc(doc.describe(sys.flow), sym)];
  };
}
