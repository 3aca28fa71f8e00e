import type { RunResult } from './types.js';

/** The flat summary the CLI prints with `--json` (one object; keys stable, documented in the README). */
export interface SummaryJson {
  engine: RunResult['engine'];
  status: RunResult['status'];
  failure?: string;
  variant: RunResult['variant'];
  scenario: string;
  seed: number;
  durationS: number;
  mssBytes: number;
  flows: number;
  goodputBps: number;
  throughputBps: number;
  meanCwndBytes: number;
  meanCwndSegments: number;
  retransmits: number;
  timeouts: number;
  fastRecoveries: number;
  lossRate: number;
  drops: RunResult['summary']['drops'];
  events: number | null;
  wallS: number;
  perFlow: RunResult['flows'][number]['summary'][];
}

export function summaryJson(r: RunResult): SummaryJson {
  return {
    engine: r.engine,
    status: r.status,
    ...(r.failure !== undefined && { failure: r.failure }),
    variant: r.variant,
    scenario: r.scenario,
    seed: r.spec.seed,
    durationS: r.durationS,
    mssBytes: r.mssBytes,
    flows: r.flows.length,
    goodputBps: r.summary.goodputBps,
    throughputBps: r.summary.throughputBps,
    meanCwndBytes: r.summary.meanCwndBytes,
    meanCwndSegments: r.summary.meanCwndSegments,
    retransmits: r.summary.retransmits,
    timeouts: r.summary.timeouts,
    fastRecoveries: r.summary.fastRecoveries,
    lossRate: r.summary.lossRate,
    drops: r.summary.drops,
    events: r.stats.events ?? null,
    wallS: r.stats.wallS,
    perFlow: r.flows.map((f) => f.summary),
  };
}
