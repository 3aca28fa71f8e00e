import { flowCc } from '../scenario/flowCc.js';
import type { Variant } from '../variants.js';
import { jainIndex } from './fairness.js';
import type { FlowSummary, QueueDelaySummary, QueueDisciplineStats, RunResult, RunSummary } from './types.js';

/** The flat summary the CLI prints with `--json` (one object; keys stable, documented in the README). */
export interface SummaryJson extends Pick<RunSummary, 'goodputBps' | 'throughputBps' | 'meanCwndBytes' | 'meanCwndSegments' | 'retransmits' | 'timeouts' | 'fastRecoveries' | 'lossRate'> {
  engine: RunResult['engine'];
  status: RunResult['status'];
  failure?: string;
  /** The scenario's top-level variant; `perFlow[i].variant` is what flow i ran. */
  variant: RunResult['variant'];
  scenario: string;
  seed: number;
  durationS: number;
  mssBytes: number;
  flows: number;
  // goodputBps, throughputBps, meanCwndBytes, meanCwndSegments, retransmits, timeouts, fastRecoveries, lossRate: as RunSummary's.
  /** Jain's fairness index of the flows' goodputs (1 = equal shares); null if nothing was delivered. */
  jainIndex: number | null;
  drops: RunResult['summary']['drops'];
  /** Packet engine: the traced queue's discipline with its drops and CE marks by reason; null otherwise. */
  queueDiscipline: QueueDisciplineStats | null;
  /** Packet engine: mean and 99th-percentile queueing delay at the traced queue over the measured interval; null otherwise. */
  queueDelay: QueueDelaySummary | null;
  events: number | null;
  wallS: number;
  perFlow: (FlowSummary & { variant: Variant })[];
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
    jainIndex: jainIndex(r.flows.map((f) => f.summary.goodputBps)),
    drops: r.summary.drops,
    queueDiscipline: r.queue.discipline ?? null,
    queueDelay: r.queue.delay ?? null,
    events: r.stats.events ?? null,
    wallS: r.stats.wallS,
    perFlow: r.flows.map((f, i) => ({ ...f.summary, variant: flowCc(r.spec, i).variant })),
  };
}
