import type { Engine, Variant } from '../variants.js';
import type { AxisValue } from '../runs/axes.js';
import type { RunRecord } from '../runs/execute.js';
import { interval, type Interval } from '../runs/stats.js';

/** Statistics of one grid point, engine and variant over its replications. */
export interface PointStats {
  pointId: string;
  point: AxisValue[];
  engine: Engine;
  variant: Variant;
  /** Runs at this point (ok + failed). */
  runs: number;
  failed: number;
  goodputBps: Interval;
  meanCwndSegments: Interval;
  /** Means over ok runs (no CI: secondary figures). */
  throughputBps: number;
  retransmits: number;
  timeouts: number;
  fastRecoveries: number;
  lossRate: number;
}

function meanOf(xs: number[]): number {
  return xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/**
 * Groups run records by (point, variant, engine) in the order they first appear (plan order when
 * `records` is in plan order) and summarises each group. Failed runs are counted, never averaged.
 */
export function aggregatePoints(records: readonly RunRecord[]): PointStats[] {
  const groups = new Map<string, RunRecord[]>();
  for (const r of records) {
    const k = `${r.spec.pointId}\0${r.spec.variant}\0${r.spec.engine}`;
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return [...groups.values()].map((g) => {
    const ok = g.filter((r) => r.result.status === 'ok').map((r) => r.result.summary);
    const s = g[0]!.spec;
    return {
      pointId: s.pointId,
      point: s.point,
      engine: s.engine,
      variant: s.variant,
      runs: g.length,
      failed: g.length - ok.length,
      goodputBps: interval(ok.map((x) => x.goodputBps)),
      meanCwndSegments: interval(ok.map((x) => x.meanCwndSegments)),
      throughputBps: meanOf(ok.map((x) => x.throughputBps)),
      retransmits: meanOf(ok.map((x) => x.retransmits)),
      timeouts: meanOf(ok.map((x) => x.timeouts)),
      fastRecoveries: meanOf(ok.map((x) => x.fastRecoveries)),
      lossRate: meanOf(ok.map((x) => x.lossRate)),
    };
  });
}
