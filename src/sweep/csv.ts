import { toCsv as toRecordsCsv, type CsvValue } from '../page/csv.js';
import type { Axis, AxisValue } from '../runs/axes.js';
import type { RunRecord } from '../runs/execute.js';
import type { PointStats } from './points.js';

/**
 * Tidy CSV for runs.csv and points.csv. Numbers are written in JavaScript's shortest round-trip
 * form (so a CSV re-read gives the same doubles), NaN/undefined as an empty cell, and nothing
 * run-dependent (wall time, cache hits) is written, so the same sweep always gives the same bytes.
 */

export type Cell = CsvValue;

/** Header + rows through src/report's RFC 4180 writer (one CSV dialect across cclab's outputs). */
export function toCsv(header: readonly string[], rows: readonly Cell[][]): string {
  return toRecordsCsv(rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))), header);
}

/** Jain's fairness index of per-flow goodput, (Σx)² / (n Σx²): 1 = equal shares, 1/n = one flow takes all. */
export function jainIndex(xs: readonly number[]): number {
  const n = xs.length;
  const sum = xs.reduce((a, b) => a + b, 0);
  const sq = xs.reduce((a, b) => a + b * b, 0);
  return n === 0 || sq === 0 ? NaN : (sum * sum) / (n * sq);
}

const axisCells = (point: readonly AxisValue[]): Cell[] => point.map((v) => v);

/** One row per run: swept fields, identity, then the run summary. */
export function runsCsv(axes: readonly Axis[], records: readonly RunRecord[]): string {
  const header = [
    'runId', 'pointId', ...axes.map((a) => a.name), 'variant', 'engine', 'rep', 'seed', 'status',
    'goodputBps', 'throughputBps', 'meanCwndSegments', 'meanCwndBytes', 'retransmits', 'timeouts',
    'fastRecoveries', 'lossRate', 'dropsQueue', 'dropsRandom', 'dropsAckRandom', 'dropsAckQueue', 'jainIndex', 'failure',
  ];
  const rows = records.map(({ spec, result }) => {
    const s = result.summary;
    return [
      spec.runId, spec.pointId, ...axisCells(spec.point), spec.variant, spec.engine, spec.rep, spec.seed, result.status,
      s.goodputBps, s.throughputBps, s.meanCwndSegments, s.meanCwndBytes, s.retransmits, s.timeouts,
      s.fastRecoveries, s.lossRate, s.drops?.queue, s.drops?.random, s.drops?.ackRandom, s.drops?.ackQueue,
      result.status === 'ok' ? jainIndex(result.flowGoodputBps) : null, result.failure,
    ];
  });
  return toCsv(header, rows);
}

/** One row per grid point, engine and variant. */
export function pointsCsv(axes: readonly Axis[], points: readonly PointStats[]): string {
  const header = [
    'pointId', ...axes.map((a) => a.name), 'variant', 'engine', 'runs', 'failed', 'n',
    'goodputMean', 'goodputSd', 'goodputCi95Low', 'goodputCi95High',
    'cwndMean', 'cwndSd', 'cwndCi95Low', 'cwndCi95High',
    'throughputMean', 'retransmitsMean', 'timeoutsMean', 'lossRateMean',
  ];
  const rows = points.map((p) => [
    p.pointId, ...axisCells(p.point), p.variant, p.engine, p.runs, p.failed, p.goodputBps.n,
    p.goodputBps.mean, p.goodputBps.sd, p.goodputBps.ci95Low, p.goodputBps.ci95High,
    p.meanCwndSegments.mean, p.meanCwndSegments.sd, p.meanCwndSegments.ci95Low, p.meanCwndSegments.ci95High,
    p.throughputBps, p.retransmits, p.timeouts, p.lossRate,
  ]);
  return toCsv(header, rows);
}
