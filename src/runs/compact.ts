import type { RunResult, RunSummary } from '../result/types.js';

/**
 * What a sweep keeps of a run: the summary and status, no traces (a 100 s packet run's traces are
 * megabytes; its summary is a few hundred bytes, which keeps the cache small and merges fast).
 */
export interface CompactRun {
  status: 'ok' | 'failed';
  failure?: string;
  summary: RunSummary;
  /** Per-flow goodput (bit/s), for fairness analyses. */
  flowGoodputBps: number[];
  /** Wall-clock seconds of the original run (informational; never compared). */
  wallS: number;
}

export function compactResult(r: RunResult): CompactRun {
  const out: CompactRun = {
    status: r.status,
    summary: r.summary,
    flowGoodputBps: r.flows.map((f) => f.summary.goodputBps),
    wallS: r.stats.wallS,
  };
  if (r.failure !== undefined) out.failure = r.failure;
  return out;
}

/** A summary of zeros, for runs that threw before producing a result. */
export function emptySummary(): RunSummary {
  return {
    goodputBps: NaN,
    throughputBps: NaN,
    meanCwndBytes: NaN,
    meanCwndSegments: NaN,
    retransmits: 0,
    timeouts: 0,
    fastRecoveries: 0,
    drops: { queue: 0, random: 0, ackRandom: 0, ackQueue: 0 },
    lossRate: NaN,
  };
}

/** Shape check for cached JSON (a file from another version, or hand-edited, is a miss, not a crash). */
export function isCompactRun(x: unknown): x is CompactRun {
  if (x === null || typeof x !== 'object') return false;
  const r = x as Partial<CompactRun>;
  return (r.status === 'ok' || r.status === 'failed') && typeof r.summary === 'object' && r.summary !== null
    && Array.isArray(r.flowGoodputBps) && typeof r.wallS === 'number';
}
