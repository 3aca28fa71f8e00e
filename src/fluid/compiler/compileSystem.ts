import { basename } from 'node:path';
import { InputError } from '../../errors.js';
import type { Located } from '../language/located.js';
import type { ModelFile } from '../language/modelFile.js';
import { compileExpr, emit, parseExpr } from '../language/expr.js';
import type { MathNode } from 'mathjs';
import type { Resolver, SymbolRef, Compiled, WindowContext } from '../language/expr.js';
import { assembleSystem, constKey, strictBody, type CompiledSystem, type EventMeta, type WindowMeta } from './assemble.js';
import { Z_A, Z_BN } from './layout.js';
import { hoistRepeated } from './cse.js';
import { nonNegative, nonNegativeSymbols, positive, positiveSymbols } from '../language/sign.js';

/**
 * Compile a bottleneck model and a flow model into plain JavaScript functions (via `new Function` on
 * code generated from the checked mathjs trees, see ../language/expr.ts). The memory layout of the generated
 * functions is documented in ./assemble.ts (offsets owned by StateLayout, layout.ts).
 */
export type { CompiledEvent, CompiledSystem, CompiledWindow, GenFn, PastSnapshot } from './assemble.js';

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

/** Records a generated function body under its name (assembleSystem turns the bodies into functions). */
function build(name: string, body: string, source: Record<string, string>): void {
  source[name] = strictBody(body);
}

/** Check a flow model against a bottleneck model and generate the system's functions. */
export function compileSystem(bn: ModelFile, fl: ModelFile): CompiledSystem {
  checkPair(bn, fl);
  const c = new SystemCompiler(bn, fl);
  c.checkPeriods();
  c.snapshotFunctions();
  c.rightHandSides();
  const events = c.eventFunctions();
  const bnEvents = c.eventFunctions(true);
  c.constants();
  return assembleSystem({ bottleneck: bn, flow: fl, source: c.source, events, ...(bnEvents.length > 0 ? { bnEvents } : {}), ...(c.windows.length > 0 ? { windows: c.windows } : {}) });
}

/** What the pair of files must declare, and the names a flow model may not take. */
function checkPair(bn: ModelFile, fl: ModelFile): void {
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
}

const ALL: Scope = { bnStates: true, bnParams: true, bnOutputs: Infinity, A: true, flowStates: true, flowParams: true, flowOutputs: Infinity, R: true };
const NONE: Scope = { bnStates: false, bnParams: false, bnOutputs: 0, A: false, flowStates: false, flowParams: false, flowOutputs: 0, R: false };

/** The generation of one system's functions, phase by phase (see compileSystem). */
class SystemCompiler {
  readonly source: Record<string, string> = {};
  /** maxover/minover uses, in the order their samplers were registered (source keys `window<k>.sample`). */
  readonly windows: WindowMeta[] = [];
  private readonly bf: string;
  private readonly ff: string;
  private readonly lagNonNegative: (lag: MathNode) => boolean;
  private readonly isPositive: (node: MathNode) => boolean;
  private readonly all: Scope;

  constructor(
    private readonly bn: ModelFile,
    private readonly fl: ModelFile,
  ) {
    this.bf = basename(bn.path);
    this.ff = basename(fl.path);
    this.all = { ...ALL, bnOutputs: bn.outputs.length, flowOutputs: fl.outputs.length };
    // Symbols provably >= 0, for the lags of delayed values: X(t - d) must look into the past.
    const parseAt = (m: ModelFile, src: Located, what: string): MathNode => parseExpr(src, basename(m.path), what);
    const signs = nonNegativeSymbols(bn, fl, parseAt);
    this.lagNonNegative = (lag) => nonNegative(lag, (name) => signs.has(name));
    let pos: Set<string> | undefined;
    // Provably > 0, for windows and periods; worked out on first use (most models have neither).
    this.isPositive = (node) => {
      pos ??= positiveSymbols(bn, fl, signs, parseAt);
      const p = pos;
      return positive(node, (name) => p.has(name), (name) => signs.has(name));
    };
  }

  /** Compile one expression in `scope`; `delays` null forbids delayed values (and windows). */
  one(src: Located, file: string, what: string, scope: Scope, withFlow: boolean, delays: Map<string, number> | null, allowDraw = false): Compiled {
    const { resolve, forbidden } = resolver(this.bn, withFlow ? this.fl : undefined, scope);
    const windows = delays !== null && withFlow ? this.windowContext() : undefined;
    return compileExpr(src, file, { what, resolve, forbidden, allowDelays: delays !== null, delays: delays ?? new Map(), allowDraw, lagNonNegative: this.lagNonNegative, ...(windows ? { windows } : {}) });
  }

  /** Registers the signal of a maxover/minover: a sampler evaluated on a snapshot of the accepted solution. */
  private windowContext(): WindowContext {
    return {
      positive: this.isPositive,
      register: (kind, signal, stepS) => {
        const k = this.windows.length;
        const { resolve, forbidden } = resolver(this.bn, this.fl, this.all);
        const c = emit(signal, { what: `${kind === 'max' ? 'maxover' : 'minover'} signal`, where: this.ff, resolve, forbidden, allowDelays: true, delays: new Map(), lagNonNegative: this.lagNonNegative });
        build(`window${k}.sample`, [...c.prologue, `return ${c.js};`].join('\n'), this.source);
        this.windows.push({ kind, ...(stepS !== undefined ? { stepS } : {}) });
        return k;
      },
    };
  }

  /** The periods of clocks and timers must be provably > 0 (a clock of period 0 ticks without end). */
  checkPeriods(): void {
    const check = (src: Located, field: string): void => {
      if (!this.isPositive(parseExpr(src, this.ff, field))) {
        throw new InputError(field, `'${src.text}' is not provably > 0 (a positive constant, or parameters, states and outputs with min > 0 and sums, products, quotients, max of these)`, `${this.ff}:${src.line}`);
      }
    };
    for (const c of this.fl.clocks ?? []) check(c.period, `clocks.${c.name}.period`);
    for (const m of this.fl.timers ?? []) {
      check(m.every, `timers.${m.name}.every`);
      check(m.for, `timers.${m.name}.for`);
    }
  }

  /** The snapshot: queueing delay (bottleneck states and parameters only: it defines R), then the outputs. */
  snapshotFunctions(): void {
    const { bn, fl, bf, ff, source } = this;
    const delayC = this.one(bn.delay!, bf, 'delay', { ...NONE, bnStates: true, bnParams: true }, false, null);
    build('delay', `return ${delayC.js};`, source);
    const fo = fl.outputs.map((o, i) => this.one(o, ff, `output '${o.name}'`, { ...NONE, bnStates: true, bnParams: true, flowStates: true, flowParams: true, flowOutputs: i, R: true }, true, null));
    build('flowOutputs', fo.map((c, i) => `Z[zo + ${1 + i}] = ${c.js};`).join('\n') + '\nreturn 0;', source);
    const bo = bn.outputs.map((o, i) => this.one(o, bf, `output '${o.name}'`, { ...NONE, bnStates: true, bnParams: true, bnOutputs: i, A: true }, false, null));
    build('bnOutputs', bo.map((c, i) => `Z[${Z_BN + i}] = ${c.js};`).join('\n') + '\nreturn 0;', source);
  }

  private rhsBody(m: ModelFile, file: string, base: string, scope: Scope, withFlow: boolean): string {
    const delays = new Map<string, number>();
    const lines: string[] = [];
    const pro: string[] = [];
    m.states.forEach((s, i) => {
      if (s.discrete) {
        lines.push(`dy[${base}${i}] = 0;`);
        return;
      }
      const eq = m.equations.find((e) => e.state === s.name)!;
      const c = this.one(eq, file, `d${s.name}/dt`, scope, withFlow, delays);
      pro.push(...c.prologue);
      lines.push(`dy[${base}${i}] = ${c.js};`);
    });
    return hoistRepeated([...pro, ...lines, 'return 0;'].join('\n'));
  }

  rightHandSides(): void {
    build('bnRhs', this.rhsBody(this.bn, this.bf, '', { ...this.all, flowStates: false, flowParams: false, flowOutputs: 0, R: false }, false), this.source);
    build('flowRhs', this.rhsBody(this.fl, this.ff, 'off + ', this.all, true), this.source);
  }

  /**
   * Events of either file: `prefix` names their generated functions (`event<k>.*` for the flow's,
   * `bnEvent<k>.*` for the bottleneck's). A bottleneck event (a queue discipline's modes) sees and
   * assigns the bottleneck's own symbols only (its states, parameters, outputs, A and t), as the
   * bottleneck's equations do, and is never a window reduction.
   */
  eventFunctions(bottleneck = false): EventMeta[] {
    const m = bottleneck ? this.bn : this.fl;
    const file = bottleneck ? this.bf : this.ff;
    const prefix = bottleneck ? 'bnEvent' : 'event';
    const withFlow = !bottleneck;
    const scope: Scope = withFlow ? this.all : { ...this.all, flowStates: false, flowParams: false, flowOutputs: 0, R: false };
    if (bottleneck && m.events.some((ev) => ev.reduction)) throw new InputError('events', 'of a bottleneck cannot be window reductions (reduction: true belongs to flow models)', file);
    return m.events.map((ev, k) => {
      const cmp = this.eventCondition(ev, k, m, file, prefix, scope, withFlow);
      const gd = ev.guard ? this.one(ev.guard, file, `events[${k}].guard`, scope, withFlow, new Map()) : undefined;
      build(`${prefix}${k}.guard`, gd ? [...gd.prologue, `return (${gd.js}) ? 1 : 0;`].join('\n') : 'return 1;', this.source);
      const setDelays = new Map<string, number>();
      const targets: number[] = [];
      const sets = ev.set.map((a, j) => {
        const ti = m.states.findIndex((s) => s.name === a.state);
        if (ti < 0) throw new InputError(`events[${k}].set[${j}]`, `assigns '${a.state}', which is not a state of this model`, `${file}:${a.expr.line}`);
        targets.push(ti);
        return this.one(a.expr, file, `events[${k}].set[${j}]`, scope, withFlow, setDelays, withFlow);
      });
      build(`${prefix}${k}.set`, [...sets.flatMap((c) => c.prologue), ...sets.map((c, j) => `dy[${j}] = ${c.js};`), 'return 0;'].join('\n'), this.source);
      return { name: ev.name, direction: cmp === 'larger' || cmp === 'largerEq' ? 'rising' : 'falling', targets, reduction: ev.reduction };
    });
  }

  /** `when: a >= b` becomes g = a - b; the condition becomes true when g rises through 0 (>=, >) or falls through 0 (<=, <). */
  private eventCondition(ev: ModelFile['events'][number], k: number, m: ModelFile, file: string, prefix: string, scope: Scope, withFlow: boolean): string {
    const delays = new Map<string, number>();
    const whenNode = parseExpr(ev.when, file, `events[${k}].when`) as unknown as { type: string; fn?: string; args?: MathNode[] };
    const cmp = whenNode.type === 'OperatorNode' ? whenNode.fn : undefined;
    if (cmp !== 'larger' && cmp !== 'largerEq' && cmp !== 'smaller' && cmp !== 'smallerEq') {
      throw new InputError(`events[${k}].when`, "must be one comparison 'a >= b' (or <=, >, <): its crossing is what the solver locates", `${file}:${ev.when.line}`);
    }
    const { resolve, forbidden } = resolver(this.bn, withFlow ? this.fl : undefined, scope);
    const windows = withFlow ? this.windowContext() : undefined;
    const side = (n: MathNode): Compiled => emit(n, { what: `events[${k}].when`, where: `${file}:${ev.when.line}`, resolve, forbidden, allowDelays: true, delays, lagNonNegative: this.lagNonNegative, windows });
    const lhs = side(whenNode.args![0]!);
    const rhs = side(whenNode.args![1]!);
    build(`${prefix}${k}.g`, [...lhs.prologue, ...rhs.prologue, `return (${lhs.js}) - (${rhs.js});`].join('\n'), this.source);
    return cmp;
  }

  /** Initial values and bounds: parameter-only expressions (a flow's initial values may call expdraw()), evaluated once per run. */
  constants(): void {
    const constFn = (m: ModelFile, file: string, which: 'initial' | 'min' | 'max', withFlow: boolean): void => {
      for (const s of m.states) {
        const src = s[which];
        if (!src) continue;
        // A flow's initial values may draw (expdraw()): the first loss threshold of a hybrid model is
        // as random as the later ones (models/README.md, "The first loss").
        const c = this.one(src, file, `states.${s.name}.${which}`, { ...NONE, bnParams: true, flowParams: withFlow }, withFlow, null, withFlow && which === 'initial');
        build(constKey(m, s.name, which), `return ${c.js};`, this.source);
      }
    };
    for (const which of ['initial', 'min', 'max'] as const) constFn(this.fl, this.ff, which, true);
    for (const which of ['initial', 'min', 'max'] as const) constFn(this.bn, this.bf, which, false);
    // Equilibrium guesses are read by the linear analysis only: checked here as parameter-only expressions, not generated.
    for (const [m, file, withFlow] of [[this.fl, this.ff, true], [this.bn, this.bf, false]] as const) {
      for (const st of m.states) if (st.guess) this.one(st.guess, file, `states.${st.name}.guess`, { ...NONE, bnParams: true, flowParams: withFlow }, withFlow, null);
    }
  }
}
