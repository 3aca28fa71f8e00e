import type { ParsedModel } from '../fluid/modelDoc.js';
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

/** ParsedModel -> ModelDoc: equations, then outputs, then events (jumps); states and parameters as symbols. */
export function modelDoc(
  m: Pick<ParsedModel, 'id' | 'title' | 'citation' | 'description' | 'states' | 'params' | 'outputs' | 'equations' | 'events'>,
  symbolTex: (name: string) => string,
  /** LaTeX of a long right-hand side over several lines (undefined keeps the one-line form). */
  multiline?: (lhs: string, expression: string) => string | undefined,
): ModelDoc {
  const unit = (u: string) => (u && u !== '1' && u !== '-' ? ` [${u}]` : '');
  const doc: ModelDoc = {
    id: m.id,
    title: m.title,
    equations: [
      ...m.equations.map((e) => ({ latex: multiline?.(`\\frac{d${symbolTex(e.state)}}{dt}`, e.expression) ?? e.latex })),
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
  const [systems, doc, latex, { parse }] = await Promise.all([import('../fluid/systems.js'), import('../fluid/modelDoc.js'), import('../fluid/latex.js'), import('mathjs')]);
  const source = systems.modelSystems(modelsDir);
  const sym = (n: string) => latex.toLatex(n);
  const multiline = (lhs: string, expression: string) => splitSum(lhs, expression, parse, (t) => latex.toLatex(t));
  return (v) => {
    const sys = source.system(v);
    return [modelDoc(doc.describe(sys.bottleneck), sym, multiline), modelDoc(doc.describe(sys.flow), sym, multiline)];
  };
}

/** Right-hand sides longer than this (characters of model text) are set one term per line. */
const LONG_EXPRESSION = 80;

interface MathNodeLike {
  type: string;
  fn?: string;
  args?: MathNodeLike[];
  content?: MathNodeLike;
  condition?: MathNodeLike;
  trueExpr?: MathNodeLike;
  falseExpr?: MathNodeLike;
  toString(): string;
}

const unwrap = (n: MathNodeLike): MathNodeLike => (n.type === 'ParenthesisNode' && n.content ? unwrap(n.content) : n);

/** The outermost terms of a sum, with their signs (a subtracted sum keeps its brackets). */
function sumTerms(root: MathNodeLike): { sign: '+' | '-'; node: MathNodeLike }[] {
  const terms: { sign: '+' | '-'; node: MathNodeLike }[] = [];
  const walk = (n: MathNodeLike, sign: '+' | '-'): void => {
    if (n.type === 'OperatorNode' && (n.fn === 'add' || n.fn === 'subtract') && n.args?.length === 2) {
      walk(n.args[0]!, sign);
      terms.push({ sign: n.fn === 'subtract' ? (sign === '+' ? '-' : '+') : sign, node: n.args[1]! });
      return;
    }
    terms.push({ sign, node: n });
  };
  walk(unwrap(root), '+');
  return terms;
}

/**
 * A long product whose last factor is a bracketed sum, `x (a + b)`, over several lines: `x \Big(a`,
 * then `+ b \Big)` (fixed-size brackets, which may span lines where \left( \right) may not).
 */
function productLines(n: MathNodeLike, tex: (text: string) => string): string[] {
  const node = unwrap(n);
  if (node.toString().length > LONG_EXPRESSION && node.type === 'OperatorNode' && node.fn === 'multiply' && node.args?.length === 2) {
    const inner = sumTerms(node.args[1]!);
    if (inner.length >= 2) {
      return inner.map((t, i) => {
        const term = tex(t.node.toString());
        if (i === 0) return `${tex(node.args![0]!.toString())} \\cdot \\Big(${t.sign === '-' ? '-' : ''}${term}`;
        return `&\\qquad ${t.sign} ${term}${i === inner.length - 1 ? ' \\Big)' : ''}`;
      });
    }
  }
  return [tex(n.toString())];
}

/**
 * A long right-hand side set as aligned lines (KaTeX's display math never breaks a line by itself,
 * and Reno's dW/dt is about 1450 px wide on one line): a top-level `cond ? a : b` becomes one line
 * per branch with its condition, and each branch's sum one term per line. Undefined when the
 * expression is short or neither, so it keeps its one-line form (the page scales what still does not fit).
 */
export function splitSum(lhs: string, expression: string, parse: (text: string) => unknown, tex: (text: string) => string): string | undefined {
  if (expression.length <= LONG_EXPRESSION) return undefined;
  const branches: { when: string | null; node: MathNodeLike }[] = [];
  let n = unwrap(parse(expression) as MathNodeLike);
  while (n.type === 'ConditionalNode' && n.condition && n.trueExpr && n.falseExpr) {
    branches.push({ when: `\\text{if } ${tex(unwrap(n.condition).toString())}`, node: n.trueExpr });
    n = unwrap(n.falseExpr);
  }
  branches.push({ when: branches.length > 0 ? '\\text{otherwise}' : null, node: n });
  const lines: string[] = [];
  for (const b of branches) {
    const terms = sumTerms(b.node);
    terms.forEach((t, i) => {
      const [head, ...more] = productLines(t.node, tex);
      if (i === 0) lines.push(`${lhs} &= ${t.sign === '-' ? '-' : ''}${head}${b.when ? ` && ${b.when}` : ''}`);
      else lines.push(`&\\quad ${t.sign} ${head}`);
      lines.push(...more);
    });
  }
  if (lines.length < 2) return undefined;
  return `\\begin{aligned}${lines.join(' \\\\ ')}\\end{aligned}`;
}
