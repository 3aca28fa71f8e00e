import type { TopLevelSpec } from 'vega-lite';
import { roundSig } from '../page/downsample.js';
import type { FlowPoint, TransferPoint } from './aqmData.js';
import { CHART_WIDTH } from './charts.js';

/**
 * Vega-Lite specs of the bufferbloat sections: goodput against queueing delay per flow, and the
 * completion times of short transfers beside a bulk flow, per queue discipline. Data inline, as
 * every cclab chart (src/report/charts.ts).
 */

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
/** Delays below this (ms) sit on the axis's floor: the log scale has no zero. */
const FLOOR_MS = 0.01;
const ms = (s: number): number => roundSig(Math.max(FLOOR_MS, s * 1e3), 4);

/**
 * One panel per variant: each flow's goodput (y) against its queueing delay (x, log), a filled
 * point at the mean joined by a rule to an open point at the 99th percentile; colour by discipline,
 * shape by ECN.
 */
export function delayChart(points: readonly FlowPoint[], queues: readonly string[], variants: readonly string[], interactive = true): TopLevelSpec {
  const rows = points
    .filter((p) => p.meanDelayS !== null && p.p99DelayS !== null)
    .map((p) => ({ variant: p.variant, queue: p.queue, ecn: p.ecn ? 'ECN' : 'no ECN', flow: p.flow, mbps: roundSig(p.goodputBps / 1e6, 4), mean: ms(p.meanDelayS!), p99: ms(p.p99DelayS!), scenario: p.scenario }));
  const x = { field: 'mean', type: 'quantitative', title: 'queueing delay (ms)', scale: { type: 'log' }, axis: { tickCount: 5 } } as const;
  const y = { field: 'mbps', type: 'quantitative', title: 'goodput per flow (Mbit/s)' } as const;
  const color = { field: 'queue', type: 'nominal', title: 'queue', sort: [...queues] } as const;
  const shape = { field: 'ecn', type: 'nominal', title: 'ECN', sort: ['no ECN', 'ECN'] } as const;
  const tooltip = [{ field: 'scenario' }, { field: 'variant' }, { field: 'flow' }, { field: 'mbps', title: 'goodput (Mbit/s)' }, { field: 'mean', title: 'mean delay (ms)' }, { field: 'p99', title: 'p99 delay (ms)' }];
  const cols = Math.max(1, Math.min(3, variants.length));
  return {
    $schema: SCHEMA,
    data: { values: rows },
    facet: { field: 'variant', type: 'nominal', title: null, sort: [...variants] },
    columns: cols,
    spec: {
      width: Math.floor((CHART_WIDTH - 140) / cols),
      height: 220,
      layer: [
        { mark: { type: 'rule', strokeWidth: 1, opacity: 0.6 }, encoding: { x, x2: { field: 'p99' }, y, color } },
        { mark: { type: 'point', filled: false, size: 45 }, encoding: { x: { ...x, field: 'p99' }, y, color, shape } },
        { mark: { type: 'point', filled: true, size: 55 }, encoding: { x, y, color, shape, ...(interactive ? { tooltip } : {}) } },
      ],
    },
    resolve: { scale: { x: 'shared', y: 'shared' } },
  } as TopLevelSpec;
}

/**
 * Each short transfer's completion time (log) per discipline, one offset colour per variant, with
 * the median of each case as a tick.
 */
export function transferChart(points: readonly TransferPoint[], queues: readonly string[], variants: readonly string[], interactive = true): TopLevelSpec {
  const rows = points.flatMap((p) =>
    p.transfers.filter((t) => t.completionS !== null).map((t) => ({ queue: p.queue, variant: p.variant, startS: t.startS, fct: roundSig(t.completionS!, 4), rtts: roundSig(t.completionS! / p.rttS, 3) })),
  );
  const x = { field: 'queue', type: 'nominal', title: 'bottleneck queue', sort: [...queues], axis: { labelAngle: -30 } } as const;
  const y = { field: 'fct', type: 'quantitative', title: 'completion time (s)', scale: { type: 'log' } } as const;
  const color = { field: 'variant', type: 'nominal', title: 'short flow', sort: [...variants] } as const;
  const xOffset = { field: 'variant', type: 'nominal', sort: [...variants] } as const;
  const tooltip = [{ field: 'queue' }, { field: 'variant' }, { field: 'startS', title: 'start (s)' }, { field: 'fct', title: 'completion (s)' }, { field: 'rtts', title: 'propagation RTTs' }];
  return {
    $schema: SCHEMA,
    data: { values: rows },
    width: CHART_WIDTH - 160,
    height: 260,
    layer: [
      {
        mark: { type: 'tick', thickness: 2, size: 14 },
        encoding: { x, xOffset, y: { aggregate: 'median', field: 'fct', type: 'quantitative', title: 'completion time (s)', scale: { type: 'log' } }, color },
      },
      { mark: { type: 'point', filled: true, size: 40, opacity: 0.75 }, encoding: { x, xOffset, y, color, ...(interactive ? { tooltip } : {}) } },
    ],
  } as TopLevelSpec;
}
