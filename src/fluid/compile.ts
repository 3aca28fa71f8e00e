import { basename } from 'node:path';
import { InputError } from '../errors.js';
import type { ModelFile, Located } from './modelFile.js';
import { compileExpr, emit, parseExpr } from './expr.js';
import type { MathNode } from 'mathjs';
import type { Resolver, SymbolRef, Compiled } from './expr.js';
import { Z_A, Z_BN } from './layout.js';
import { nonNegative, nonNegativeSymbols } from './sign.js';

/**
 * Compile a bottleneck model and a flow model into plain JavaScript functions (via `new Function` on
 * code generated from the checked mathjs trees, see ./expr.ts).
 *
 * Memory layout shared by every generated function (the offsets are
 * owned by StateLayout, layout.ts): Y, the system state, with the flow's block at `off`; Z, the snapshot
 * of derived values at one time, with the flow's block (R, then its outputs) at `zo`.
 * - FP, BP: the flow's and the bottleneck's parameter values, in declaration order.
 * - past(s) returns { Y, Z } at an earlier time s (dense output, or the history before t = 0).
 */
export type GenFn = (t: number, Y: ArrayLike<number>, Z: Float64Array, off: number, zo: number, FP: Float64Array, BP: Float64Array, dy: number[], past: PastSnapshot) => number;
export type PastSnapshot = ((s: number) => { Y: ArrayLike<number>; Z: Float64Array }) & {
  /** Threshold of the next loss event (expdraw()): 1, or an Exp(1) draw in Poisson mode. */
  draw: () => number;
};

export interface CompiledEvent {
  name: string;
  /** g(...) crosses zero in `direction` when the event's condition becomes true. */
  g: GenFn;
  direction: 'rising' | 'falling';
  /** Returns 1 when armed (no guard: always). */
  guard: GenFn;
  /** Writes the new values of the assigned states into dy[0..] (evaluated with pre-event values). */
  set: GenFn;
  /** Flow-state index of each assignment. */
  targets: number[];
  /** Whether it is a window reduction (counted as a fast recovery). */
  reduction: boolean;
  /** Whether the guard / g read the snapshot Z (outputs, R, A): if not, they need no snapshot computed. */
  guardReadsZ: boolean;
  gReadsZ: boolean;
}

/** Does generated code read the current snapshot `Z[...]` (not a delayed `_Z0[...]`)? */
const readsZ = (code: string): boolean => /(^|[^\w])Z\[/.test(code);

export interface CompiledSystem {
  bottleneck: ModelFile;
  flow: ModelFile;
  nb: number;
  nf: number;
  nbo: number;
  nfo: number;
  delay: GenFn;
  flowOutputs: GenFn;
  bnOutputs: GenFn;
  bnRhs: GenFn;
  flowRhs: GenFn;
  events: CompiledEvent[];
  /** Evaluate a parameter-only expression (initial values, bounds) for the flow (FP) or bottleneck (BP). */
  flowConst(which: 'initial' | 'min' | 'max', k: number, FP: Float64Array, BP: Float64Array): number | undefined;
  bnConst(which: 'initial' | 'min' | 'max', k: number, BP: Float64Array): number | undefined;
  /** The generated source, for inspection and tests. */
  source: Record<string, string>;
}

const ref = (code: (Y: string, Z: string) => string, delayable: boolean): SymbolRef => ({ code, delayable });

interface Scope {
  bnStates: boolean;
  bnParams: boolean;
  bnOutputs: number; // how many bottleneck outputs are visible (in order)
  A: boolean;
  flowStates: boolean;
  flowParams: boolean;
  flowOutputs: number;
  R: boolean;
}

function resolver(bn: ModelFile, fl: ModelFile | undefined, s: Scope): { resolve: Resolver; forbidden: Map<string, string> } {
  const forbidden = new Map<string, string>();
  const table = new Map<string, SymbolRef>();
  const add = (name: string, r: SymbolRef, visible: boolean, why: string): void => {
    if (visible) table.set(name, r);
    else forbidden.set(name, why);
  };
  bn.params.forEach((p, i) => add(p.name, ref(() => `BP[${i}]`, false), s.bnParams, 'is not visible here'));
  bn.states.forEach((st, i) => add(st.name, ref((Y) => `${Y}[${i}]`, true), s.bnStates, 'is not visible here'));
  bn.outputs.forEach((o, i) => add(o.name, ref((_Y, Z) => `${Z}[${Z_BN + i}]`, true), i < s.bnOutputs, 'is computed later (outputs see only earlier outputs; flow outputs cannot use bottleneck outputs)'));
  add('A', ref((_Y, Z) => `${Z}[${Z_A}]`, true), s.A, 'is the aggregate arrival rate, not available here');
  if (fl) {
    add('R', ref((_Y, Z) => `${Z}[zo]`, true), s.R, 'is not available here');
    fl.params.forEach((p, i) => add(p.name, ref(() => `FP[${i}]`, false), s.flowParams, 'is not visible here'));
    fl.states.forEach((st, i) => add(st.name, ref((Y) => `${Y}[off + ${i}]`, true), s.flowStates, 'is not visible here'));
    fl.outputs.forEach((o, i) => add(o.name, ref((_Y, Z) => `${Z}[zo + ${1 + i}]`, true), i < s.flowOutputs, 'is computed later (outputs see only earlier outputs)'));
  }
  return { resolve: (n) => table.get(n), forbidden };
}

/** Helpers the generated code may call (integer powers, see expr.ts powJs): defined once per function, inlined by the JIT. */
const HELPERS = 'const $sq = (v) => v * v, $cube = (v) => v * v * v, $p4 = (v) => { const w = v * v; return w * w; };';

function build(name: string, body: string, source: Record<string, string>): GenFn {
  const code = `"use strict";\n${body}`;
  source[name] = code;
  // Named after the model part (shows in CPU profiles); the helpers close over nothing.
  const fname = `gen_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  return new Function(`"use strict";\n${HELPERS}\nreturn function ${fname}(t, Y, Z, off, zo, FP, BP, dy, past) {\n${code}\n};`)() as GenFn;
}

/** Check a flow model against a bottleneck model and generate the system's functions. */
export function compileSystem(bn: ModelFile, fl: ModelFile): CompiledSystem {
  const bf = basename(bn.path);
  const ff = basename(fl.path);
  if (bn.kind !== 'bottleneck') throw new InputError('kind', `must be 'bottleneck' for the shared queue model`, bf);
  if (fl.kind !== 'flow') throw new InputError('kind', `must be 'flow' for a variant model`, ff);
  for (const req of ['p']) {
    if (!bn.outputs.some((o) => o.name === req)) throw new InputError('outputs', `must define '${req}' (loss probability of a packet at the bottleneck)`, bf);
  }
  if (!bn.delay) throw new InputError('delay', 'is required (queueing delay in seconds, e.g. q / C)', bf);
  if (!fl.outputs.some((o) => o.name === 'rate')) throw new InputError('outputs', "must define 'rate' (packets/s the flow sends)", ff);
  if (!fl.outputs.some((o) => o.name === 'cwnd')) throw new InputError('outputs', "must define 'cwnd' (segments, the window the RunResult reports)", ff);
  for (const n of [...fl.params, ...fl.states, ...fl.outputs].map((x) => x.name)) {
    if ([...bn.params, ...bn.states, ...bn.outputs].some((x) => x.name === n) || n === 'R' || n === 'A' || n === 't') {
      throw new InputError(n, `clashes with a bottleneck or built-in symbol of the same name`, ff);
    }
  }
  const source: Record<string, string> = {};
  const all: Scope = { bnStates: true, bnParams: true, bnOutputs: bn.outputs.length, A: true, flowStates: true, flowParams: true, flowOutputs: fl.outputs.length, R: true };
  const none: Scope = { bnStates: false, bnParams: false, bnOutputs: 0, A: false, flowStates: false, flowParams: false, flowOutputs: 0, R: false };

  // Symbols provably >= 0, for the lags of delayed values: X(t - d) must look into the past.
  const signs = nonNegativeSymbols(bn, fl, (m, src, what) => parseExpr(src, basename(m.path), what));
  const lagNonNegative = (lag: MathNode): boolean => nonNegative(lag, (name) => signs.has(name));
  const one = (src: Located, file: string, what: string, scope: Scope, withFlow: boolean, delays: Map<string, number> | null, allowDraw = false): Compiled => {
    const { resolve, forbidden } = resolver(bn, withFlow ? fl : undefined, scope);
    return compileExpr(src, file, { what, resolve, forbidden, allowDelays: delays !== null, delays: delays ?? new Map(), allowDraw, lagNonNegative });
  };

  // Queueing delay: bottleneck states and parameters only (it defines R for the flows' outputs).
  const delayC = one(bn.delay, bf, 'delay', { ...none, bnStates: true, bnParams: true }, false, null);
  const delay = build('delay', `return ${delayC.js};`, source);

  const fo = fl.outputs.map((o, i) => one(o, ff, `output '${o.name}'`, { ...none, bnStates: true, bnParams: true, flowStates: true, flowParams: true, flowOutputs: i, R: true }, true, null));
  const flowOutputs = build('flowOutputs', fo.map((c, i) => `Z[zo + ${1 + i}] = ${c.js};`).join('\n') + '\nreturn 0;', source);

  const bo = bn.outputs.map((o, i) => one(o, bf, `output '${o.name}'`, { ...none, bnStates: true, bnParams: true, bnOutputs: i, A: true }, false, null));
  const bnOutputs = build('bnOutputs', bo.map((c, i) => `Z[${Z_BN + i}] = ${c.js};`).join('\n') + '\nreturn 0;', source);

  const rhsBody = (m: ModelFile, file: string, base: string, scope: Scope, withFlow: boolean): string => {
    const delays = new Map<string, number>();
    const lines: string[] = [];
    const pro: string[] = [];
    m.states.forEach((s, i) => {
      if (s.discrete) {
        lines.push(`dy[${base}${i}] = 0;`);
        return;
      }
      const eq = m.equations.find((e) => e.state === s.name)!;
      const c = one(eq, file, `d${s.name}/dt`, scope, withFlow, delays);
      pro.push(...c.prologue);
      lines.push(`dy[${base}${i}] = ${c.js};`);
    });
    return [...pro, ...lines, 'return 0;'].join('\n');
  };
  const bnRhs = build('bnRhs', rhsBody(bn, bf, '', { ...all, flowStates: false, flowParams: false, flowOutputs: 0, R: false }, false), source);
  const flowRhs = build('flowRhs', rhsBody(fl, ff, 'off + ', all, true), source);

  if (bn.events.length > 0) throw new InputError('events', 'are supported in flow models only', `${bf}:${bn.events[0]!.line}`);
  const events: CompiledEvent[] = fl.events.map((ev, k) => {
    const delays = new Map<string, number>();
    const whenNode = parseExpr(ev.when, ff, `events[${k}].when`) as unknown as { type: string; fn?: string; args?: MathNode[] };
    const cmp = whenNode.type === 'OperatorNode' ? whenNode.fn : undefined;
    if (cmp !== 'larger' && cmp !== 'largerEq' && cmp !== 'smaller' && cmp !== 'smallerEq') {
      throw new InputError(`events[${k}].when`, "must be one comparison 'a >= b' (or <=, >, <): its crossing is what the solver locates", `${ff}:${ev.when.line}`);
    }
    // g = a - b; the condition becomes true when g rises through 0 (>=, >) or falls through 0 (<=, <).
    const { resolve, forbidden } = resolver(bn, fl, all);
    const side = (n: MathNode): Compiled => emit(n, { what: `events[${k}].when`, where: `${ff}:${ev.when.line}`, resolve, forbidden, allowDelays: true, delays, lagNonNegative });
    const lhs = side(whenNode.args![0]!);
    const rhs = side(whenNode.args![1]!);
    const g = build(`event${k}.g`, [...lhs.prologue, ...rhs.prologue, `return (${lhs.js}) - (${rhs.js});`].join('\n'), source);
    const gd = ev.guard ? one(ev.guard, ff, `events[${k}].guard`, all, true, new Map()) : undefined;
    const guard = build(`event${k}.guard`, gd ? [...gd.prologue, `return (${gd.js}) ? 1 : 0;`].join('\n') : 'return 1;', source);
    const setDelays = new Map<string, number>();
    const targets: number[] = [];
    const sets = ev.set.map((a, j) => {
      const ti = fl.states.findIndex((s) => s.name === a.state);
      if (ti < 0) throw new InputError(`events[${k}].set[${j}]`, `assigns '${a.state}', which is not a state of this model`, `${ff}:${a.expr.line}`);
      targets.push(ti);
      return one(a.expr, ff, `events[${k}].set[${j}]`, all, true, setDelays, true);
    });
    const set = build(`event${k}.set`, [...sets.flatMap((c) => c.prologue), ...sets.map((c, j) => `dy[${j}] = ${c.js};`), 'return 0;'].join('\n'), source);
    return {
      name: ev.name, g, direction: cmp === 'larger' || cmp === 'largerEq' ? 'rising' : 'falling', guard, set, targets, reduction: ev.reduction,
      guardReadsZ: readsZ(source[`event${k}.guard`]!), gReadsZ: readsZ(source[`event${k}.g`]!),
    };
  });

  // Initial values and bounds: parameter-only expressions, evaluated once per run.
  const constFn = (m: ModelFile, file: string, which: 'initial' | 'min' | 'max', withFlow: boolean): (GenFn | undefined)[] =>
    m.states.map((s) => {
      const src = s[which];
      if (!src) return undefined;
      const c = one(src, file, `states.${s.name}.${which}`, { ...none, bnParams: true, flowParams: withFlow }, withFlow, null);
      return build(`${m.id}.${s.name}.${which}`, `return ${c.js};`, source);
    });
  const fConst = { initial: constFn(fl, ff, 'initial', true), min: constFn(fl, ff, 'min', true), max: constFn(fl, ff, 'max', true) };
  const bConst = { initial: constFn(bn, bf, 'initial', false), min: constFn(bn, bf, 'min', false), max: constFn(bn, bf, 'max', false) };
  const noPast: PastSnapshot = Object.assign(
    () => {
      throw new Error('no past in a constant expression');
    },
    { draw: () => 1 },
  );
  const empty = new Float64Array(0);

  return {
    bottleneck: bn,
    flow: fl,
    nb: bn.states.length,
    nf: fl.states.length,
    nbo: bn.outputs.length,
    nfo: fl.outputs.length,
    delay,
    flowOutputs,
    bnOutputs,
    bnRhs,
    flowRhs,
    events,
    flowConst: (which, k, FP, BP) => fConst[which][k]?.(0, empty, empty, 0, 0, FP, BP, [], noPast),
    bnConst: (which, k, BP) => bConst[which][k]?.(0, empty, empty, 0, 0, empty, BP, [], noPast),
    source,
  };
}
