import { parse } from '../../io/mathjs.js';
import type { MathNode } from 'mathjs';
import { InputError } from '../../errors.js';
import type { Located } from './located.js';

/**
 * Parse, check and translate one model expression to JavaScript source.
 * Only what a rate equation needs is accepted: numbers, declared symbols, + - * / ^, comparisons,
 * and/or/not, `c ? a : b`, parentheses, the math functions in {@link FUNCTIONS}, and delayed values
 * written as calls `X(t - R)` of a delayable symbol. Everything else (assignment, indexing, strings,
 * matrices, units, user functions) is an InputError naming file, line and the offending symbol.
 * The output is built only from this checked tree, never from the user's text.
 */

/** A resolved symbol: how to read it from the current or a delayed snapshot. */
export interface SymbolRef {
  /** JS for the value, given the names of the state array and the snapshot array to read from. */
  code(Y: string, Z: string): string;
  /** Whether `name(t - d)` is allowed (states and outputs; not parameters or t). */
  delayable: boolean;
}

export type Resolver = (name: string) => SymbolRef | undefined;

/** Whitelisted functions and their JS translation (arity checked). */
export const FUNCTIONS: Readonly<Record<string, { js: string; arity: [number, number] }>> = {
  abs: { js: 'Math.abs', arity: [1, 1] },
  sqrt: { js: 'Math.sqrt', arity: [1, 1] },
  cbrt: { js: 'Math.cbrt', arity: [1, 1] },
  exp: { js: 'Math.exp', arity: [1, 1] },
  log: { js: 'Math.log', arity: [1, 1] },
  log2: { js: 'Math.log2', arity: [1, 1] },
  log10: { js: 'Math.log10', arity: [1, 1] },
  min: { js: 'Math.min', arity: [2, 8] },
  max: { js: 'Math.max', arity: [2, 8] },
  pow: { js: 'Math.pow', arity: [2, 2] },
  floor: { js: 'Math.floor', arity: [1, 1] },
  ceil: { js: 'Math.ceil', arity: [1, 1] },
  sign: { js: 'Math.sign', arity: [1, 1] },
  tanh: { js: 'Math.tanh', arity: [1, 1] },
};

const BINARY: Readonly<Record<string, string>> = {
  add: '+', subtract: '-', multiply: '*', divide: '/',
  smaller: '<', smallerEq: '<=', larger: '>', largerEq: '>=', equal: '===', unequal: '!==',
  and: '&&', or: '||',
};

export interface Compiled {
  /** JS expression source. */
  js: string;
  /** Statements that must precede it (delayed snapshot look-ups), deduplicated by argument. */
  prologue: string[];
  node: MathNode;
}

export interface EmitContext {
  /** `model.yaml:line` for messages. */
  where: string;
  /** What is being compiled, e.g. `dW/dt`, for messages. */
  what: string;
  resolve: Resolver;
  /** Whether delayed calls are allowed here (not in outputs, initial values, bounds). */
  allowDelays: boolean;
  /** Shared across the expressions of one generated function: argument JS -> index of its look-up. */
  delays: Map<string, number>;
  /** Names that are known but not allowed in this context, with the reason (for a better message). */
  forbidden?: Map<string, string>;
  /** Whether `expdraw()` (the next loss threshold) may be used: in event assignments and a flow state's initial value. */
  allowDraw?: boolean;
  /**
   * Whether a lag `d` of `X(t - d)` is provably >= 0 (src/fluid/language/sign.ts): a delayed value must look
   * into the past. Without it no delayed value is accepted.
   */
  lagNonNegative?: (lag: MathNode) => boolean;
  /** Where maxover/minover may be used (equations, terms, events): how their signals are registered. */
  windows?: WindowContext;
}

/**
 * The compiler's side of `maxover(signal, window[, step])` and `minover`: `register` compiles the
 * signal into a sampler of its own (evaluated on snapshots of the accepted solution) and returns its
 * index, which the generated call `past.over(k, off, t, window, now)` names; `positive` decides
 * whether a window is provably > 0.
 */
export interface WindowContext {
  register(kind: 'max' | 'min', signal: MathNode, stepS: number | undefined): number;
  positive(node: MathNode): boolean;
}

/** `t - d` (in any parentheses) as its lag `d`; `t` alone as lag 0; anything else undefined. */
function lagOf(arg: MathNode): MathNode | 'zero' | undefined {
  let a = arg as unknown as { type: string; content?: MathNode; name?: string; fn?: string; args?: MathNode[] };
  while (a.type === 'ParenthesisNode') a = a.content as unknown as typeof a;
  if (a.type === 'SymbolNode' && a.name === 't') return 'zero';
  if (a.type !== 'OperatorNode' || a.fn !== 'subtract' || a.args!.length !== 2) return undefined;
  let left = a.args![0] as unknown as typeof a;
  while (left.type === 'ParenthesisNode') left = left.content as unknown as typeof a;
  return left.type === 'SymbolNode' && left.name === 't' ? a.args![1] : undefined;
}

/**
 * Size limits of a model expression. mathjs parses by recursive descent, and compiling, LaTeX and
 * the sign analysis walk the tree recursively: 300 nested brackets or a 200,000-term sum exhaust the
 * stack. The limits apply to the text as written; an equation with its terms substituted
 * (src/fluid/language/terms.ts) is held to {@link EXPANDED_LIMITS}, still far from the stack's.
 */
export const MAX_EXPRESSION_CHARS = 2000;
export const MAX_EXPRESSION_NESTING = 32;
export const MAX_EXPRESSION_DEPTH = 200;

export interface ExpressionLimits {
  chars: number;
  nesting: number;
  depth: number;
}
export const WRITTEN_LIMITS: Readonly<ExpressionLimits> = { chars: MAX_EXPRESSION_CHARS, nesting: MAX_EXPRESSION_NESTING, depth: MAX_EXPRESSION_DEPTH };
export const EXPANDED_LIMITS: Readonly<ExpressionLimits> = { chars: 20_000, nesting: 96, depth: MAX_EXPRESSION_DEPTH };

/** What is wrong with an expression's text before parsing (too long, brackets too deep), or null. */
export function expressionTextProblem(text: string, limits: Readonly<ExpressionLimits> = WRITTEN_LIMITS): string | null {
  const how = limits === WRITTEN_LIMITS ? '' : ' with its terms substituted';
  if (text.length > limits.chars) return `is ${text.length} characters long${how}, more than the ${limits.chars} accepted (split it into outputs or terms)`;
  let depth = 0;
  let max = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '[' || ch === '{') max = Math.max(max, ++depth);
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
  }
  if (max > limits.nesting) return `nests brackets ${max} deep${how}, more than the ${limits.nesting} accepted`;
  return null;
}

/** Height of a parse tree, without recursion (the tree may be too deep for it). */
function treeDepth(root: MathNode): number {
  let max = 0;
  const stack: [MathNode, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    if (d > max) max = d;
    node.forEach((child) => stack.push([child, d + 1]));
  }
  return max;
}

/**
 * Parses one model expression, within the size limits; every part of cclab that parses model text
 * (compiling, LaTeX) goes through here. Throws InputError `what ...` located at `where` (file:line).
 */
export function parseModelText(text: string, what: string, where: string, limits: Readonly<ExpressionLimits> = WRITTEN_LIMITS): MathNode {
  const problem = expressionTextProblem(text, limits);
  if (problem) throw new InputError(what, problem, where);
  let node: MathNode;
  try {
    node = parse(text);
  } catch (e) {
    throw new InputError(what, `is not a valid expression: ${(e as Error).message}`, where);
  }
  const depth = treeDepth(node);
  if (depth > limits.depth) throw new InputError(what, `nests ${depth} operations deep, more than the ${limits.depth} accepted (split it into outputs or terms)`, where);
  return node;
}

/** Parse a located expression: the written limits, or the expanded ones for an equation with terms substituted. */
export function parseExpr(src: Located & { written?: string }, file: string, what: string): MathNode {
  return parseModelText(src.text, what, `${file}:${src.line}`, src.written === undefined ? WRITTEN_LIMITS : EXPANDED_LIMITS);
}

/** Check `node` and emit JS for it. */
export function emit(node: MathNode, ctx: EmitContext): Compiled {
  const e = new Emitter(ctx);
  const js = e.go(node, 'Y', 'Z', 't', false);
  return { js, prologue: e.prologue, node };
}

/** The windowed extrema `maxover(signal, window)` and `minover(...)` (models/README.md). */
const WINDOW_FUNCTIONS: Readonly<Record<string, 'max' | 'min'>> = { maxover: 'max', minover: 'min' };

/** One emission: the checked tree walked to JS, the delayed look-ups it needs gathered in `prologue`. */
class Emitter {
  readonly prologue: string[] = [];
  constructor(private readonly ctx: EmitContext) {}

  fail(problem: string): never {
    throw new InputError(this.ctx.what, problem, this.ctx.where);
  }

  private sym(name: string, Y: string, Z: string, tName: string): string {
    if (name === 't') return tName;
    const ref = this.ctx.resolve(name);
    if (!ref) {
      const why = this.ctx.forbidden?.get(name);
      return this.fail(why ? `uses '${name}', which ${why}` : `uses unknown symbol '${name}' (not a declared state, parameter, output or known symbol)`);
    }
    return ref.code(Y, Z);
  }

  go(n: MathNode, Y: string, Z: string, tName: string, inDelay: boolean): string {
    switch (n.type) {
      case 'ConstantNode': {
        const v = (n as unknown as { value: unknown }).value;
        if (typeof v !== 'number' || !Number.isFinite(v)) return this.fail(`contains a constant '${String(v)}' that is not a finite number`);
        return v < 0 ? `(${v})` : String(v);
      }
      case 'SymbolNode':
        return this.sym((n as unknown as { name: string }).name, Y, Z, tName);
      case 'ParenthesisNode':
        return `(${this.go((n as unknown as { content: MathNode }).content, Y, Z, tName, inDelay)})`;
      case 'ConditionalNode': {
        const c = n as unknown as { condition: MathNode; trueExpr: MathNode; falseExpr: MathNode };
        return `(${this.go(c.condition, Y, Z, tName, inDelay)} ? ${this.go(c.trueExpr, Y, Z, tName, inDelay)} : ${this.go(c.falseExpr, Y, Z, tName, inDelay)})`;
      }
      case 'OperatorNode':
        return this.operator(n as unknown as { fn: string; op: string; args: MathNode[] }, Y, Z, tName, inDelay);
      case 'FunctionNode':
        return this.call(n as unknown as { fn: MathNode; args: MathNode[] }, Y, Z, tName, inDelay);
      default:
        return this.fail(`contains a ${n.type.replace('Node', '').toLowerCase()} expression, which is not allowed in a model`);
    }
  }

  private operator(o: { fn: string; op: string; args: MathNode[] }, Y: string, Z: string, tName: string, inDelay: boolean): string {
    const a = o.args.map((x) => this.go(x, Y, Z, tName, inDelay));
    if (o.args.length === 1) {
      if (o.fn === 'unaryMinus') return `(-${a[0]})`;
      if (o.fn === 'unaryPlus') return `(+${a[0]})`;
      if (o.fn === 'not') return `(!${a[0]})`;
      return this.fail(`uses the operator '${o.op}', which is not allowed (only + - * / ^, comparisons, and/or/not)`);
    }
    if (o.args.length === 2) {
      if (o.fn === 'pow') return powJs(a[0]!, o.args[1]!, a[1]!);
      const js = Object.hasOwn(BINARY, o.fn) ? BINARY[o.fn] : undefined;
      if (js) return `(${a[0]} ${js} ${a[1]})`;
    }
    return this.fail(`uses the operator '${o.op}', which is not allowed (only + - * / ^, comparisons, and/or/not)`);
  }

  private call(f: { fn: MathNode; args: MathNode[] }, Y: string, Z: string, tName: string, inDelay: boolean): string {
    if (f.fn.type !== 'SymbolNode') return this.fail('calls something that is not a plain name');
    const name = (f.fn as unknown as { name: string }).name;
    if (name === 'expdraw') {
      // The threshold of the next loss event: 1 (periodic losses, the expected value) or a seeded
      // Exp(1) draw (Poisson losses, a stochastic hybrid system), chosen by the engine.
      if (!this.ctx.allowDraw) return this.fail("uses expdraw(), which is allowed only in an event's assignments and a flow state's initial value");
      if (f.args.length !== 0) return this.fail('calls expdraw with arguments (it takes none)');
      return 'past.draw()';
    }
    if (Object.hasOwn(WINDOW_FUNCTIONS, name)) return this.window(name, f.args, Y, Z, tName, inDelay);
    const known = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    if (known) {
      if (f.args.length < known.arity[0] || f.args.length > known.arity[1]) {
        return this.fail(`calls ${name} with ${f.args.length} arguments (expects ${known.arity[0]}${known.arity[1] > known.arity[0] ? `-${known.arity[1]}` : ''})`);
      }
      if (name === 'pow') return powJs(this.go(f.args[0]!, Y, Z, tName, inDelay), f.args[1]!, this.go(f.args[1]!, Y, Z, tName, inDelay));
      return `${known.js}(${f.args.map((x) => this.go(x, Y, Z, tName, inDelay)).join(', ')})`;
    }
    const ref = name === 't' ? undefined : this.ctx.resolve(name);
    if (ref && ref.delayable) return this.delayed(name, ref, f.args, Y, Z, tName, inDelay);
    if (ref) return this.fail(`calls '${name}(...)', but '${name}' is a parameter: only states and outputs have a past`);
    return this.fail(`calls unknown function '${name}' (allowed: ${Object.keys(FUNCTIONS).join(', ')}, maxover, minover, or a delayed state/output like W(t - R))`);
  }

  /** `X(t - d)`: a look-up of the snapshot at t - d, shared by every use of the same time in one function. */
  private delayed(name: string, ref: SymbolRef, args: MathNode[], Y: string, Z: string, tName: string, inDelay: boolean): string {
    const ctx = this.ctx;
    if (!ctx.allowDelays) return this.fail(`uses the delayed value '${name}(...)', allowed only in equations and events`);
    if (inDelay) return this.fail(`nests a delayed value inside the time argument of another ('${name}(...)')`);
    if (args.length !== 1) return this.fail(`writes the delayed value '${name}(...)' with ${args.length} arguments (expects one time, e.g. ${name}(t - R))`);
    const lag = lagOf(args[0]!);
    if (lag === undefined || (lag !== 'zero' && !ctx.lagNonNegative?.(lag))) {
      return this.fail(
        `reads ${name}(${args[0]!.toString()}), which may lie in the future: a delayed value is ${name}(t - d) with a lag d that is provably >= 0 ` +
          '(R, constants, parameters and states with min >= 0, and sums, products, quotients, max of these)',
      );
    }
    const arg = this.go(args[0]!, Y, Z, tName, true);
    let k = ctx.delays.get(arg);
    if (k === undefined) {
      k = ctx.delays.size;
      ctx.delays.set(arg, k);
      this.prologue.push(`const _s${k} = ${arg}; const _p${k} = past(_s${k}); const _Y${k} = _p${k}.Y, _Z${k} = _p${k}.Z;`);
    }
    return ref.code(`_Y${k}`, `_Z${k}`);
  }

  /**
   * `maxover(signal, window[, step])`: the largest value of `signal` over [t - window, t], from its
   * samples every `step` seconds in the accepted solution and its value now (WindowContext).
   */
  private window(name: string, args: MathNode[], Y: string, Z: string, tName: string, inDelay: boolean): string {
    const w = this.ctx.windows;
    if (!w) return this.fail(`uses ${name}(), allowed only in equations, terms and events (a windowed extremum has no value at a delayed time)`);
    if (inDelay) return this.fail(`nests ${name}(...) inside the time argument of a delayed value`);
    if (args.length < 2 || args.length > 3) return this.fail(`calls ${name} with ${args.length} arguments (expects ${name}(signal, window) or ${name}(signal, window, step))`);
    if (!w.positive(args[1]!)) {
      return this.fail(`calls ${name} with the window '${args[1]!.toString()}', which is not provably > 0 (a positive constant, or parameters, states and outputs with min > 0 and sums, products, quotients, max of these)`);
    }
    let stepS: number | undefined;
    if (args[2]) {
      const c = args[2] as unknown as { type: string; value?: unknown };
      if (c.type !== 'ConstantNode' || typeof c.value !== 'number' || !(c.value > 0) || !Number.isFinite(c.value)) return this.fail(`calls ${name} with the step '${args[2].toString()}', which must be a number > 0 (seconds between samples)`);
      stepS = c.value;
    }
    let cur: string;
    try {
      cur = this.go(args[0]!, Y, Z, tName, inDelay);
    } catch (e) {
      if (e instanceof InputError) throw new InputError(e.field, `in ${name}(...) ${e.problem}`, e.source);
      throw e;
    }
    const win = this.go(args[1]!, Y, Z, tName, inDelay);
    const k = w.register(WINDOW_FUNCTIONS[name]!, args[0]!, stepS);
    return `past.over(${k}, off, ${tName}, ${win}, ${cur})`;
  }
}

/**
 * `base ^ exponent`: a constant exponent 2, 3 or 4 becomes multiplications (helpers `$sq`, `$cube`,
 * `$p4` that every generated function defines, see compiler/compileSystem.ts): Math.pow costs ~40 ns, a product ~1 ns,
 * and CUBIC's `(s + R - K)^3` sits in every snapshot. Same value to within an ulp or two.
 */
function powJs(base: string, exponentNode: MathNode, exponent: string): string {
  const e = exponentNode as unknown as { type: string; value?: unknown };
  if (e.type === 'ConstantNode' && typeof e.value === 'number') {
    if (e.value === 2) return `$sq(${base})`;
    if (e.value === 3) return `$cube(${base})`;
    if (e.value === 4) return `$p4(${base})`;
  }
  return `Math.pow(${base}, ${exponent})`;
}

/** Parse + check + emit in one call. */
export function compileExpr(src: Located, file: string, ctx: Omit<EmitContext, 'where'>): Compiled {
  const node = parseExpr(src, file, ctx.what);
  return emit(node, { ...ctx, where: `${file}:${src.line}` });
}
