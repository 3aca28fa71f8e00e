import type { EvalFunction, MathNode } from 'mathjs';
import { and, mathWithTransform, or } from '../io/mathjs.js';

/**
 * A mathjs expression node evaluated as one generated JavaScript function, with mathjs's own
 * results: the stability analysis's Newton iterations (src/theory/stability.ts) evaluate the same
 * few right-hand sides thousands of times per operating point, and mathjs's evaluation (a closure
 * per node, every variable read through its scope wrapper's safety checks, a wrapper per call) was
 * about half of an analysis and most of its garbage.
 *
 * Exact by construction, not by approximation: every operator and function is the very function
 * mathjs's compile binds (`mathWithTransform[fn]`, taken once here as mathjs takes it once), called
 * on the same arguments; only + - * / and unary -/+ on two numbers are written as JavaScript
 * operators, which is what mathjs's number implementations are (addNumber is `a + b`, and so on:
 * mathjs/lib/esm/plain/number/arithmetic.js). Anything else mathjs does differently (a symbol not in
 * the scope, a condition that is not a number or boolean, a scope that is not a plain object, a
 * node type or lazy function not handled here, any error) sends that call to mathjs's own compiled
 * evaluation, which then gives its value or its error.
 *
 * The right-hand sides are DAGs (linearModel.ts shares inlined definitions): each distinct node is
 * computed once per call, into a local, in dependency order. Both branches of a conditional are
 * computed (the expressions are pure; a branch that throws sends the call to mathjs, as above).
 */

type Node = MathNode & { type: string };
type Sym = { name: string };
type Op = { fn: string; args: MathNode[] };
type Fn = { fn: MathNode; args: MathNode[]; optional?: boolean };
type Cond = { condition: MathNode; trueExpr: MathNode; falseExpr: MathNode };

/** Thrown by the generated code where mathjs would do something it does not: the call goes to mathjs. */
const FALLBACK = new Error('evaluate with mathjs');

/** Operators on two numbers that mathjs computes as the JavaScript operator (its number implementations). */
const NUMBER_BINARY: Readonly<Record<string, string>> = { add: '+', subtract: '-', multiply: '*', divide: '/' };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const math = mathWithTransform as unknown as Record<string, ((...x: unknown[]) => unknown) & { rawArgs?: boolean }>;

/** A node's operands in evaluation order, or null for a node type not handled here. */
function children(n: Node): MathNode[] | null {
  switch (n.type) {
    case 'ConstantNode':
    case 'SymbolNode':
      return [];
    case 'ParenthesisNode':
      return [(n as unknown as { content: MathNode }).content];
    case 'OperatorNode':
      return (n as unknown as Op).args;
    case 'FunctionNode':
      return (n as unknown as Fn).args;
    case 'ConditionalNode': {
      const c = n as unknown as Cond;
      return [c.condition, c.trueExpr, c.falseExpr];
    }
    default:
      return null;
  }
}

/** One generated body: the nodes' locals in dependency order, the constants and functions they read. */
class Generator {
  readonly index = new Map<MathNode, string>();
  readonly lines: string[] = [];
  readonly constants: unknown[] = [];
  readonly fns: unknown[] = [];

  private fnRef(f: unknown): string {
    return `O[${this.fns.push(f) - 1}]`;
  }

  /** Every node under `root` emitted after its operands (iterative post-order: the trees can be deep), each once; false if one is not handled. */
  visit(root: MathNode): boolean {
    const stack: { n: Node; expanded: boolean }[] = [{ n: root as Node, expanded: false }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (this.index.has(top.n)) {
        stack.pop();
        continue;
      }
      const kids = children(top.n);
      if (kids === null) return false;
      if (!top.expanded) {
        top.expanded = true;
        for (const k of kids) if (!this.index.has(k)) stack.push({ n: k as Node, expanded: false });
        continue;
      }
      stack.pop();
      const code = this.emit(top.n, kids.map((k) => this.index.get(k)!));
      if (code === null) return false;
      if (top.n.type === 'ParenthesisNode') {
        this.index.set(top.n, code);
      } else {
        const v = `v${this.lines.length}`;
        this.lines.push(`const ${v} = ${code};`);
        this.index.set(top.n, v);
      }
    }
    return true;
  }

  /** The JS of one node from its operands' locals `a`, or null when mathjs must evaluate the expression. */
  private emit(n: Node, a: string[]): string | null {
    switch (n.type) {
      case 'ConstantNode':
        return `C[${this.constants.push((n as unknown as { value: unknown }).value) - 1}]`;
      case 'ParenthesisNode':
        return a[0]!;
      case 'SymbolNode': {
        // mathjs reads a plain-object scope's own or inherited key (not Object.prototype's), else math's constant: that case goes to mathjs.
        const name = (n as unknown as Sym).name;
        if (!IDENTIFIER.test(name) || name in Object.prototype) return null;
        return `('${name}' in s ? s.${name} : F())`;
      }
      case 'OperatorNode':
        return this.operator((n as unknown as Op).fn, a);
      case 'FunctionNode': {
        const { fn, optional } = n as unknown as Fn;
        if (optional || (fn as Node).type !== 'SymbolNode') return null;
        const name = (fn as unknown as Sym).name;
        if (!IDENTIFIER.test(name) || name in Object.prototype || !Object.hasOwn(math, name)) return null;
        const f = math[name]!;
        if (typeof f !== 'function' || f.rawArgs === true) return null;
        // mathjs takes a function of that name from the scope first: that case goes to mathjs.
        return `('${name}' in s ? F() : ${this.fnRef(f)}(${a.join(', ')}))`;
      }
      case 'ConditionalNode':
        return `(T(${a[0]}) ? ${a[1]} : ${a[2]})`;
      default:
        return null;
    }
  }

  private operator(fn: string, a: string[]): string | null {
    if (typeof fn !== 'string' || !Object.hasOwn(math, fn) || typeof math[fn] !== 'function') return null;
    const f = math[fn]!;
    if (f.rawArgs === true) {
      // and/or are lazy transforms in mathjs (the second operand evaluated only when needed), with the result of the plain function.
      if ((fn !== 'and' && fn !== 'or') || a.length !== 2) return null;
      const plain = this.fnRef(fn === 'and' ? and : or);
      const [x, y] = a as [string, string];
      return fn === 'and' ? `(P(${x}) && !${plain}(${x}, true) ? false : ${plain}(${x}, ${y}))` : `(P(${x}) && ${plain}(${x}, false) ? true : ${plain}(${x}, ${y}))`;
    }
    const ref = this.fnRef(f);
    const op = NUMBER_BINARY[fn];
    if (op && a.length === 2) return `(typeof ${a[0]} === 'number' && typeof ${a[1]} === 'number' ? ${a[0]} ${op} ${a[1]} : ${ref}(${a[0]}, ${a[1]}))`;
    if (fn === 'unaryMinus' && a.length === 1) return `(typeof ${a[0]} === 'number' ? -${a[0]} : ${ref}(${a[0]}))`;
    if (fn === 'unaryPlus' && a.length === 1) return `(typeof ${a[0]} === 'number' ? ${a[0]} : ${ref}(${a[0]}))`;
    return `${ref}(${a.join(', ')})`;
  }
}

/** The generated body for `root`, or null when a node is outside what is handled (then mathjs evaluates it all). */
function generate(root: MathNode): { body: string; constants: unknown[]; fns: unknown[] } | null {
  const g = new Generator();
  if (!g.visit(root)) return null;
  return { body: `${g.lines.join('\n')}\nreturn ${g.index.get(root)};`, constants: g.constants, fns: g.fns };
}

type Generated = (s: Record<string, unknown>, C: unknown[], O: unknown[], F: () => never, T: (c: unknown) => boolean, P: (c: unknown) => boolean) => unknown;

/**
 * Generated functions by their text. Constants and functions are arguments, not text, so the same
 * model at another operating point (its parameters are constants of its linear model) is the same
 * text: one function, compiled and optimised once for all the points of a report.
 */
const bodies = new Map<string, Generated>();
const MAX_BODIES = 256;

/** mathjs's testCondition for the primitive conditions; anything else goes to mathjs. */
function testCondition(c: unknown): boolean {
  if (typeof c === 'number' || typeof c === 'boolean' || typeof c === 'string') return !!c;
  throw FALLBACK;
}

/** Whether a value is one the and/or transforms treat as a scalar (a primitive); anything else goes to mathjs. */
function primitive(c: unknown): boolean {
  if (typeof c === 'number' || typeof c === 'boolean' || typeof c === 'string') return true;
  throw FALLBACK;
}

function fallback(): never {
  throw FALLBACK;
}

/**
 * `node` evaluated as mathjs evaluates it (`mathjs` is its compiled form, used for whatever the
 * generated function does not handle); the scope is read, never written.
 */
export function nativeEvaluator(node: MathNode, mathjsOf: () => EvalFunction): EvalFunction {
  const g = generate(node);
  if (!g) return mathjsOf();
  let mathjs: EvalFunction | undefined;
  let fn = bodies.get(g.body);
  if (!fn) {
    if (bodies.size >= MAX_BODIES) bodies.clear();
    bodies.set(g.body, (fn = new Function('s', 'C', 'O', 'F', 'T', 'P', g.body) as Generated));
  }
  const { constants, fns } = g;
  return {
    evaluate(scope?: unknown): unknown {
      // mathjs wraps a plain object (and refuses a scope holding the keyword `end`); any other scope goes to it.
      if (typeof scope === 'object' && scope !== null && scope.constructor === Object && !('end' in scope)) {
        try {
          const v = fn(scope as Record<string, unknown>, constants, fns, fallback, testCondition, primitive);
          nativeEvalStats.native++;
          return v;
        } catch {
          // mathjs's value or mathjs's error
        }
      }
      nativeEvalStats.mathjs++;
      return (mathjs ??= mathjsOf()).evaluate(scope as Parameters<EvalFunction["evaluate"]>[0]);
    },
  };
}

/** Calls answered by the generated function and by mathjs (tests check that the analyses take the first). */
export const nativeEvalStats = { native: 0, mathjs: 0 };
