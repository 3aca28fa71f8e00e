// Types only: mathjs itself is imported lazily (its load dominates a short CLI call).
import type { ConditionalNode, MathNode, OperatorNode, ParenthesisNode } from 'mathjs';
import type { ParsedModel } from '../fluid/language/modelDoc.js';

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

/** Where model documentation comes from, by model id (a variant, or a model a rule picks): the fluid engine's models by default, anything in tests. */
export type ModelDocSource = (model: string) => ModelDoc[] | Promise<ModelDoc[]>;

/** ParsedModel -> ModelDoc: equations, then outputs, then events (jumps); states and parameters as symbols. */
export function modelDoc(
  m: Pick<ParsedModel, 'id' | 'title' | 'citation' | 'description' | 'states' | 'params' | 'outputs' | 'equations' | 'events'> & Partial<Pick<ParsedModel, 'terms'>>,
  symbolTex: (name: string) => string,
  /** LaTeX of a long right-hand side over several lines (undefined keeps the one-line form). */
  multiline?: (lhs: string, expression: string) => string | undefined,
): ModelDoc {
  const unit = (u: string) => (u && u !== '1' && u !== '-' ? ` [${u}]` : '');
  const doc: ModelDoc = {
    id: m.id,
    title: m.title,
    equations: [
      ...m.equations.map((e) => ({ latex: multiline?.(`\\frac{d${symbolTex(e.state)}}{dt}`, e.written ?? e.expression) ?? e.latex })),
      // A model's named terms, right under the equations that use them.
      ...(m.terms ?? []).map((x) => ({ label: 'where', latex: multiline?.(symbolTex(x.name), x.expression) ?? (x.latex.startsWith(`${x.name} = `) ? `${symbolTex(x.name)} = ${x.latex.slice(x.name.length + 3)}` : x.latex) })),
      // The engine prints an output's name raw (`pred = ...`): typeset it like every other symbol.
      ...m.outputs.map((o) => ({ label: 'output', latex: multiline?.(symbolTex(o.name), o.expression) ?? (o.latex.startsWith(`${o.name} = `) ? `${symbolTex(o.name)} = ${o.latex.slice(o.name.length + 3)}` : o.latex) })),
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
  const [systems, doc, latex, { parse, SymbolNode }] = await Promise.all([import('../fluid/compiler/systemCache.js'), import('../fluid/language/modelDoc.js'), import('../fluid/language/latex.js'), import('../io/mathjs.js')]);
  const source = systems.modelSystems(modelsDir);
  const sym = (n: string) => latex.toLatex(n);
  const multiline = (lhs: string, expression: string) => splitSum(lhs, expression, parse, (t) => latex.toLatex(t));
  const withShared = (m: ParsedModel): ModelDoc => {
    const taken = new Set([...m.states, ...m.params, ...m.outputs, ...m.terms].map((x) => x.name));
    // What the file writes (terms by name), so a term the model named is not set apart again as Q1.
    const shown = m.equations.map((e) => e.written ?? e.expression);
    const all = [...shown, ...m.terms.map((x) => x.expression), ...m.outputs.map((o) => o.expression)];
    const shared = sharedSubexpressions(all, parse, (name) => new SymbolNode(name), taken);
    if (shared.defs.length === 0) return modelDoc(m, sym, multiline);
    const rewritten = (i: number, original: { expression: string; latex: string }, lhs: string) =>
      shared.expressions[i] === original.expression ? original : { expression: shared.expressions[i]!, latex: `${lhs} = ${latex.toLatex(shared.expressions[i]!)}` };
    const ne = m.equations.length;
    const nt = m.terms.length;
    const d = modelDoc(
      {
        ...m,
        equations: m.equations.map((e, i) => {
          const { written: _w, ...plain } = e;
          return { ...plain, ...rewritten(i, { expression: shown[i]!, latex: e.latex }, `\\frac{d${sym(e.state)}}{dt}`) };
        }),
        terms: m.terms.map((x, i) => ({ ...x, ...rewritten(ne + i, x, x.name) })),
        outputs: m.outputs.map((o, i) => ({ ...o, ...rewritten(ne + nt + i, o, o.name) })),
      },
      sym,
      multiline,
    );
    // Right under the differential equations (and the model's own terms) that use them, before the outputs and events.
    d.equations.splice(
      ne + nt,
      0,
      ...shared.defs.map((def) => ({ label: 'where', latex: multiline(sym(def.name), def.expression) ?? `${sym(def.name)} = ${latex.toLatex(def.expression)}` })),
    );
    return d;
  };
  return (v) => {
    const sys = source.system(v);
    return [withShared(doc.describe(sys.bottleneck)), withShared(doc.describe(sys.flow))];
  };
}

/** Sub-expressions shorter than this (characters of model text) are never set apart. */
const SHARED_MIN_CHARS = 60;

/**
 * Display only: a sub-expression a model writes out more than once across its equations and outputs
 * (the timeout probability appears three times in Reno's, because outputs cannot read the bottleneck's)
 * is set once, as Q_1, Q_2, ..., under "where", the longest first, so that each equation fits its box.
 * The model's text and its numbers are untouched: this rewrites what the report typesets.
 * @param taken names the model already uses (the new symbols avoid them)
 */
export function sharedSubexpressions(
  expressions: readonly string[],
  parse: (text: string) => MathNode,
  symbol: (name: string) => MathNode,
  taken: ReadonlySet<string>,
  minChars = SHARED_MIN_CHARS,
): { expressions: string[]; defs: { name: string; expression: string }[] } {
  let exprs = [...expressions];
  const defs: { name: string; expression: string }[] = [];
  const letter = ['Q', 'Z', 'Y'].find((l) => ![...taken].some((n) => new RegExp(`^${l}[0-9]+$`).test(n))) ?? 'Q';
  for (let k = 1; k <= 9; k++) {
    const counts = new Map<string, number>();
    for (const text of [...exprs, ...defs.map((d) => d.expression)]) {
      parse(text).traverse((n) => {
        if (n.type === 'ParenthesisNode') return;
        const s = n.toString();
        if (s.length >= minChars) counts.set(s, (counts.get(s) ?? 0) + 1);
      });
    }
    let best = '';
    for (const [s, c] of counts) if (c >= 2 && s.length > best.length) best = s;
    if (best === '') break;
    const name = `${letter}${k}`;
    const replace = (text: string): string => {
      // Strings are compared as mathjs prints them, so spacing in the model text does not matter.
      const out = parse(text).transform((n) => (unwrap(n).toString() === best ? symbol(name) : n));
      return out.toString();
    };
    exprs = exprs.map(replace);
    for (const d of defs) d.expression = replace(d.expression);
    defs.push({ name, expression: best });
  }
  return { expressions: exprs, defs };
}

/** Right-hand sides longer than this (characters of model text) are set one term per line. */
const LONG_EXPRESSION = 80;

const unwrap = (n: MathNode): MathNode => ((n as ParenthesisNode).type === 'ParenthesisNode' ? unwrap((n as ParenthesisNode).content) : n);
const asOperator = (n: MathNode): OperatorNode | null => (n.type === 'OperatorNode' ? (n as OperatorNode) : null);

/** The outermost terms of a sum, with their signs (a subtracted sum keeps its brackets). */
function sumTerms(root: MathNode): { sign: '+' | '-'; node: MathNode }[] {
  const terms: { sign: '+' | '-'; node: MathNode }[] = [];
  const walk = (n: MathNode, sign: '+' | '-'): void => {
    const op = asOperator(n);
    if (op && (op.fn === 'add' || op.fn === 'subtract') && op.args.length === 2) {
      walk(op.args[0]!, sign);
      terms.push({ sign: op.fn === 'subtract' ? (sign === '+' ? '-' : '+') : sign, node: op.args[1]! });
      return;
    }
    terms.push({ sign, node: n });
  };
  walk(unwrap(root), '+');
  return terms;
}

/** Sub-expressions up to this many characters of model text stay on one line. */
const LINE_CHARS = 50;

/**
 * Lines of a long expression, broken at its outermost sums and products: each term of a long sum on
 * its own line (a bracketed sum between fixed-size brackets, which may span lines where \left( \right)
 * may not), a long product after its \cdot. Continuation lines are indented by depth.
 */
function breakLines(n: MathNode, tex: (text: string) => string, depth = 0): string[] {
  const text = n.toString();
  if (text.length <= LINE_CHARS || depth > 4) return [tex(text)];
  const bracketed = n.type === 'ParenthesisNode';
  const u = unwrap(n);
  const indent = (l: string) => `\\quad ${l}`;
  let lines: string[] | undefined;
  const terms = sumTerms(u);
  if (terms.length >= 2) {
    lines = terms.flatMap((t, i) => {
      const [first, ...rest] = breakLines(t.node, tex, depth + 1);
      const sign = i === 0 ? (t.sign === '-' ? '-' : '') : `${t.sign} `;
      return [i === 0 ? `${sign}${first}` : indent(`${sign}${first}`), ...rest.map(indent)];
    });
  } else if (asOperator(u)?.fn === 'multiply' && asOperator(u)!.args.length === 2) {
    const left = breakLines(asOperator(u)!.args[0]!, tex, depth + 1);
    const right = breakLines(asOperator(u)!.args[1]!, tex, depth + 1);
    lines = [...left.slice(0, -1), `${left.at(-1)!} \\cdot ${right[0]!}`, ...right.slice(1).map(indent)];
  }
  if (!lines || lines.length < 2) return [tex(text)];
  if (bracketed) {
    lines[0] = `\\Big(${lines[0]}`;
    lines[lines.length - 1] = `${lines.at(-1)!}\\Big)`;
  }
  return lines;
}

/**
 * A long right-hand side set as aligned lines (KaTeX's display math never breaks a line by itself,
 * and Reno's dW/dt is about 1450 px wide on one line): a top-level `cond ? a : b` becomes one line
 * per branch with its condition, and each branch's sum one term per line. Undefined when the
 * expression is short or neither, so it keeps its one-line form (the page scales what still does not fit).
 */
export function splitSum(lhs: string, expression: string, parse: (text: string) => MathNode, tex: (text: string) => string): string | undefined {
  if (expression.length <= LONG_EXPRESSION) return undefined;
  const branches: { when: string | null; node: MathNode }[] = [];
  let n = unwrap(parse(expression));
  while (n.type === 'ConditionalNode') {
    const c = n as ConditionalNode;
    branches.push({ when: `\\text{if } ${tex(unwrap(c.condition).toString())}`, node: c.trueExpr });
    n = unwrap(c.falseExpr);
  }
  branches.push({ when: branches.length > 0 ? '\\text{otherwise}' : null, node: n });
  const lines: string[] = [];
  for (const b of branches) {
    const [head, ...more] = breakLines(b.node, tex);
    lines.push(`${lhs} &= ${head}${b.when ? ` && ${b.when}` : ''}`, ...more.map((l) => `&${l}`));
  }
  if (lines.length < 2) return undefined;
  return `\\begin{aligned}${lines.join(' \\\\ ')}\\end{aligned}`;
}
