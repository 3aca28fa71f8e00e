import type { ModelFile } from '../language/modelFile.js';

/**
 * Turns generated code into a CompiledSystem. Shared by the compiler (compileSystem.ts, which needs mathjs
 * to generate the code) and the on-disk cache (systemCache.ts, which must not load mathjs: its import
 * alone costs 0.6-1.5 s, twenty times the rest of a `cclab predict`).
 *
 * Memory layout shared by every generated function (the offsets are owned by StateLayout, layout.ts):
 * - Y, the system state, with the flow's block at `off`;
 * - Z, the snapshot of derived values at one time, with the flow's block (R, then its outputs) at `zo`.
 * - FP, BP: the flow's and the bottleneck's parameter values, in declaration order.
 * - past(s) returns { Y, Z } at an earlier time s (dense output, or the history before t = 0).
 */
export type GenFn = (t: number, Y: ArrayLike<number>, Z: Float64Array, off: number, zo: number, FP: Float64Array, BP: Float64Array, dy: number[], past: PastSnapshot) => number;
export type PastSnapshot = ((s: number) => { Y: ArrayLike<number>; Z: Float64Array }) & {
  /** Threshold of the next loss event (expdraw()): 1, or an Exp(1) draw in Poisson mode. */
  draw: () => number;
  /**
   * maxover/minover number k of the block at `off`: the extremum of its signal over [t - w, t], from
   * the signal's samples in the accepted solution and `now`, its value at t (src/fluid/run/windows.ts).
   */
  over?: (k: number, off: number, t: number, w: number, now: number) => number;
};

/** A maxover/minover of a flow model (its sampler is the source key `window<k>.sample`). */
export interface WindowMeta {
  kind: 'max' | 'min';
  /** Seconds between samples, when the model gives it (else the engine's default). */
  stepS?: number;
}

export interface CompiledWindow extends WindowMeta {
  /** The signal at the snapshot (t, Y, Z) of the accepted solution (past: that solution's earlier times). */
  sample: GenFn;
}

/** What an event is, apart from its generated functions (source keys `event<k>.g|guard|set`). */
export interface EventMeta {
  name: string;
  direction: 'rising' | 'falling';
  /** Flow-state index of each assignment. */
  targets: number[];
  /** Whether it is a window reduction (counted as a fast recovery). */
  reduction: boolean;
}

export interface CompiledEvent extends EventMeta {
  /** g(...) crosses zero in `direction` when the event's condition becomes true. */
  g: GenFn;
  /** Returns 1 when armed (no guard: always). */
  guard: GenFn;
  /** Writes the new values of the assigned states into dy[0..] (evaluated with pre-event values). */
  set: GenFn;
  /** Whether the guard / g read the snapshot Z (outputs, R, A): if not, they need no snapshot computed. */
  guardReadsZ: boolean;
  gReadsZ: boolean;
}

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
  /** The flow model's windowed extrema (maxover, minover), by index. */
  windows: CompiledWindow[];
  /** The bottleneck's own events (modes of a queue discipline: CoDel's dropping state, a step marker's side of K); targets are bottleneck-state indices. */
  bnEvents: CompiledEvent[];
  /** Evaluate a parameter-only expression (initial values, bounds) for the flow (FP) or bottleneck (BP). */
  /** A flow state's initial value or bound; `draw` serves expdraw() in an initial value (default: the threshold 1). */
  flowConst(which: 'initial' | 'min' | 'max', k: number, FP: Float64Array, BP: Float64Array, draw?: () => number): number | undefined;
  bnConst(which: 'initial' | 'min' | 'max', k: number, BP: Float64Array): number | undefined;
  /** The generated source, for inspection and tests. */
  source: Record<string, string>;
}

/** Everything a CompiledSystem is made from: plain data, so it can be stored as JSON. */
export interface SystemParts {
  bottleneck: ModelFile;
  flow: ModelFile;
  /** Generated function bodies by name (see {@link constKey} for initial values and bounds). */
  source: Record<string, string>;
  events: EventMeta[];
  /** maxover/minover uses of the flow model (absent when there are none). */
  windows?: WindowMeta[];
  /** The bottleneck's events (source keys `bnEvent<k>.g|guard|set`); absent in parts stored before they existed. */
  bnEvents?: EventMeta[];
}

/** Helpers the generated code may call (integer powers, see language/expr.ts powJs): defined once per function, inlined by the JIT. */
const HELPERS = 'const $sq = (v) => v * v, $cube = (v) => v * v * v, $p4 = (v) => { const w = v * v; return w * w; };';

/** Source key of a state's parameter-only expression (initial value or bound). */
export const constKey = (m: ModelFile, state: string, which: 'initial' | 'min' | 'max'): string => `${m.id}.${state}.${which}`;

/** The function body stored under `name` (the code the compiler generated, in strict mode). */
export const strictBody = (body: string): string => `"use strict";\n${body}`;

function fn(name: string, code: string): GenFn {
  // Named after the model part (shows in CPU profiles); the helpers close over nothing.
  const fname = `gen_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  return new Function(`"use strict";\n${HELPERS}\nreturn function ${fname}(t, Y, Z, off, zo, FP, BP, dy, past) {\n${code}\n};`)() as GenFn;
}

/** Does generated code read the current snapshot `Z[...]` (not a delayed `_Z0[...]`)? */
const readsZ = (code: string): boolean => /(^|[^\w])Z\[/.test(code);

export function assembleSystem(parts: SystemParts): CompiledSystem {
  const { bottleneck: bn, flow: fl, source } = parts;
  const get = (name: string): GenFn => {
    const code = source[name];
    if (code === undefined) throw new Error(`compiled system ${fl.id} has no generated function '${name}'`);
    return fn(name, code);
  };
  const compiledEvent = (ev: EventMeta, prefix: string, k: number): CompiledEvent => ({
    ...ev,
    g: get(`${prefix}${k}.g`),
    guard: get(`${prefix}${k}.guard`),
    set: get(`${prefix}${k}.set`),
    guardReadsZ: readsZ(source[`${prefix}${k}.guard`]!),
    gReadsZ: readsZ(source[`${prefix}${k}.g`]!),
  });
  const consts = (m: ModelFile, which: 'initial' | 'min' | 'max'): (GenFn | undefined)[] =>
    m.states.map((s) => (source[constKey(m, s.name, which)] === undefined ? undefined : get(constKey(m, s.name, which))));
  const fConst = { initial: consts(fl, 'initial'), min: consts(fl, 'min'), max: consts(fl, 'max') };
  const bConst = { initial: consts(bn, 'initial'), min: consts(bn, 'min'), max: consts(bn, 'max') };
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
    delay: get('delay'),
    flowOutputs: get('flowOutputs'),
    bnOutputs: get('bnOutputs'),
    bnRhs: get('bnRhs'),
    flowRhs: get('flowRhs'),
    events: parts.events.map((ev, k) => compiledEvent(ev, 'event', k)),
    bnEvents: (parts.bnEvents ?? []).map((ev, k) => compiledEvent(ev, 'bnEvent', k)),
    windows: (parts.windows ?? []).map((w, k) => ({ ...w, sample: get(`window${k}.sample`) })),
    flowConst: (which, k, FP, BP, draw) => fConst[which][k]?.(0, empty, empty, 0, 0, FP, BP, [], draw ? Object.assign(() => noPast(0), { draw }) : noPast),
    bnConst: (which, k, BP) => bConst[which][k]?.(0, empty, empty, 0, 0, empty, BP, [], noPast),
    source,
  };
}
