import type { PastFn } from '../../solver/index.js';
import type { CompiledSystem, PastSnapshot } from '../compiler/compileSystem.js';
import type { StateLayout } from '../compiler/layout.js';
import type { BlockArrays, Snapshot } from './blocks.js';
import { windowRuntime } from './windows.js';

/** The delayed snapshots the generated code reads, and the solver's past they come from. */
export interface DelayedPast {
  pastSnap: PastSnapshot;
  /** Called with the solver's past at every entry (rhs, event): a new past clears the caches. */
  usePast(past: PastFn): void;
  /** Scratch snapshot of the current point, for the rhs. */
  Zcur: Float64Array;
  /** Scratch snapshot for events and lags. */
  Zev: Float64Array;
}

/**
 * The generated code's view of the past: delayed snapshots at s (cached, a few time points, apart for
 * the accepted solution and the step in progress), maxover/minover windows, and the loss-threshold
 * draw of the hybrid models.
 */
export function delayedPast(a: BlockArrays, snapshot: Snapshot, draw: () => number): DelayedPast {
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
