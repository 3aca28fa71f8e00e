import type { MathNode } from 'mathjs';
import { ParenthesisNode } from '../../io/mathjs.js';
import { InputError } from '../../errors.js';
import { parseModelText } from './expr.js';
import type { Located } from './located.js';

/**
 * Named terms of a model file (`terms:`): a sub-expression an equation needs more than once, or one
 * long enough to deserve a name, written once as `name [unit] = expression`. A term is substituted
 * into the equations and the event, clock and timer assignments that name it before anything reads
 * them (compiler, linearisation, LaTeX of the
 * numbers), so it changes no number: it is what writing the expression out would be. Unlike an
 * output, a term may read delayed values (`p(t - R)`) and the bottleneck's outputs, because it is
 * part of the equation that uses it, evaluated where that equation is.
 */

export interface TermDecl extends Located {
  name: string;
  unit: string;
}

/** The text of an expression with its terms substituted; `written` keeps the text as the file has it. */
export interface ExpandedText extends Located {
  written?: string;
}

/**
 * Parse the terms (each may use earlier ones, never itself or a later one) and return a function
 * that substitutes them into one expression. Throws InputError naming the term and its line.
 */
export function termExpander(terms: readonly TermDecl[], file: string): (src: Located, what: string) => ExpandedText {
  const trees = new Map<string, MathNode>();
  const later = new Set(terms.map((t) => t.name));
  terms.forEach((term, i) => {
    const what = `terms[${i}] (${term.name})`;
    const where = `${file}:${term.line}`;
    later.delete(term.name);
    const node = parseModelText(term.text, what, where);
    node.traverse((n, path) => {
      if (n.type !== 'SymbolNode') return;
      const name = (n as unknown as { name: string }).name;
      if (name === term.name) throw new InputError(what, `uses itself`, where);
      if (later.has(name)) throw new InputError(what, `uses term '${name}', which is defined later (a term may use only earlier terms)`, where);
      if (path === 'fn' && trees.has(name)) throw new InputError(what, `reads term '${name}' at a delayed time; write the delay inside the term`, where);
    });
    trees.set(term.name, substitute(node, trees));
  });
  return (src, what) => {
    if (trees.size === 0) return src;
    const node = parseModelText(src.text, what, `${file}:${src.line}`);
    let uses = false;
    node.traverse((n, path) => {
      if (n.type !== 'SymbolNode') return;
      const name = (n as unknown as { name: string }).name;
      if (!trees.has(name)) return;
      if (path === 'fn') throw new InputError(what, `reads term '${name}' at a delayed time; write the delay inside the term`, `${file}:${src.line}`);
      uses = true;
    });
    if (!uses) return src;
    return { text: substitute(node, trees).toString(), line: src.line, written: src.text };
  };
}

function substitute(node: MathNode, trees: ReadonlyMap<string, MathNode>): MathNode {
  return node.transform((n, path) => {
    if (n.type !== 'SymbolNode' || path === 'fn') return n;
    const tree = trees.get((n as unknown as { name: string }).name);
    return tree ? new ParenthesisNode(tree.cloneDeep()) : n;
  });
}
