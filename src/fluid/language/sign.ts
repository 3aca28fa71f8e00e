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
  const rules: SignRules = {
    constant: (v) => v >= 0,
    symbol: known,
    sum: (args) => args.every((a) => proves(a, rules)),
    power: (base, exponent) => evenInteger(exponent) || proves(base, rules),
    always: ['abs', 'exp', 'expdraw'],
    keeps: ['sqrt', 'cbrt', 'floor', 'ceil', 'tanh', 'sign'],
    delayedHasSign: true,
  };
  return proves(node, rules);
}

/**
 * One sign property (>= 0, > 0) as rules per kind of node; {@link proves} walks the tree. Products,
 * quotients, unary plus, both branches of `c ? a : b` and min need every term to have the property;
 * max needs one argument to have it.
 */
interface SignRules {
  /** A number literal. */
  constant(v: number): boolean;
  /** A symbol (and, where `delayedHasSign`, the delayed value X(t - d) of a symbol X). */
  symbol(name: string): boolean;
  /** A sum of the terms `args`. */
  sum(args: MathNode[]): boolean;
  /** base ^ exponent, the operator and pow(). */
  power(base: MathNode, exponent: MathNode): boolean;
  /** Functions whose value has the property whatever their arguments. */
  always: readonly string[];
  /** Functions whose value has the property when all their arguments have it. */
  keeps: readonly string[];
  /** A call X(d) of one argument is the delayed value of the symbol X, with X's sign. */
  delayedHasSign: boolean;
}

function proves(node: MathNode, rules: SignRules): boolean {
  const n = node as unknown as { type: string; value?: unknown; name?: string; content?: MathNode; fn?: unknown; args?: MathNode[]; trueExpr?: MathNode; falseExpr?: MathNode };
  const all = (xs: MathNode[]): boolean => xs.every((x) => proves(x, rules));
  switch (n.type) {
    case 'ConstantNode':
      return typeof n.value === 'number' && rules.constant(n.value);
    case 'SymbolNode':
      return rules.symbol(n.name!);
    case 'ParenthesisNode':
      return proves(n.content!, rules);
    case 'ConditionalNode':
      return all([n.trueExpr!, n.falseExpr!]);
    case 'OperatorNode': {
      const args = n.args!;
      switch (n.fn as string) {
        case 'add':
          return rules.sum(args);
        case 'multiply':
        case 'divide':
        case 'unaryPlus':
          return all(args);
        case 'pow':
          return rules.power(args[0]!, args[1]!);
        default:
          return false;
      }
    }
    case 'FunctionNode': {
      const fn = (n.fn as { name?: string }).name ?? '';
      const args = n.args!;
      if (rules.always.includes(fn)) return true;
      if (rules.keeps.includes(fn) || fn === 'min') return all(args);
      if (fn === 'max') return args.some((a) => proves(a, rules));
      if (fn === 'pow') return rules.power(args[0]!, args[1]!);
      if (rules.delayedHasSign && args.length === 1) return rules.symbol(fn);
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

/**
 * Whether `node` is > 0 for every value its symbols may take (the periods of clocks and timers, the
 * windows of maxover/minover): constants > 0 and the symbols `pos` names; sums of terms >= 0 with at
 * least one > 0; products and quotients of terms > 0; x^k of x > 0; max with one argument > 0, min
 * with all; exp; sqrt, cbrt of terms > 0; `c ? a : b` with both branches > 0. `nonNeg` decides the
 * terms of a sum that may be 0.
 */
export function positive(node: MathNode, pos: (name: string) => boolean, nonNeg: (name: string) => boolean): boolean {
  const rules: SignRules = {
    constant: (v) => v > 0,
    symbol: pos,
    sum: (args) => args.every((a) => nonNegative(a, nonNeg)) && args.some((a) => proves(a, rules)),
    power: (base) => proves(base, rules),
    always: ['exp'],
    keeps: ['sqrt', 'cbrt'],
    delayedHasSign: false,
  };
  return proves(node, rules);
}

/**
 * The symbols of a bottleneck and a flow model that are provably > 0: parameters with min > 0, states
 * with a min bound > 0, outputs whose expression is > 0, and R (the propagation RTT is > 0) when the
 * queueing delay is >= 0. `nonNeg` is {@link nonNegativeSymbols}' answer.
 */
export function positiveSymbols(bn: ModelFile, fl: ModelFile, nonNeg: ReadonlySet<string>, parseAt: (m: ModelFile, src: Located, what: string) => MathNode): Set<string> {
  const yes = new Set<string>();
  const known = (name: string): boolean => yes.has(name);
  const nn = (name: string): boolean => nonNeg.has(name);
  const addModel = (m: ModelFile): void => {
    for (const p of m.params) if (p.min > 0) yes.add(p.name);
    for (const s of m.states) if (s.min !== undefined && positive(parseAt(m, s.min, `states.${s.name}.min`), known, nn)) yes.add(s.name);
    for (const o of m.outputs) if (positive(parseAt(m, o, `output '${o.name}'`), known, nn)) yes.add(o.name);
  };
  addModel(bn);
  if (nonNeg.has('R')) yes.add('R');
  addModel(fl);
  return yes;
}
