import { InputError } from '../../errors.js';
import type { Bound, DdeProblem, PastFn, StateEvent, TimedEvent } from '../../solver/index.js';
import type { CompiledEvent, CompiledSystem, GenFn, PastSnapshot } from '../compiler/compileSystem.js';
import type { FluidLink } from './scenarioMap.js';
import type { FlowGroup } from './groups.js';
import { StateLayout, Z_A, Z_DELAY } from '../compiler/layout.js';
import { bindBottleneck } from './params.js';
import { basename } from 'node:path';
import seedrandom from 'seedrandom';
import { windowRuntime } from './windows.js';

/**
 * The shared bottleneck plus one state block per flow group (groups.ts), each block from its own flow
 * model, assembled into a DdeProblem. The blocks are coupled only through the queue: the bottleneck
 * sees the aggregate arrival rate A = sum of multiplicity x rate, every flow sees the queue's delay
 * and loss. Flows are frozen (dy = 0, rate 0) before their start and after their stop time: both are
 * timed events, so the solver steps exactly onto them.
 */
export interface FluidSystem {
  problem: DdeProblem;
  layout: StateLayout;
  groups: readonly FlowGroup[];
  /** Snapshot (see layout.ts): Z at (t, y). */
  snapshot(t: number, y: ArrayLike<number>, Z: Float64Array): Float64Array;
  /** The group of each reduction (loss) event, by the event's name in the solution's record. */
  reductionGroup: ReadonlyMap<string, number>;
  bnParams: Float64Array;
}

/**
 * How loss events of the hybrid models are spaced: 'periodic' (threshold 1 = the expected count: the
 * deterministic-loss assumption of Mathis et al. and RFC 9438) or 'poisson' (thresholds drawn from
 * Exp(1) with the scenario's seed: losses form a Poisson process of the same rate, a stochastic hybrid
 * system after Hespanha, "Stochastic hybrid systems: application to communication networks", HSCC 2004).
 */
export type LossProcess = 'periodic' | 'poisson';

/** What names a group in event names: nothing for a single flow, else its flows. */
function groupLabel(g: FlowGroup, flowCount: number): string {
  if (flowCount === 1) return '';
  const m = g.members;
  if (m.length === 1) return `flow ${m[0]}`;
  return `flows ${m.length === m[m.length - 1]! - m[0]! + 1 ? `${m[0]}-${m[m.length - 1]}` : m.join(',')}`;
}

export function buildSystem(
  link: FluidLink,
  groups: readonly FlowGroup[],
  tEnd: number,
  loss: { process: LossProcess; seed: number } = { process: 'periodic', seed: 1 },
): FluidSystem {
  if (groups.length === 0) throw new RangeError('a fluid system needs at least one flow');
  const rng = seedrandom.alea(`cclab-fluid:${loss.seed}`);
  const draw = loss.process === 'poisson' ? () => -Math.log(1 - rng()) : () => 1;
  const a = blockArrays(link, groups);
  const snapshot = snapshotFn(a);
  const past = delayedPast(a, snapshot, draw);
  const { rhs, rhsComponent } = rightHandSide(a, snapshot, past);
  const { y0, bounds } = initialState(a);
  const { events, reductionGroup } = stateEvents(a, snapshot, past);
  const { layout, G, Tp, bn, bnParams, FP } = a;
  // Component names for the solver's failure messages ("flow 2 W = NaN at t = ...").
  const names = [...layout.bottleneck.states, ...groups.flatMap((grp, g) => layout.flows[g]!.states.map((st) => (G > 1 || grp.members.length > 1 ? `${groupLabel(grp, 2)} ${st}` : st)))];
  const minTp = Math.min(...Tp);
  // The delays are R = Tp + queueing delay, one per distinct Tp: flows with equal propagation RTTs
  // have equal lags for ever, and one echo per event and distinct lag is all the solver must land on.
  const lagTp = Float64Array.from(new Set(Tp));
  const lagBuf = new Float64Array(lagTp.length);
  const lags = (t: number, y: ArrayLike<number>): Float64Array => {
    const d = bn.delay(t, y, past.Zev, 0, 0, FP[0]!, bnParams, noDy, noPast);
    for (let j = 0; j < lagTp.length; j++) lagBuf[j] = lagTp[j]! + d;
    return lagBuf;
  };
  return {
    problem: { n: layout.n, names, rhs, rhsComponent, y0, tspan: [0, tEnd], minLagS: minTp, lags, bounds, events, timedEvents: flowTimedEvents(a, tEnd) },
    layout,
    groups,
    snapshot,
    reductionGroup,
    bnParams,
  };
}

/** Per group, in arrays the hot loops index directly; the layout and the bottleneck's parameters. */
interface BlockArrays {
  groups: readonly FlowGroup[];
  /** The bottleneck's functions are the same in every group's compiled system (one bottleneck file). */
  bn: CompiledSystem;
  layout: StateLayout;
  G: number;
  flowCount: number;
  bnParams: Float64Array;
  off: Int32Array;
  zo: Int32Array;
  nf: Int32Array;
  mult: Float64Array;
  Tp: Float64Array;
  startS: Float64Array;
  stopS: Float64Array;
  FP: Float64Array[];
  flowOutputs: GenFn[];
  flowRhs: GenFn[];
  zRate: Int32Array;
  active(g: number, t: number): boolean;
}

function blockArrays(link: FluidLink, groups: readonly FlowGroup[]): BlockArrays {
  const bn = groups[0]!.system;
  const layout = new StateLayout(
    { states: bn.bottleneck.states.map((s) => s.name), outputs: bn.bottleneck.outputs.map((o) => o.name) },
    groups.map((g) => ({ states: g.system.flow.states.map((s) => s.name), outputs: g.system.flow.outputs.map((o) => o.name) })),
  );
  const startS = Float64Array.from(groups, (g) => g.flow.startS);
  const stopS = Float64Array.from(groups, (g) => g.flow.stopS);
  return {
    groups,
    bn,
    layout,
    G: groups.length,
    flowCount: groups.reduce((x, g) => x + g.members.length, 0),
    bnParams: bindBottleneck(bn.bottleneck, link),
    off: Int32Array.from(groups, (_, g) => layout.off(g)),
    zo: Int32Array.from(groups, (_, g) => layout.zo(g)),
    nf: Int32Array.from(groups, (g) => g.system.nf),
    mult: Float64Array.from(groups, (g) => g.members.length),
    Tp: Float64Array.from(groups, (g) => g.flow.Tp),
    startS,
    stopS,
    FP: groups.map((g) => g.params),
    flowOutputs: groups.map((g) => g.system.flowOutputs),
    flowRhs: groups.map((g) => g.system.flowRhs),
    zRate: Int32Array.from(groups, (g, k) => layout.zFlow(k, 'rate')),
    active: (g: number, t: number): boolean => t >= startS[g]! && t < stopS[g]!,
  };
}

type Snapshot = (t: number, y: ArrayLike<number>, Z: Float64Array) => Float64Array;

/** Z at (t, y): the queueing delay, every block's R and outputs (rate 0 while inactive), A, the bottleneck's outputs. */
function snapshotFn(a: BlockArrays): Snapshot {
  const { bn, G, off, zo, Tp, FP, flowOutputs, zRate, mult, bnParams, active } = a;
  return (t, y, Z) => {
    Z[Z_DELAY] = bn.delay(t, y, Z, 0, 0, FP[0]!, bnParams, noDy, noPast);
    let A = 0;
    for (let g = 0; g < G; g++) {
      Z[zo[g]!] = Tp[g]! + Z[Z_DELAY];
      flowOutputs[g]!(t, y, Z, off[g]!, zo[g]!, FP[g]!, bnParams, noDy, noPast);
      if (!active(g, t)) Z[zRate[g]!] = 0;
      A += mult[g]! * Z[zRate[g]!]!;
    }
    Z[Z_A] = A;
    bn.bnOutputs(t, y, Z, 0, 0, FP[0]!, bnParams, noDy, noPast);
    return Z;
  };
}

/** The delayed snapshots the generated code reads, and the solver's past they come from. */
interface DelayedPast {
  pastSnap: PastSnapshot;
  /** Called with the solver's past at every entry (rhs, event): a new past clears the caches. */
  usePast(past: PastFn): void;
  /** Scratch snapshot of the current point, for the rhs. */
  Zcur: Float64Array;
  /** Scratch snapshot for events and lags. */
  Zev: Float64Array;
}

function delayedPast(a: BlockArrays, snapshot: Snapshot, draw: () => number): DelayedPast {
  const { layout, groups } = a;
  const { n, zSize } = layout;
  // Delayed snapshots: a few cached time points (each rhs call asks for t - R once per group, and
  // groups with equal RTTs ask for the same time). Look-ups in the accepted solution are final; those
  // inside the step in progress hold only for the solver's current epoch (they change between
  // iterations and attempts), so they are cached apart, keyed by (s, epoch).
  const cacheFinal = new SnapshotCache(n, zSize);
  const cacheStep = new SnapshotCache(n, zSize);
  let solverPast: PastFn = Object.assign(() => NaN, { settledUntil: -Infinity, epoch: -1 });
  // The state components a delayed snapshot can read (the snapshot's own inputs and the delayed state
  // references); the others are never evaluated at delayed times (CUBIC: 8 of 14).
  const need = delayedStateIndices(layout, groups.map((g) => g.system));
  const pastSnap: PastSnapshot = Object.assign((s: number) => {
    const inStep = s > solverPast.settledUntil;
    const cache = inStep ? cacheStep : cacheFinal;
    const key = inStep ? solverPast.epoch : 0;
    const hit = cache.find(s, key);
    if (hit) return hit;
    const e = cache.next(s, key);
    if (solverPast.fill) solverPast.fill(s, e.Y, need);
    else for (let j = 0; j < need.length; j++) e.Y[need[j]!] = solverPast(s, need[j]!);
    snapshot(s, e.Y, e.Z);
    return e;
  }, { draw });
  const over = windowsOf(a, snapshot, () => solverPast);
  if (over) pastSnap.over = over;
  return {
    pastSnap,
    usePast(past: PastFn): void {
      if (solverPast !== past) {
        solverPast = past;
        cacheFinal.clear();
        cacheStep.clear();
      }
    },
    Zcur: new Float64Array(zSize),
    Zev: new Float64Array(zSize),
  };
}

/**
 * maxover/minover of the blocks' models (windows.ts): their samples are whole snapshots of the
 * accepted solution (every component), kept apart from the delayed-snapshot caches so a query inside
 * a generated function never overwrites a snapshot that function still reads.
 */
function windowsOf(a: BlockArrays, snapshot: Snapshot, solverPast: () => PastFn): PastSnapshot['over'] {
  const { layout, groups } = a;
  const all = Int32Array.from({ length: layout.n }, (_, i) => i);
  const at = (s: number, e: { Y: Float64Array; Z: Float64Array }): { Y: Float64Array; Z: Float64Array } => {
    const past = solverPast();
    if (past.fill) past.fill(s, e.Y, all);
    else for (let j = 0; j < layout.n; j++) e.Y[j] = past(s, j);
    snapshot(s, e.Y, e.Z);
    return e;
  };
  const own = { Y: new Float64Array(layout.n), Z: new Float64Array(layout.zSize) };
  const ring = Array.from({ length: 4 }, () => ({ Y: new Float64Array(layout.n), Z: new Float64Array(layout.zSize) }));
  let next = 0;
  const samplerPast: PastSnapshot = Object.assign((s: number) => at(s, ring[(next = (next + 1) % ring.length)]!), { draw: () => 1 });
  const blocks = groups.map((g, k) => ({ windows: g.system.windows, off: a.off[k]!, zo: a.zo[k]!, FP: a.FP[k]!, defaultStepS: a.Tp[k]! / 8 }));
  return windowRuntime(blocks, a.bnParams, (s) => at(s, own), samplerPast, () => solverPast().settledUntil);
}

function rightHandSide(a: BlockArrays, snapshot: Snapshot, p: DelayedPast): { rhs: DdeProblem['rhs']; rhsComponent: DdeProblem['rhsComponent'] } {
  const { bn, G, off, zo, nf, FP, flowRhs, bnParams, active, layout } = a;
  const { pastSnap, usePast, Zcur } = p;
  const rhs: DdeProblem['rhs'] = (t, y, dy, past) => {
    usePast(past);
    snapshot(t, y, Zcur);
    bn.bnRhs(t, y, Zcur, 0, 0, FP[0]!, bnParams, dy, pastSnap);
    for (let g = 0; g < G; g++) {
      const o = off[g]!;
      if (active(g, t)) flowRhs[g]!(t, y, Zcur, o, zo[g]!, FP[g]!, bnParams, dy, pastSnap);
      else for (let k = 0; k < nf[g]!; k++) dy[o + k] = 0;
    }
  };
  // The bottleneck's own derivatives (the queue's A - C) without the flows' delayed terms: what the
  // solver needs to decide whether a queue held at 0 or B starts to move.
  const dyB = new Array<number>(layout.n).fill(0);
  const rhsComponent: DdeProblem['rhsComponent'] = (t, y, i, past) => {
    if (i >= layout.nb) {
      rhs(t, y, dyB, past);
      return dyB[i]!;
    }
    usePast(past);
    snapshot(t, y, Zcur);
    bn.bnRhs(t, y, Zcur, 0, 0, FP[0]!, bnParams, dyB, pastSnap);
    return dyB[i]!;
  };
  return { rhs, rhsComponent };
}

function initialState(a: BlockArrays): { y0: number[]; bounds: Bound[] } {
  const { bn, bnParams, groups, FP, off } = a;
  const y0: number[] = [];
  const bounds: Bound[] = [];
  bn.bottleneck.states.forEach((_, k) => {
    y0.push(bn.bnConst('initial', k, bnParams)!);
    const lo = bn.bnConst('min', k, bnParams);
    const hi = bn.bnConst('max', k, bnParams);
    if (lo !== undefined || hi !== undefined) bounds.push({ index: k, lo, hi });
  });
  groups.forEach((grp, g) => {
    const sys = grp.system;
    sys.flow.states.forEach((st, k) => {
      const v = sys.flowConst('initial', k, FP[g]!, bnParams)!;
      if (!Number.isFinite(v)) throw new InputError(`states.${st.name}.initial`, `evaluates to ${v}`, basename(sys.flow.path));
      y0.push(v);
      const lo = sys.flowConst('min', k, FP[g]!, bnParams);
      const hi = sys.flowConst('max', k, FP[g]!, bnParams);
      if (lo !== undefined || hi !== undefined) bounds.push({ index: off[g]! + k, lo, hi });
    });
  });
  return { y0, bounds };
}

function stateEvents(a: BlockArrays, snapshot: Snapshot, p: DelayedPast): { events: StateEvent[]; reductionGroup: Map<string, number> } {
  const { groups, layout, off, zo, FP, bnParams, flowCount, active } = a;
  const { pastSnap, usePast, Zev } = p;
  const n = layout.n;
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
  /** One compiled event on the block at offset o (snapshot block zo), armed while `armed(t)`. */
  const stateEvent = (ev: CompiledEvent, name: string, o: number, z: number, fp: Float64Array, armed: (t: number) => boolean): StateEvent => ({
    name,
    direction: ev.direction,
    // Kink locators (no assignment) switch no state the delayed terms read.
    propagates: ev.targets.length > 0,
    g: (t, y, past) => {
      if (!armed(t)) return NaN;
      usePast(past);
      // A guard on the discrete modes alone (the usual case) is checked before any snapshot.
      if (!ev.guardReadsZ && ev.guard(t, y, Zev, o, z, fp, bnParams, noDy, pastSnap) !== 1) return NaN;
      if (ev.guardReadsZ || ev.gReadsZ) evSnapshot(t, y);
      if (ev.guardReadsZ && ev.guard(t, y, Zev, o, z, fp, bnParams, noDy, pastSnap) !== 1) return NaN;
      return ev.g(t, y, Zev, o, z, fp, bnParams, noDy, pastSnap);
    },
    action: (t, y) => {
      evT = NaN;
      snapshot(t, y, Zev);
      if (ev.targets.length > tmp.length) tmp.length = ev.targets.length;
      ev.set(t, y, Zev, o, z, fp, bnParams, tmp, pastSnap);
      ev.targets.forEach((k, j) => {
        y[o + k] = tmp[j]!;
      });
    },
  });
  const events: StateEvent[] = [];
  const reductionGroup = new Map<string, number>();
  groups.forEach((grp, g) => {
    const label = groupLabel(grp, flowCount);
    for (const ev of grp.system.events) {
      const name = label ? `${label}: ${ev.name}` : ev.name;
      if (ev.reduction) reductionGroup.set(name, g);
      events.push(stateEvent(ev, name, off[g]!, zo[g]!, FP[g]!, (t) => active(g, t)));
    }
  });
  // The bottleneck's own events (a queue discipline's modes), once for the whole system: its block is at 0.
  for (const ev of groups[0]!.system.bnEvents) events.push(stateEvent(ev, `queue: ${ev.name}`, 0, 0, FP[0]!, () => true));
  return { events, reductionGroup };
}

/** Flow starts and stops: the solver steps exactly onto them. */
function flowTimedEvents(a: BlockArrays, tEnd: number): TimedEvent[] {
  const timedEvents: TimedEvent[] = [];
  a.groups.forEach((grp, g) => {
    const who = groupLabel(grp, 2);
    const verb = grp.members.length > 1 ? ['start', 'stop'] : ['starts', 'stops'];
    if (a.startS[g]! > 0) timedEvents.push({ name: `${who} ${verb[0]}`, atS: a.startS[g]!, action: () => {} });
    if (a.stopS[g]! < tEnd) timedEvents.push({ name: `${who} ${verb[1]}`, atS: a.stopS[g]!, action: () => {} });
  });
  return timedEvents;
}

/**
 * Indices in Y of the state components a delayed snapshot reads: those the snapshot functions (delay,
 * outputs) read, plus delayed state references (`_Y0[...]`) anywhere, for the bottleneck and each
 * block (`systems[g]` is block g's compiled model). Read from the generated code; any state index it
 * cannot parse as a literal means all components.
 */
export function delayedStateIndices(layout: StateLayout, systems: readonly CompiledSystem[]): Int32Array {
  const all = Int32Array.from({ length: layout.n }, (_, i) => i);
  const bn = new Set<number>();
  const out: number[] = [];
  for (let g = 0; g < systems.length; g++) {
    const sys = systems[g]!;
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
    for (const k of fl) if (k < sys.nf) out.push(layout.off(g) + k);
  }
  out.push(...[...bn].filter((k) => k < layout.nb));
  return Int32Array.from(out.sort((a, b) => a - b));
}

/**
 * A few delayed snapshots (state Y and outputs Z at time s), reused in rotation: the objects handed
 * out stay valid for the next CACHE - 1 look-ups, so a generated function that reads several delayed
 * times at once reads each its own, and look-ups allocate nothing.
 */
class SnapshotCache {
  private static readonly CACHE = 4;
  private readonly s = new Float64Array(SnapshotCache.CACHE).fill(NaN);
  private readonly key = new Float64Array(SnapshotCache.CACHE).fill(NaN);
  private readonly entries: { Y: Float64Array; Z: Float64Array }[];
  private nextIdx = 0;

  constructor(n: number, zSize: number) {
    this.entries = Array.from({ length: SnapshotCache.CACHE }, () => ({ Y: new Float64Array(n), Z: new Float64Array(zSize) }));
  }

  find(s: number, key: number): { Y: Float64Array; Z: Float64Array } | undefined {
    for (let k = 0; k < SnapshotCache.CACHE; k++) if (this.s[k] === s && this.key[k] === key) return this.entries[k]!;
    return undefined;
  }

  /** The entry to fill for (s, key) (the oldest one). */
  next(s: number, key: number): { Y: Float64Array; Z: Float64Array } {
    const k = this.nextIdx;
    this.nextIdx = (k + 1) % SnapshotCache.CACHE;
    this.s[k] = s;
    this.key[k] = key;
    return this.entries[k]!;
  }

  clear(): void {
    this.s.fill(NaN);
    this.key.fill(NaN);
  }
}

/** The dy argument of generated functions that write none (guards, g): no array allocated per call. */
const noDy: number[] = [];

const noPast: PastSnapshot = Object.assign(
  () => {
    throw new Error('outputs cannot use delayed values');
  },
  { draw: () => 1 },
);
