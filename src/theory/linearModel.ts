import type { EvalFunction, MathNode } from 'mathjs';
import { ConstantNode, derivative, ParenthesisNode, parse } from '../io/mathjs.js';
import { InputError } from '../errors.js';
import type { ParsedModel } from '../fluid/language/modelDoc.js';
import { nativeEvaluator } from './nativeEval.js';

/**
 * A fluid model's equations as plain expressions of its variables, for equilibria and
 * linearisation (src/theory/stability.ts). N identical flows of one mean-field model share the
 * bottleneck, so one flow's states stand for all (A = N x rate). Outputs, R (= Tp + the
 * bottleneck's delay) and A are substituted by their definitions; a delayed value X(t - R) becomes
 * the variable `X_tau` (and its definition is written in delayed variables); parameters become
 * numbers; staircases (floor, ceil, round, fix) become the line through their steps' middles
 * ({@link STAIRCASE_MIDLINE}). Conditionals, min, max, abs and sign stay until {@link resolveAt} picks the branch an
 * operating point is on, so mathjs `derivative` can differentiate what is left.
 */

export interface LinearModel {
  /** Continuous flow states, then the bottleneck's, in the order of `rhs`. */
  states: string[];
  /** The right-hand side of each state's equation (in `states` order). */
  rhs: MathNode[];
  /**
   * The bottleneck's drop probability `p` at the current time, in the states. In `rhs` it stays the
   * variable `p` (`p_tau` delayed): the loop is broken there, as Hollot et al. do.
   */
  p: MathNode;
  /** The per-flow send rate `rate` (packets/s) and the RTT R. */
  rate: MathNode;
  R: MathNode;
  /** Which states belong to the bottleneck (`q`, `v`, ...). */
  bottleneckStates: string[];
}

type Sym = { name: string };
type Fn = { fn: { name: string }; args: MathNode[] };

const MATH_FUNCTIONS = new Set(['abs', 'sqrt', 'cbrt', 'exp', 'log', 'log2', 'log10', 'min', 'max', 'pow', 'floor', 'ceil', 'round', 'fix', 'sign', 'tanh']);

/**
 * Unit staircases (mathjs cannot differentiate them) and the line through the middle of their
 * steps, which the linear analysis uses in their place, for the equilibrium and the loop alike.
 *
 * Why not their derivative "0 almost everywhere" (locally constant between jumps): the staircases
 * in the models are integer rounding in a per-ACK rule, e.g. the whole-byte growth
 * max(1, floor(mss / W)) W / (mss b) per RTT of Reno, NewReno and Westwood+. A mean-field window is
 * the mean of a sawtooth that spans many of these steps (one every W^2 / mss segments: 0.15 at
 * W = 15, mss 1460; 21 at W = 85, mss 340, against a sawtooth of +-W/3), so the loop sees the
 * staircase's mean slope (the equivalent gain 1 of a quantiser driven across many steps, Widrow's
 * quantisation-noise model), not the slope between two jumps; and at a jump the locally constant
 * reading has no equilibrium at all: on `normal` (mss 340) NewReno's growth falls from 0.5 to
 * 0.375 per RTT across W = 85 while its loss term there is 0.43, so W = 85 is a sliding point of
 * the staircase, not a root. Locally constant, d/dW of that growth would also be
 * floor(mss / W) / (mss b) ~ 1 / (b W), the size of the loss term it competes with; through the
 * middle it is -1 / (2 mss b), as small as it is for smooth segment counting (0).
 */
const STAIRCASE_MIDLINE: Record<string, (u: string) => string> = {
  floor: (u) => `((${u}) - 0.5)`,
  ceil: (u) => `((${u}) + 0.5)`,
  round: (u) => `(${u})`,
  fix: (u) => `((${u}) - 0.5 * sign(${u}))`,
};

/**
 * `text` parsed, once per text in this process: mathjs nodes are immutable (transforms build new
 * ones), so every linear model shares the tree of a definition text. Each operating point builds its
 * own linear model from the same model files, and parsing the same definitions again was ~40% of
 * building one.
 */
function parsed(text: string): MathNode {
  let node = parsedTexts.get(text);
  if (!node) parsedTexts.set(text, (node = parse(text)));
  return node;
}
const parsedTexts = new Map<string, MathNode>();

/** A placeholder name no model uses, for {@link around}. */
const HOLE = 'cclab_inlined_';

/**
 * `template` parsed, with `node` where it names {@link HOLE}. Inlined definitions are put in place as
 * nodes, not printed and parsed again (which grew with each level of nesting, outputs reading
 * outputs: ~45% of building a linear model). Printing and parsing only added parentheses (around a
 * conditional's condition), which change no value: of 65 points (the 6 presets x 8 fluid variants,
 * Hollot et al.'s 7, RED and PIE under 3 variants, 1 to 20 flows) the 35 analysed gave the same
 * analysis byte for byte (equilibrium, margins, L(jw)) and the 30 refused the same message.
 */
function around(template: string, node: MathNode): MathNode {
  return parsed(template).transform((n) => (n.type === 'SymbolNode' && (n as unknown as Sym).name === HOLE ? node : n));
}

/**
 * Build the expressions of `flow` with `N` flows on `bottleneck`. `values` gives every parameter of
 * both models (scenario-bound ones included) and the discrete states (modes) the operating point is in.
 *
 * A name is inlined once per (name, delayed, p kept) and its node shared by every use (mathjs
 * transforms build new nodes, never mutate them): the models' terms read each other many times over
 * (pto reads pfr, chains, wafter, R...), and inlining every use again was exponential in the nesting
 * (~8 of the 13 CPU-seconds of the seed study's stability section).
 */
export function linearModel(flow: ParsedModel, bottleneck: ParsedModel, N: number, values: Record<string, number>): LinearModel {
  if (flow.form !== 'mean-field') {
    throw new InputError('variant', `'${flow.id}' is a hybrid model (discrete loss events): it has no equilibrium to linearise; use a mean-field model (${flow.file})`);
  }
  // A bottleneck whose mode changes at events (CoDel's dropping state, step marking at K) has a limit cycle,
  // not an equilibrium: said as a hybrid model, as for a flow, so a report row names it instead of failing.
  if (bottleneck.events.length > 0) {
    throw new InputError('queue', `the '${bottleneck.id}' bottleneck is a hybrid model (its mode changes at events: ${bottleneck.events.map((e) => e.name).join('; ')}): it has no equilibrium to linearise (${bottleneck.file})`);
  }
  const flowStates = new Set(flow.states.map((s) => s.name));
  const bnStates = new Set(bottleneck.states.map((s) => s.name));
  const flowOut = new Map(flow.outputs.map((o) => [o.name, o.expression]));
  const bnOut = new Map(bottleneck.outputs.map((o) => [o.name, o.expression]));
  const delay = bottleneck.source.delay?.text ?? '0';

  const inline = (text: string, delayed: boolean, depth = 0): MathNode => {
    if (depth > 50) throw new InputError('models', `outputs of ${flow.file} or ${bottleneck.file} refer to each other in a cycle`);
    return parsed(text).transform((n, path): MathNode => {
      // A function's own name is a child of its node: not a variable.
      if (path === 'fn') return n;
      if (n.type === 'FunctionNode') {
        const f = n as unknown as Fn;
        if (!MATH_FUNCTIONS.has(f.fn.name)) {
          // A delayed value X(t - R): the definition of X, in delayed variables.
          return inlineName(f.fn.name, true, depth);
        }
        const mid = STAIRCASE_MIDLINE[f.fn.name];
        if (mid && f.args.length === 1) return inline(mid(f.args[0]!.toString()), delayed, depth);
        return n;
      }
      if (n.type === 'SymbolNode') return inlineName((n as unknown as Sym).name, delayed, depth);
      return n;
    });
    function inlineName(name: string, d: boolean, dp: number): MathNode {
      const key = `${name}|${d}|${keepP}`;
      if (!inlined.has(key)) inlined.set(key, inlineUncached(name, d, dp));
      return inlined.get(key)!;
    }
    function inlineUncached(name: string, d: boolean, dp: number): MathNode {
      // The loop is broken at the drop probability: p stays a variable (p, p_tau) in the flows'
      // equations. pdiffuse (the losses that are not a full queue's bursts) is p wherever the queue is
      // not full, the only place a loop through p exists (a full queue answers with discrete cuts).
      if ((name === 'p' || name === 'pdiffuse') && keepP) return parsed(d ? 'p_tau' : 'p');
      if (flowStates.has(name) && !flow.states.find((s) => s.name === name)!.discrete) return parsed(d ? `${name}_tau` : name);
      if (bnStates.has(name)) return parsed(d ? `${name}_tau` : name);
      if (flowOut.has(name)) return new ParenthesisNode(inline(flowOut.get(name)!, d, dp + 1));
      if (bnOut.has(name)) return new ParenthesisNode(inline(bnOut.get(name)!, d, dp + 1));
      if (name === 'R') return around(`(${values.Tp} + (${HOLE}))`, inline(delay, d, dp + 1));
      if (name === 'A') return around(`(${N} * (${HOLE}))`, inline(flowOut.get('rate') ?? 'W / R', d, dp + 1));
      if (name in values) return parsed(`(${values[name]})`);
      if (name === 't') throw new InputError('models', `${flow.file} uses t: a time-varying right-hand side has no equilibrium`);
      throw new InputError('models', `'${name}' has no value for the linearisation (${flow.file}, ${bottleneck.file})`);
    }
  };
  let keepP = true;
  const inlined = new Map<string, MathNode>();
  const states: string[] = [];
  const rhs: MathNode[] = [];
  for (const m of [flow, bottleneck]) {
    for (const s of m.states) {
      if (s.discrete) continue;
      const eq = m.equations.find((e) => e.state === s.name)!;
      states.push(s.name);
      rhs.push(inline(eq.expression, false));
    }
  }
  keepP = false;
  // A counter (the expected timeouts so far, nto) integrates a rate and feeds back into nothing: it
  // has no equilibrium and no part in the loop, so it is left out. A state no right-hand side reads.
  const read = symbolsRead(rhs);
  const kept = states.map((name) => read.has(name) || read.has(`${name}_tau`));
  return {
    states: states.filter((_, i) => kept[i]),
    rhs: rhs.filter((_, i) => kept[i]),
    p: inline('p', false),
    rate: inline(flowOut.get('rate') ?? 'W / R', false),
    R: inline('R', false),
    bottleneckStates: bottleneck.states.filter((s) => !s.discrete).map((s) => s.name),
  };
}

/**
 * Every symbol name the nodes read, each shared node visited once (the children mathjs's own
 * `traverse` visits, i.e. `forEach`'s). The inlined definitions are shared, so a right-hand side is a
 * DAG: walked as a tree (`node.filter`, once per state) it was ~80% of building a linear model.
 */
function symbolsRead(nodes: readonly MathNode[]): Set<string> {
  const names = new Set<string>();
  const seen = new Set<MathNode>();
  const stack = [...nodes];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    if (n.type === 'SymbolNode') names.add((n as unknown as Sym).name);
    n.forEach((child) => stack.push(child));
  }
  return names;
}

/**
 * The expression with every conditional, min, max, abs and sign replaced by the branch taken at `point`
 * (a linearisation is local: the branch does not change in a neighbourhood, except exactly on a
 * switching surface, where the side of `point` is taken).
 */
export function resolveAt(node: MathNode, point: Record<string, number>): MathNode {
  const value = (n: MathNode): number => Number(compiled(n).evaluate({ ...point }));
  // node.transform(pick) with each shared node resolved once (the right-hand sides are DAGs: their
  // inlined definitions are shared): the same tree, shared where the input is.
  const done = new Map<MathNode, MathNode>();
  const tr = (n: MathNode): MathNode => {
    let r = done.get(n);
    if (!r) {
      const picked = pick(n);
      done.set(n, (r = picked !== n ? picked : n.map(tr)));
    }
    return r;
  };
  function pick(n: MathNode): MathNode {
    if (n.type === 'ConditionalNode') {
      const c = n as unknown as { condition: MathNode; trueExpr: MathNode; falseExpr: MathNode };
      return tr(value(c.condition) ? c.trueExpr : c.falseExpr);
    }
    if (n.type === 'FunctionNode') {
      const f = n as unknown as Fn;
      if ((f.fn.name === 'min' || f.fn.name === 'max') && f.args.length >= 2) {
        const vals = f.args.map(value);
        const k = vals.indexOf(f.fn.name === 'min' ? Math.min(...vals) : Math.max(...vals));
        return tr(f.args[k]!);
      }
      if (f.fn.name === 'abs' && f.args.length === 1) {
        return value(f.args[0]!) >= 0 ? tr(f.args[0]!) : parse(`-(${tr(f.args[0]!).toString()})`);
      }
      // Locally constant away from its one jump (mathjs has no derivative for it).
      if (f.fn.name === 'sign' && f.args.length === 1) return new ConstantNode(Math.sign(value(f.args[0]!)));
    }
    return n;
  }
  return tr(node);
}

/**
 * A node's compiled form, once per node: the conditions {@link resolveAt} evaluates are the model's own
 * nodes (a transform hands its callback the original nodes), asked again at every point of every
 * Newton try (~9,000 compiles of a few hundred conditions in the seed study's analyses).
 */
function compiled(n: MathNode): EvalFunction {
  let f = compiledNodes.get(n);
  if (!f) compiledNodes.set(n, (f = n.compile()));
  return f;
}
const compiledNodes = new WeakMap<MathNode, EvalFunction>();

/** d node / d variable at `point` (the branch at `point`, then mathjs `derivative`). */
export function partialAt(node: MathNode, variable: string, point: Record<string, number>): number {
  return derivativeAt(resolveAt(node, point), variable, point);
}

/** d node / d variable at `point` for a node already on one branch ({@link resolveAt}). */
export function derivativeAt(resolved: MathNode, variable: string, point: Record<string, number>): number {
  // Unsimplified: mathjs's simplify costs ~100 ms per call here and the value is the same.
  return Number(derivative(resolved, variable, { simplify: false }).compile().evaluate({ ...point }));
}

/** Whether the resolved expression is the constant 0 (a state frozen in this mode, e.g. NewReno's L in congestion avoidance). */
export function isZeroAt(node: MathNode, point: Record<string, number>): boolean {
  const r = resolveAt(node, point);
  return r.type === 'ConstantNode' && Number((r as unknown as { value: number }).value) === 0;
}

/**
 * One equation of one model linearised on its own, as Hollot et al. (INFOCOM 2001) write a single
 * flow's: a delayed value X(t - R) is its own variable `X_tau`, the parameters in `fixed` are set
 * before differentiating, and every conditional, min and max takes the branch it takes at `point`
 * ({@link resolveAt}: `point` gives every symbol a condition reads, the discrete states too, e.g.
 * `ss: 0` for congestion avoidance).
 * Returns d rhs / d v at `point` for each v of `wrt`, NaN where mathjs has no derivative. Where
 * {@link linearModel} builds the whole loop, this gives one equation's coefficients, to check a model
 * against a published linearisation.
 */
export function equationPartialsAt(
  model: ParsedModel,
  state: string,
  wrt: readonly string[],
  point: Record<string, number>,
  fixed: Record<string, number> = {},
): Record<string, number> {
  const eq = model.equations.find((e) => e.state === state);
  if (!eq) throw new InputError('state', `'${state}' has no equation in ${model.file}`);
  const node = parse(eq.expression).transform((n, path): MathNode => {
    if (path === 'fn') return n;
    if (n.type === 'FunctionNode' && !MATH_FUNCTIONS.has((n as unknown as Fn).fn.name)) return parse(`${(n as unknown as Fn).fn.name}_tau`);
    if (n.type === 'SymbolNode' && (n as unknown as Sym).name in fixed) return new ConstantNode(fixed[(n as unknown as Sym).name]!);
    return n;
  });
  const resolved = resolveAt(node, point);
  const out: Record<string, number> = {};
  for (const v of wrt) {
    try {
      out[v] = derivativeAt(resolved, v, point);
    } catch {
      out[v] = NaN;
    }
  }
  return out;
}

/** Compiled evaluation of an expression (conditionals evaluated natively), compiled once per node ({@link compiled}: an equilibrium's Newton tries and the loop compile the same right-hand sides). */
export function evaluator(node: MathNode): EvalFunction {
  let f = nativeNodes.get(node);
  if (!f) nativeNodes.set(node, (f = nativeEvaluator(node, () => compiled(node))));
  return f;
}
const nativeNodes = new WeakMap<MathNode, EvalFunction>();
