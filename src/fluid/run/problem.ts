import { InputError } from '../../errors.js';
import type { Bound, DdeProblem, StateEvent, TimedEvent } from '../../solver/index.js';
import type { CompiledEvent } from '../compiler/compileSystem.js';
import type { StateLayout } from '../compiler/layout.js';
import type { FluidLink } from './scenarioMap.js';
import type { FlowGroup } from './groups.js';
import { basename } from 'node:path';
import { blockArrays, noDy, noPast, snapshotFn, type BlockArrays, type Snapshot } from './blocks.js';
import { delayedPast, type DelayedPast } from './delayedPast.js';
import { lossThresholds, type LossStream } from './lossThresholds.js';

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
  loss: { process: LossProcess; seed: number; stream?: LossStream | null } = { process: 'periodic', seed: 1 },
): FluidSystem {
  if (groups.length === 0) throw new RangeError('a fluid system needs at least one flow');
  // Poisson mode: the thresholds from the packet engine's loss stream where one flow meets random loss (lossThresholds.ts), else Exp(1).
  const draw = loss.process === 'poisson' ? lossThresholds(loss.seed, loss.stream ?? null) : () => 1;
  const a = blockArrays(link, groups);
  const snapshot = snapshotFn(a);
  const past = delayedPast(a, snapshot, draw);
  const { rhs, rhsComponent } = rightHandSide(a, snapshot, past);
  const { y0, bounds } = initialState(a, draw);
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

/** The initial state; `draw` serves a flow's expdraw() in an initial value (its first loss threshold). */
function initialState(a: BlockArrays, draw: () => number): { y0: number[]; bounds: Bound[] } {
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
      const v = sys.flowConst('initial', k, FP[g]!, bnParams, draw)!;
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
