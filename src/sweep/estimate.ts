import type { Engine } from '../variants.js';
import { cacheKey, RunCache } from '../runs/cache.js';
import { keyParts } from '../runs/execute.js';
import type { RunSpec } from '../runs/spec.js';

/** What a sweep would do: runs in the grid, distinct computations, cache hits, and the time it would take. */
export interface SweepEstimate {
  runs: number;
  /** Distinct computations (runs with the same cache key are computed once, e.g. fluid replications). */
  unique: number;
  cached: number;
  /** Estimated wall seconds for the runs not cached, on `workers` workers. */
  estimatedS: number;
  /** How the estimate was made, in words. */
  basis: string;
}

/**
 * Packet engine cost model for runs with nothing cached to learn from: about 10 million events per
 * second (README, Speed) and about 6 events per data packet through the tightest link (arrivals and
 * departures on three links, the ACK, timers), at most the tightest link's packet rate.
 */
const PACKET_EVENTS_PER_S = 1e7;
const EVENTS_PER_PACKET = 6;
/** Fluid runs: 1-13 ms per 100 s preset run (README), plus set-up. */
const FLUID_RUN_S = 0.02;

function modelledS(spec: RunSpec): number {
  const s = spec.scenario;
  if (spec.engine === 'fluid') return FLUID_RUN_S;
  const slowest = Math.min(...s.flows.map((f) => Math.min(f.access.bandwidthBps, f.receiverAccess?.bandwidthBps ?? Infinity)), s.bottleneck.bandwidthBps);
  const pps = slowest / (8 * (s.mssBytes + s.headerBytes));
  return (pps * s.durationS * EVENTS_PER_PACKET) / PACKET_EVENTS_PER_S;
}

/**
 * Counts runs, distinct computations and cache hits without running anything, and estimates the time
 * of the rest: the mean wall time of this plan's cached runs of the same engine when there are any
 * (the machine's own speed), else the cost model above.
 */
export function estimateSweep(runs: readonly RunSpec[], opts: { cacheDir: string | null; workers: number; codeVersion: (e: Engine) => string }): SweepEstimate {
  const cache = opts.cacheDir === null ? null : new RunCache(opts.cacheDir);
  const seen = new Map<string, RunSpec>();
  for (const r of runs) {
    const key = cacheKey(keyParts(r, opts.codeVersion(r.engine)));
    if (!seen.has(key)) seen.set(key, r);
  }
  const wall: Record<string, number[]> = {};
  const todo: RunSpec[] = [];
  let cached = 0;
  for (const [key, r] of seen) {
    const hit = cache?.get(key);
    if (hit) {
      cached++;
      (wall[r.engine] ??= []).push(hit.wallS);
    } else todo.push(r);
  }
  const learned = Object.fromEntries(Object.entries(wall).map(([e, w]) => [e, w.reduce((a, b) => a + b, 0) / w.length]));
  let fromCache = 0;
  let total = 0;
  for (const r of todo) {
    const m = learned[r.engine];
    if (m !== undefined) fromCache++;
    total += m ?? modelledS(r);
  }
  const parallel = Math.max(1, Math.min(opts.workers, todo.length));
  const basis =
    todo.length === 0
      ? 'everything is cached'
      : fromCache === todo.length
        ? 'from the wall time of cached runs of the same engines'
        : fromCache > 0
          ? 'partly from cached runs, partly from a rate model (10 M packet events/s)'
          : 'from a rate model (10 M packet events/s, ~20 ms per fluid run); cached runs make it precise';
  return { runs: runs.length, unique: seen.size, cached, estimatedS: total / parallel, basis };
}
