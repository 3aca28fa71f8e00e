import type { Scenario } from '../scenario/types.js';
import type { Engine, Variant } from '../variants.js';
import { scenarioAt, type AxisValue } from '../runs/axes.js';
import type { SweepPlan } from './grid.js';
import type { PointStats } from './points.js';
import { elasticity } from '../runs/stats.js';
import { fairSharePayloadBps } from '../scenario/path.js';
import type { ClosedFormPrediction } from '../theory/closedForms.js';
import { THEORY_ELASTICITY } from '../theory/elasticity.js';
import { VALIDITY } from '../compare/validity.js';

/** Closed-form predictions for a scenario (src/theory's closedForms, or a test's stand-in). */
export type ClosedFormsFn = (s: Scenario) => readonly ClosedFormPrediction[];

/**
 * The tidy tables behind the sweep report: one row per point/variant/engine with its loss, RTT and
 * "slice" (the values of any other swept axes), closed-form predictions, elasticity fits and the
 * winner of each grid point.
 */

export interface ReportRow {
  pointId: string;
  /** Values of the axes other than loss and RTT, as text ('' when there are none). */
  slice: string;
  loss: number | null;
  rttS: number | null;
  variant: Variant;
  engine: Engine;
  goodputBps: number;
  ci95Low: number | null;
  ci95High: number | null;
  cwndSegments: number;
  n: number;
  failed: number;
  /** Fair share of the slowest link: goodput cannot exceed it. */
  capacityBps: number;
  /** Means over the replications. */
  timeouts: number;
  fastRecoveries: number;
  /** Where this engine's runs leave the models' assumptions (empty: inside them). */
  validity: CellFlag[];
}

/** Why a grid cell is outside the models' assumptions: a one-letter mark for the charts and the reason. */
export interface CellFlag {
  code: 'timeouts' | 'link' | 'window' | 'failed';
  mark: string;
  reason: string;
}

/**
 * The validity checks of a comparison (compare/validity.ts, one home of the thresholds) applied to a
 * grid cell's mean figures: timeouts outnumbering fast recoveries, goodput at the link's capacity
 * (the link, not loss, sets the rate), fewer than VALIDITY.minPacketsPerRtt packets per RTT, failed runs.
 */
export function cellValidity(r: Pick<ReportRow, 'goodputBps' | 'capacityBps' | 'cwndSegments' | 'timeouts' | 'fastRecoveries' | 'failed' | 'n'>): CellFlag[] {
  const out: CellFlag[] = [];
  const reactions = r.timeouts + r.fastRecoveries;
  if (r.timeouts >= VALIDITY.minTimeouts && reactions > 0 && r.timeouts / reactions > VALIDITY.maxTimeoutShare) {
    out.push({ code: 'timeouts', mark: 'T', reason: `timeouts dominate: ${r.timeouts.toFixed(1)} timeouts vs ${r.fastRecoveries.toFixed(1)} fast recoveries per run` });
  }
  if (r.capacityBps > 0 && r.goodputBps >= VALIDITY.bandwidthShare * r.capacityBps) {
    out.push({ code: 'link', mark: 'C', reason: `capacity-limited: goodput ${Math.round((100 * r.goodputBps) / r.capacityBps)}% of the tightest link's fair share` });
  }
  if (Number.isFinite(r.cwndSegments) && r.cwndSegments < VALIDITY.minPacketsPerRtt) {
    out.push({ code: 'window', mark: 'W', reason: `window of ${r.cwndSegments.toFixed(1)} segments: fewer than ${VALIDITY.minPacketsPerRtt} packets per RTT` });
  }
  if (r.failed > 0) out.push({ code: 'failed', mark: 'F', reason: `${r.failed} of ${r.failed + r.n} runs failed` });
  return out;
}

export interface TheoryRow {
  slice: string;
  loss: number | null;
  rttS: number | null;
  variant: Variant;
  formula: string;
  title: string;
  /** The formula's goodput, capped by src/theory at the flow's fair share and the receive window. */
  goodputBps: number;
  /** What sets the rate there (only 'loss-limited' is the formula's own regime). */
  regime: string;
  note: string;
}

const num = (x: number) => (Number.isFinite(x) ? x : null);

export function axisIndex(plan: SweepPlan, name: string): number {
  return plan.axes.findIndex((a) => a.name === name);
}

/** The slice label of a point: `flows=2, bandwidthBps=1e7`. */
export function sliceOf(plan: SweepPlan, point: readonly AxisValue[]): string {
  return plan.axes
    .map((a, i) => (a.name === 'loss' || a.name === 'rttS' ? '' : `${a.name}=${String(point[i])}`))
    .filter((s) => s !== '')
    .join(', ');
}

export function reportRows(plan: SweepPlan, points: readonly PointStats[]): ReportRow[] {
  const li = axisIndex(plan, 'loss');
  const ri = axisIndex(plan, 'rttS');
  const capacity = new Map<string, number>();
  return points.map((p) => {
    let cap = capacity.get(p.pointId);
    if (cap === undefined) {
      cap = fairSharePayloadBps(scenarioAt(plan.base, plan.axes, p.point));
      capacity.set(p.pointId, cap);
    }
    return {
      pointId: p.pointId,
      slice: sliceOf(plan, p.point),
      loss: li >= 0 ? (p.point[li] as number) : null,
      rttS: ri >= 0 ? (p.point[ri] as number) : null,
      variant: p.variant,
      engine: p.engine,
      goodputBps: p.goodputBps.mean,
      ci95Low: num(p.goodputBps.ci95Low),
      ci95High: num(p.goodputBps.ci95High),
      cwndSegments: p.meanCwndSegments.mean,
      n: p.goodputBps.n,
      failed: p.failed,
      capacityBps: cap,
      timeouts: p.timeouts,
      fastRecoveries: p.fastRecoveries,
      validity: [],
    };
  }).map((r) => ({ ...r, validity: cellValidity(r) }));
}

/** Closed-form predictions at every grid point for every variant they apply to. */
export function theoryRows(plan: SweepPlan, pointsOf: readonly { pointId: string; point: AxisValue[] }[], forms: ClosedFormsFn): TheoryRow[] {
  const li = axisIndex(plan, 'loss');
  const ri = axisIndex(plan, 'rttS');
  const seen = new Set<string>();
  const out: TheoryRow[] = [];
  for (const { pointId, point } of pointsOf) {
    if (seen.has(pointId)) continue;
    seen.add(pointId);
    const at = scenarioAt(plan.base, plan.axes, point);
    for (const variant of plan.variants) {
      const s: Scenario = { ...at, variant };
      for (const f of forms(s)) {
        if (!f.appliesTo.includes(variant) || f.goodputBps === null || !(f.goodputBps > 0)) continue;
        out.push({
          slice: sliceOf(plan, point), loss: li >= 0 ? (point[li] as number) : null, rttS: ri >= 0 ? (point[ri] as number) : null,
          variant, formula: f.formula, title: f.title, goodputBps: f.goodputBps, regime: f.validity.regime, note: f.note,
        });
      }
    }
  }
  return out;
}

/** A fitted elasticity across slices of a grid: one log-log fit per line of the grid, then their median. */
export interface ElasticitySummary {
  variant: Variant;
  engine: Engine;
  slice: string;
  wrt: 'loss' | 'rtt';
  /** Median slope over the lines fitted. */
  median: number | null;
  min: number | null;
  max: number | null;
  /** Lines (fixed other coordinate) with at least 3 loss-limited points. */
  lines: number;
  theory: number;
  theorySource: string;
}

/** Points closer than this to the capacity are link-limited, not loss-limited, and excluded from fits. */
export const LOSS_LIMITED_FRACTION = 0.8;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Elasticities d ln G / d ln p (along each RTT line of the grid) and d ln G / d ln RTT (along each
 * loss line), fitted by least squares on logs (simple-statistics linearRegression) over the
 * loss-limited points only (G < 0.8 x capacity): where the link is the limit, goodput does not
 * depend on p or RTT and the fit would not measure the congestion control.
 */
export function elasticities(rows: readonly ReportRow[], theory: readonly TheoryRow[] = []): ElasticitySummary[] {
  const out: ElasticitySummary[] = [];
  // CUBIC's -3/4 and -1/4 hold in its cubic region only; where the closed form says the
  // Reno-friendly (AIMD) window governs, CUBIC behaves like Reno and those points are left out.
  const renoFriendly = new Set(
    theory.filter((t) => t.variant === 'cubic' && /reno-friendly/i.test(t.note)).map((t) => `${t.slice}\0${t.loss}\0${t.rttS}`),
  );
  const groups = new Map<string, ReportRow[]>();
  for (const r of rows) {
    const k = `${r.variant}\0${r.engine}\0${r.slice}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  for (const g of groups.values()) {
    const { variant, engine, slice } = g[0]!;
    const usable = g.filter(
      (r) => r.goodputBps > 0 && r.goodputBps < LOSS_LIMITED_FRACTION * r.capacityBps
        && !(r.variant === 'cubic' && renoFriendly.has(`${r.slice}\0${r.loss}\0${r.rttS}`)),
    );
    for (const wrt of ['loss', 'rtt'] as const) {
      if (g.every((r) => (wrt === 'loss' ? r.loss : r.rttS) === null)) continue;
      // One line per value of the other axis (a single line when that axis is not swept).
      const lines = new Map<number | null, ReportRow[]>();
      for (const r of usable) {
        const fixed = wrt === 'loss' ? r.rttS : r.loss;
        lines.set(fixed, [...(lines.get(fixed) ?? []), r]);
      }
      const slopes: number[] = [];
      for (const line of lines.values()) {
        if (line.length < 3) continue;
        const fit = elasticity(line.map((r) => (wrt === 'loss' ? r.loss! : r.rttS!)), line.map((r) => r.goodputBps));
        if (fit) slopes.push(fit.slope);
      }
      const th = THEORY_ELASTICITY[variant];
      out.push({
        variant, engine, slice, wrt,
        median: slopes.length ? median(slopes) : null,
        min: slopes.length ? Math.min(...slopes) : null,
        max: slopes.length ? Math.max(...slopes) : null,
        lines: slopes.length,
        theory: wrt === 'loss' ? th.loss : th.rtt,
        theorySource: th.source,
      });
    }
  }
  return out;
}

export interface WinnerRow {
  slice: string;
  loss: number;
  rttS: number;
  engine: Engine;
  winner: Variant;
  goodputBps: number;
  /** (best - runner-up) / runner-up; null with one variant. */
  margin: number | null;
  /** True when the best variant's 95% CI overlaps the runner-up's (not a clear win). */
  overlap: boolean;
}

/** The variant with the highest mean goodput at each grid point, per engine. */
export function winners(rows: readonly ReportRow[]): WinnerRow[] {
  const groups = new Map<string, ReportRow[]>();
  for (const r of rows) {
    if (r.loss === null || r.rttS === null || !Number.isFinite(r.goodputBps)) continue;
    const k = `${r.pointId}\0${r.engine}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.values()].map((g) => {
    const s = [...g].sort((a, b) => b.goodputBps - a.goodputBps);
    const [best, second] = [s[0]!, s[1]];
    const overlap = !!second && best.ci95Low !== null && second.ci95High !== null && best.ci95Low <= second.ci95High;
    return {
      slice: best.slice, loss: best.loss!, rttS: best.rttS!, engine: best.engine, winner: best.variant, goodputBps: best.goodputBps,
      margin: second && second.goodputBps > 0 ? (best.goodputBps - second.goodputBps) / second.goodputBps : null,
      overlap,
    };
  });
}
