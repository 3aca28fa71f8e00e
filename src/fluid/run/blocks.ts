import type { CompiledSystem, GenFn, PastSnapshot } from '../compiler/compileSystem.js';
import { StateLayout, Z_A, Z_DELAY } from '../compiler/layout.js';
import type { FlowGroup } from './groups.js';
import { bindBottleneck } from './params.js';
import type { FluidLink } from './scenarioMap.js';

/*
 * The fluid system's blocks (the bottleneck, then one block per flow group) as flat arrays, and the
 * snapshot Z of every output at a point (t, y): what problem.ts's right-hand side, events and delayed
 * look-ups (delayedPast.ts) all read.
 */

/** Per group, in arrays the hot loops index directly; the layout and the bottleneck's parameters. */
export interface BlockArrays {
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

export function blockArrays(link: FluidLink, groups: readonly FlowGroup[]): BlockArrays {
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

export type Snapshot = (t: number, y: ArrayLike<number>, Z: Float64Array) => Float64Array;

/** Z at (t, y): the queueing delay, every block's R and outputs (rate 0 while inactive), A, the bottleneck's outputs. */
export function snapshotFn(a: BlockArrays): Snapshot {
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

/** The dy argument of generated functions that write none (guards, g): no array allocated per call. */
export const noDy: number[] = [];

export const noPast: PastSnapshot = Object.assign(
  () => {
    throw new Error('outputs cannot use delayed values');
  },
  { draw: () => 1 },
);
