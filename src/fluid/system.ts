import { InputError } from '../errors.js';
import type { Bound, DdeProblem, PastFn, StateEvent, TimedEvent } from '../solver/index.js';
import type { CompiledSystem, PastSnapshot } from './compile.js';
import type { FluidFlowParams, FluidLink } from './scenarioMap.js';
import type { ModelFile } from './modelFile.js';
import { basename } from 'node:path';
import seedrandom from 'seedrandom';

/**
 * Assemble the compiled bottleneck + N copies of one flow model into a DdeProblem, binding parameters.
 * Flows are frozen (dy = 0, rate 0) before their start and after their stop time: both are timed
 * events, so the solver steps exactly onto them.
 */
export interface FluidSystem {
  problem: DdeProblem;
  n: number;
  N: number;
  /** Snapshot layout (see compile.ts): Z at (t, y). */
  snapshot(t: number, y: ArrayLike<number>, Z: Float64Array): Float64Array;
  zSize: number;
  /** Index in Z of flow i's output `name` (R for 'R'). */
  zFlow(i: number, name: string): number;
  /** Index in Z of a bottleneck output (`A` and `delay` too). */
  zBottleneck(name: string): number;
  /** Index in y of a state of flow i, or of the bottleneck (i = -1). */
  yIndex(i: number, name: string): number;
  flowParams: Float64Array[];
  bnParams: Float64Array;
}

const BN_SCENARIO = ['C', 'B', 'pr', 'red', 'minTh', 'maxTh', 'maxP', 'wq', 'gentle'] as const;
const FLOW_SCENARIO = ['Tp', 'b', 'W0', 'Wmax', 'S0', 'D'] as const;

/** Where a scenario-bound value comes from, for error messages. */
const SCENARIO_FIELD: Record<string, string> = {
  C: 'bandwidthBps', B: 'queue limitPackets', pr: 'bottleneck.loss.rate', red: 'bottleneck.queue.kind', minTh: 'bottleneck.queue.minThPackets',
  maxTh: 'bottleneck.queue.maxThPackets', maxP: 'bottleneck.queue.maxP', wq: 'bottleneck.queue.weight', gentle: 'bottleneck.queue.gentle',
  Tp: 'link delays', b: 'tcp.delAckCount', D: 'tcp.dupAckThreshold', W0: 'tcp.initialCwndSegments', Wmax: 'tcp.rcvBufBytes', S0: 'tcp.initialSsthreshBytes',
};

function bind(m: ModelFile, scenarioValues: Record<string, number>, overrides: Record<string, number>, strictOverrides: Record<string, number>): Float64Array {
  const file = basename(m.path);
  const known = new Set(m.params.map((p) => p.name));
  for (const k of Object.keys(strictOverrides)) {
    if (!known.has(k)) throw new InputError(`params.${k}`, `is not a parameter of ${file} (have: ${m.params.filter((p) => !p.scenario).map((p) => p.name).join(', ') || 'none'})`);
  }
  return Float64Array.from(
    m.params.map((p) => {
      let v: number | undefined;
      let field: string;
      if (p.scenario) {
        v = scenarioValues[p.name];
        field = SCENARIO_FIELD[p.name] ?? p.name;
        if (v === undefined) throw new InputError(`params.${p.name}`, `is marked scenario: true, but the engine supplies only ${[...BN_SCENARIO, ...FLOW_SCENARIO].join(', ')}`, `${file}:${p.line}`);
      } else {
        v = strictOverrides[p.name] ?? overrides[p.name] ?? p.default!;
        field = p.name in strictOverrides ? `params.${p.name}` : p.name in overrides ? `ccParams.${p.name}` : `${file} params.${p.name}`;
      }
      if (!Number.isFinite(v) || v < p.min || v > p.max) throw new InputError(field, `must be in [${p.min}, ${p.max}] (${p.name} of ${file}), got ${v}`);
      return v;
    }),
  );
}

/**
 * How loss events of the hybrid models are spaced: 'periodic' (threshold 1 = the expected count: the
 * deterministic-loss assumption of Mathis et al. and RFC 9438) or 'poisson' (thresholds drawn from
 * Exp(1) with the scenario's seed: losses form a Poisson process of the same rate, a stochastic hybrid
 * system after Hespanha, "Stochastic hybrid systems: application to communication networks", HSCC 2004).
 */
export type LossProcess = 'periodic' | 'poisson';

export function buildSystem(
  sys: CompiledSystem,
  link: FluidLink,
  flows: FluidFlowParams[],
  tEnd: number,
  ccParams: Record<string, number>,
  params: Record<string, number> = {},
  loss: { process: LossProcess; seed: number } = { process: 'periodic', seed: 1 },
): FluidSystem {
  const rng = seedrandom.alea(`cclab-fluid:${loss.seed}`);
  const draw = loss.process === 'poisson' ? () => -Math.log(1 - rng()) : () => 1;
  const { nb, nf, nbo, nfo } = sys;
  const N = flows.length;
  const n = nb + N * nf;
  const zSize = 2 + nbo + N * (1 + nfo);
  const off = (i: number): number => nb + i * nf;
  const zo = (i: number): number => 2 + nbo + i * (1 + nfo);
  const bnParams = bind(sys.bottleneck, { C: link.C, B: link.B, pr: link.pr, red: link.red.on, minTh: link.red.minTh, maxTh: link.red.maxTh, maxP: link.red.maxP, wq: link.red.wq, gentle: link.red.gentle }, {}, {});
  const flowParams = flows.map((f) => bind(sys.flow, { Tp: f.Tp, b: f.b, W0: f.W0, Wmax: f.Wmax, S0: f.S0, D: f.D }, ccParams, params));
  const rateK = sys.flow.outputs.findIndex((o) => o.name === 'rate');
  const active = (i: number, t: number): boolean => t >= flows[i]!.startS && t < flows[i]!.stopS;

  const snapshot = (t: number, y: ArrayLike<number>, Z: Float64Array): Float64Array => {
    Z[0] = sys.delay(t, y, Z, 0, 0, flowParams[0]!, bnParams, noDy, noPast);
    let A = 0;
    for (let i = 0; i < N; i++) {
      const o = zo(i);
      Z[o] = flows[i]!.Tp + Z[0];
      sys.flowOutputs(t, y, Z, off(i), o, flowParams[i]!, bnParams, noDy, noPast);
      if (!active(i, t)) Z[o + 1 + rateK] = 0;
      A += Z[o + 1 + rateK]!;
    }
    Z[1] = A;
    sys.bnOutputs(t, y, Z, 0, 0, flowParams[0]!, bnParams, noDy, noPast);
    return Z;
  };

  // Delayed snapshots: a few cached time points (each rhs call asks for t - R_i once per flow).
  const CACHE = 4;
  const cacheS = new Float64Array(CACHE).fill(NaN);
  const cacheY = Array.from({ length: CACHE }, () => new Float64Array(n));
  const cacheZ = Array.from({ length: CACHE }, () => new Float64Array(zSize));
  // Returned objects are reused (the generated code reads .Y and .Z at once), so look-ups allocate nothing.
  const cacheObj = cacheY.map((Y, k) => ({ Y, Z: cacheZ[k]! }));
  let cacheNext = 0;
  let solverPast: PastFn = Object.assign(() => NaN, { settledUntil: -Infinity });
  const scratch = { Y: new Float64Array(n), Z: new Float64Array(zSize) };
  // The state components a delayed snapshot can read (the snapshot's own inputs and the delayed state
  // references); the others are never evaluated at delayed times (CUBIC: 8 of 14).
  const need = delayedStateIndices(sys, N, off);
  const pastSnap: PastSnapshot = Object.assign((s: number) => {
    if (s > solverPast.settledUntil) {
      // Inside the step in progress: its values change between iterations, so never cache them.
      if (solverPast.fill) solverPast.fill(s, scratch.Y, need);
      else for (let j = 0; j < need.length; j++) scratch.Y[need[j]!] = solverPast(s, need[j]!);
      snapshot(s, scratch.Y, scratch.Z);
      return scratch;
    }
    for (let k = 0; k < CACHE; k++) if (cacheS[k] === s) return cacheObj[k]!;
    const k = cacheNext;
    cacheNext = (cacheNext + 1) % CACHE;
    const Y = cacheY[k]!;
    if (solverPast.fill) solverPast.fill(s, Y, need);
    else for (let j = 0; j < need.length; j++) Y[need[j]!] = solverPast(s, need[j]!);
    snapshot(s, Y, cacheZ[k]!);
    cacheS[k] = s;
    return cacheObj[k]!;
  }, { draw });
  const Zcur = new Float64Array(zSize);

  const rhs: DdeProblem['rhs'] = (t, y, dy, past) => {
    if (solverPast !== past) {
      solverPast = past;
      cacheS.fill(NaN);
    }
    // The dense output of the step in progress changes between stages: never reuse a look-up past
    // the last accepted step. Look-ups are at s <= t - Tp, which the solver keeps inside accepted steps.
    snapshot(t, y, Zcur);
    sys.bnRhs(t, y, Zcur, 0, 0, flowParams[0]!, bnParams, dy, pastSnap);
    for (let i = 0; i < N; i++) {
      const o = off(i);
      if (active(i, t)) sys.flowRhs(t, y, Zcur, o, zo(i), flowParams[i]!, bnParams, dy, pastSnap);
      else for (let k = 0; k < nf; k++) dy[o + k] = 0;
    }
  };

  // The bottleneck's own derivatives (the queue's A - C) without the flows' delayed terms: what the
  // solver needs to decide whether a queue held at 0 or B starts to move.
  const dyB = new Array<number>(n).fill(0);
  const rhsComponent: DdeProblem['rhsComponent'] = (t, y, i, past) => {
    if (i >= nb) {
      rhs(t, y, dyB, past);
      return dyB[i]!;
    }
    if (solverPast !== past) {
      solverPast = past;
      cacheS.fill(NaN);
    }
    snapshot(t, y, Zcur);
    sys.bnRhs(t, y, Zcur, 0, 0, flowParams[0]!, bnParams, dyB, pastSnap);
    return dyB[i]!;
  };

  const y0: number[] = [];
  const bounds: Bound[] = [];
  sys.bottleneck.states.forEach((_, k) => {
    y0.push(sys.bnConst('initial', k, bnParams)!);
    const lo = sys.bnConst('min', k, bnParams);
    const hi = sys.bnConst('max', k, bnParams);
    if (lo !== undefined || hi !== undefined) bounds.push({ index: k, lo, hi });
  });
  for (let i = 0; i < N; i++) {
    sys.flow.states.forEach((st, k) => {
      const v = sys.flowConst('initial', k, flowParams[i]!, bnParams)!;
      if (!Number.isFinite(v)) throw new InputError(`states.${st.name}.initial`, `evaluates to ${v}`, basename(sys.flow.path));
      y0.push(v);
      const lo = sys.flowConst('min', k, flowParams[i]!, bnParams);
      const hi = sys.flowConst('max', k, flowParams[i]!, bnParams);
      if (lo !== undefined || hi !== undefined) bounds.push({ index: off(i) + k, lo, hi });
    });
  }

  const Zev = new Float64Array(zSize);
  // Every event is checked at the same (t, y) in turn: compute that snapshot once.
  let evT = NaN;
  const evY = new Float64Array(n);
  const evSnapshot = (t: number, y: ArrayLike<number>): Float64Array => {
    let same = t === evT;
    for (let i = 0; same && i < n; i++) same = y[i] === evY[i];
    if (!same) {
      snapshot(t, y, Zev);
      evT = t;
      for (let i = 0; i < n; i++) evY[i] = y[i]!;
    }
    return Zev;
  };
  const tmp: number[] = new Array(16).fill(0);
  const events: StateEvent[] = [];
  for (let i = 0; i < N; i++) {
    for (const ev of sys.events) {
      events.push({
        name: N > 1 ? `flow ${i}: ${ev.name}` : ev.name,
        direction: ev.direction,
        // Kink locators (no assignment) switch no state the delayed terms read.
        propagates: ev.targets.length > 0,
        g: (t, y, past) => {
          if (!active(i, t)) return NaN;
          if (solverPast !== past) {
            solverPast = past;
            cacheS.fill(NaN);
          }
          // A guard on the discrete modes alone (the usual case) is checked before any snapshot.
          if (!ev.guardReadsZ && ev.guard(t, y, Zev, off(i), zo(i), flowParams[i]!, bnParams, noDy, pastSnap) !== 1) return NaN;
          if (ev.guardReadsZ || ev.gReadsZ) evSnapshot(t, y);
          if (ev.guardReadsZ && ev.guard(t, y, Zev, off(i), zo(i), flowParams[i]!, bnParams, noDy, pastSnap) !== 1) return NaN;
          return ev.g(t, y, Zev, off(i), zo(i), flowParams[i]!, bnParams, noDy, pastSnap);
        },
        action: (t, y) => {
          evT = NaN;
          snapshot(t, y, Zev);
          ev.set(t, y, Zev, off(i), zo(i), flowParams[i]!, bnParams, tmp, pastSnap);
          ev.targets.forEach((k, j) => {
            y[off(i) + k] = tmp[j]!;
          });
        },
      });
    }
  }
  const timedEvents: TimedEvent[] = [];
  flows.forEach((f, i) => {
    if (f.startS > 0) timedEvents.push({ name: `flow ${i} starts`, atS: f.startS, action: () => {} });
    if (f.stopS < tEnd) timedEvents.push({ name: `flow ${i} stops`, atS: f.stopS, action: () => {} });
  });
  const minTp = Math.min(...flows.map((f) => f.Tp));
  const lagBuf = new Float64Array(N);
  const lags = (t: number, y: ArrayLike<number>): Float64Array => {
    const d = sys.delay(t, y, Zev, 0, 0, flowParams[0]!, bnParams, noDy, noPast);
    for (let i = 0; i < N; i++) lagBuf[i] = flows[i]!.Tp + d;
    return lagBuf;
  };
  return {
    problem: { n, rhs, rhsComponent, y0, tspan: [0, tEnd], minLagS: minTp, lags, bounds, events, timedEvents },
    n,
    N,
    snapshot,
    zSize,
    zFlow: (i, name) => {
      if (name === 'R') return zo(i);
      const k = sys.flow.outputs.findIndex((o) => o.name === name);
      return k < 0 ? -1 : zo(i) + 1 + k;
    },
    zBottleneck: (name) => (name === 'delay' ? 0 : name === 'A' ? 1 : (() => {
      const k = sys.bottleneck.outputs.findIndex((o) => o.name === name);
      return k < 0 ? -1 : 2 + k;
    })()),
    yIndex: (i, name) => {
      if (i < 0) return sys.bottleneck.states.findIndex((s) => s.name === name);
      const k = sys.flow.states.findIndex((s) => s.name === name);
      return k < 0 ? -1 : off(i) + k;
    },
    flowParams,
    bnParams,
  };
}

/**
 * Indices in Y of the state components a delayed snapshot reads: those the snapshot functions (delay,
 * outputs) read, plus delayed state references (`_Y0[...]`) anywhere, for the bottleneck and each flow.
 * Read from the generated code; any state index it cannot parse as a literal means all components.
 */
export function delayedStateIndices(sys: CompiledSystem, N: number, off: (i: number) => number): Int32Array {
  const n = sys.nb + N * sys.nf;
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const bn = new Set<number>();
  const fl = new Set<number>();
  const scan = (code: string, names: RegExp): boolean => {
    for (const m of code.matchAll(/(?<![\w$])(_Y\d+|Y)\[([^\]]*)\]/g)) {
      if (!names.test(m[1]!)) continue;
      const lit = /^(off \+ )?(\d+)$/.exec(m[2]!);
      if (!lit) return false;
      (lit[1] ? fl : bn).add(Number(lit[2]));
    }
    return true;
  };
  const src = sys.source;
  for (const name of ['delay', 'flowOutputs', 'bnOutputs']) if (src[name] === undefined || !scan(src[name]!, /^Y$/)) return all;
  for (const code of Object.values(src)) if (!scan(code, /^_Y\d+$/)) return all;
  const out: number[] = [...bn].filter((k) => k < sys.nb);
  for (let i = 0; i < N; i++) for (const k of fl) if (k < sys.nf) out.push(off(i) + k);
  return Int32Array.from(out.sort((a, b) => a - b));
}

/** The dy argument of generated functions that write none (guards, g): no array allocated per call. */
const noDy: number[] = [];

const noPast: PastSnapshot = Object.assign(
  () => {
    throw new Error('outputs cannot use delayed values');
  },
  { draw: () => 1 },
);
