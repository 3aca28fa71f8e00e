import type { MathNode } from 'mathjs';
import type { Located } from './located.js';
import type { ModelFile } from './modelFile.js';

/**
 * A conservative sign analysis of model expressions: `nonNegative` is true only when the expression
 * is >= 0 for every value its symbols may take. It proves that a delayed value `X(t - d)` looks into
 * the past (d >= 0): a lag that reads the future (`W(t + 1)`) has no value in a DDE solver's history.
 * What it cannot prove is refused, so the rules are few and sound:
 * - constants >= 0, and the symbols `known` says are >= 0 (parameters with min >= 0, states held at
 *   a bound >= 0, outputs whose expression is >= 0, R when the queueing delay is >= 0, t);
 * - sums, products and quotients of such terms; x^k with an even integer k or a base >= 0;
 * - abs, exp, sqrt, cbrt, floor, ceil, tanh, sign of terms >= 0; max with one argument >= 0, min with all;
 * - `c ? a : b` with both branches >= 0.
 */
export function nonNegative(node: MathNode, known: (name: string) => boolean): boolean {
  const n = node as unknown as { type: string; value?: unknown; name?: string; content?: MathNode; fn?: unknown; args?: MathNode[]; trueExpr?: MathNode; falseExpr?: MathNode };
  const all = (xs: MathNode[]): boolean => xs.every((x) => nonNegative(x, known));
  switch (n.type) {
    case 'ConstantNode':
      return typeof n.value === 'number' && n.value >= 0;
    case 'SymbolNode':
      return known(n.name!);
    case 'ParenthesisNode':
      return nonNegative(n.content!, known);
    case 'ConditionalNode':
      return all([n.trueExpr!, n.falseExpr!]);
    case 'OperatorNode': {
      const args = n.args!;
      switch (n.fn as string) {
        case 'add':
        case 'multiply':
        case 'divide':
        case 'unaryPlus':
          return all(args);
        case 'pow':
          return evenInteger(args[1]!) || nonNegative(args[0]!, known);
        default:
          return false;
      }
    }
    case 'FunctionNode': {
      const fn = (n.fn as { name?: string }).name ?? '';
      const args = n.args!;
      if (fn === 'abs' || fn === 'exp' || fn === 'expdraw') return true;
      if (['sqrt', 'cbrt', 'floor', 'ceil', 'tanh', 'sign'].includes(fn)) return all(args);
      if (fn === 'min') return all(args);
      if (fn === 'max') return args.some((a) => nonNegative(a, known));
      if (fn === 'pow') return evenInteger(args[1]!) || nonNegative(args[0]!, known);
      // A delayed value X(t - d) has the sign of X.
      if (args.length === 1) return known(fn);
      return false;
    }
    default:
      return false;
  }
}

function evenInteger(node: MathNode): boolean {
  const v = (node as unknown as { type: string; value?: unknown }).value;
  return (node as unknown as { type: string }).type === 'ConstantNode' && typeof v === 'number' && Number.isInteger(v) && v % 2 === 0;
}

/**
 * The symbols of a bottleneck and a flow model that are provably >= 0, in declaration order (an
 * output may use only earlier outputs, so one pass decides them all). `parseAt` parses one located
 * expression and throws InputError naming its file and line.
 */
export function nonNegativeSymbols(bn: ModelFile, fl: ModelFile, parseAt: (m: ModelFile, src: Located, what: string) => MathNode): Set<string> {
  const yes = new Set<string>(['t']);
  const known = (name: string): boolean => yes.has(name);
  const addModel = (m: ModelFile): void => {
    for (const p of m.params) if (p.min >= 0) yes.add(p.name);
    for (const s of m.states) if (s.min !== undefined && nonNegative(parseAt(m, s.min, `states.${s.name}.min`), known)) yes.add(s.name);
    for (const o of m.outputs) if (nonNegative(parseAt(m, o, `output '${o.name}'`), known)) yes.add(o.name);
  };
  addModel(bn);
  if (bn.delay && nonNegative(parseAt(bn, bn.delay, 'delay'), known)) yes.add('R');
  addModel(fl);
  return yes;
}
