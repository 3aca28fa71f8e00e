import { median, quantileSorted } from 'simple-statistics';
import { VALIDITY } from '../compare/validity.js';
import { pathPayloadCapacityBps } from '../scenario/path.js';
import type { RunRecord } from '../sweep/execute.js';
import { closedForms, type ClosedFormPrediction } from '../theory/closedForms.js';
import { VARIANT_FACTS, type Variant } from '../variants.js';
import type { ValidatePoint } from './grid.js';

/**
 * The agreement table of `cclab validate`: at each grid point the packet engine's median over seeds
 * (the witness), the fluid model's value and the closed form's, their relative errors, and whether
 * the point lies inside each model's validity region (decided from what the packet runs did and
 * from the closed form's own validity, never from the size of the error).
 */

export type ModelKind = 'fluid' | 'closed-form';

export interface PointRow {
  pointId: string;
  variant: Variant;
  loss: number;
  rttS: number;
  durationS: number;
  measureFromS: number;
  seeds: number;
  /** Packet runs that failed (excluded from the medians). */
  packetFailed: number;
  packetGoodputBps: number;
  packetCwndSegments: number;
  /** Median over seeds of the packet runs' loss reactions (fast recoveries + timeouts), whole run. */
  packetLossEvents: number;
  packetTimeouts: number;
  fluidStatus: 'ok' | 'failed' | 'missing';
  fluidGoodputBps: number;
  fluidCwndSegments: number;
  fluidGoodputErr: number | null;
  fluidCwndErr: number | null;
  fluidInside: boolean;
  /** Why the point is outside the fluid model's validity region ('' when inside); warnings follow a '~'. */
  fluidReasons: string;
  closedForm: string;
  closedGoodputBps: number | null;
  closedCwndSegments: number | null;
  closedGoodputErr: number | null;
  closedCwndErr: number | null;
  closedInside: boolean;
  closedReasons: string;
  /** Packet and fluid CPU seconds of the point's runs (as measured when they ran, cached or not). */
  packetWallS: number;
  fluidWallS: number;
}

export interface VariantSummary {
  variant: Variant;
  model: ModelKind;
  points: number;
  inside: number;
  insideShare: number;
  medianAbsGoodputErr: number | null;
  p90AbsGoodputErr: number | null;
  medianAbsCwndErr: number | null;
  p90AbsCwndErr: number | null;
}

const relErr = (model: number, ref: number): number | null =>
  Number.isFinite(model) && Number.isFinite(ref) && ref !== 0 ? (model - ref) / ref : null;

/** The closed form a point is compared with: the variant's most complete one (src/variants.ts). */
export function primaryClosedForm(variant: Variant, forms: readonly ClosedFormPrediction[]): ClosedFormPrediction | null {
  return forms.find((c) => c.formula === VARIANT_FACTS[variant].closedForms[0]) ?? null;
}

/**
 * Why a point is outside the fluid model's validity region, from the packet runs' medians: the
 * thresholds of src/compare/validity.ts (few packets per RTT) plus a run too short for
 * `minLossEvents` loss events after the first slow start, or a failed run. Link-limited points and
 * timeouts stay inside (the models have the queue, and timeouts with their RTO idle time).
 */
function fluidReasons(p: ValidatePoint, row: Omit<PointRow, 'fluidInside' | 'fluidReasons' | 'closedInside' | 'closedReasons'>, minLossEvents: number): string[] {
  const out: string[] = [];
  if (row.fluidStatus !== 'ok') out.push(`fluid run ${row.fluidStatus}`);
  if (row.packetFailed === row.seeds) out.push('every packet run failed');
  if (row.packetCwndSegments < VALIDITY.minPacketsPerRtt) out.push(`${row.packetCwndSegments.toFixed(1)} packets per RTT (< ${VALIDITY.minPacketsPerRtt})`);
  if (row.packetLossEvents < minLossEvents + 1) out.push(`${row.packetLossEvents} loss events in the run (< ${minLossEvents} after the first slow start)`);
  return out;
}

/** One row per grid point from the finished runs (records in any order). */
export function pointRows(points: readonly ValidatePoint[], records: readonly RunRecord[], minLossEvents: number): PointRow[] {
  const byPoint = new Map<string, RunRecord[]>();
  for (const r of records) byPoint.set(r.spec.pointId, [...(byPoint.get(r.spec.pointId) ?? []), r]);
  return points.map((p) => {
    const rs = byPoint.get(p.pointId) ?? [];
    const packets = rs.filter((r) => r.spec.engine === 'packet');
    const ok = packets.filter((r) => r.result.status === 'ok').map((r) => r.result.summary);
    const fluid = rs.find((r) => r.spec.engine === 'fluid');
    const med = (f: (x: (typeof ok)[number]) => number): number => (ok.length > 0 ? median(ok.map(f)) : NaN);
    const packetGoodputBps = med((x) => x.goodputBps);
    const packetCwndSegments = med((x) => x.meanCwndSegments);
    const fluidOk = fluid?.result.status === 'ok';
    const fluidGoodputBps = fluidOk ? fluid!.result.summary.goodputBps : NaN;
    const fluidCwndSegments = fluidOk ? fluid!.result.summary.meanCwndSegments : NaN;
    const cf = primaryClosedForm(p.variant, closedForms(p.scenario));
    const base = {
      pointId: p.pointId, variant: p.variant, loss: p.loss, rttS: p.rttS, durationS: p.scenario.durationS, measureFromS: p.scenario.measureFromS,
      seeds: packets.length, packetFailed: packets.length - ok.length,
      packetGoodputBps, packetCwndSegments,
      packetLossEvents: med((x) => x.fastRecoveries + x.timeouts), packetTimeouts: med((x) => x.timeouts),
      fluidStatus: fluid === undefined ? ('missing' as const) : fluid.result.status,
      fluidGoodputBps, fluidCwndSegments,
      fluidGoodputErr: relErr(fluidGoodputBps, packetGoodputBps), fluidCwndErr: relErr(fluidCwndSegments, packetCwndSegments),
      closedForm: cf?.formula ?? '',
      closedGoodputBps: cf?.goodputBps ?? null, closedCwndSegments: cf?.cwndSegments ?? null,
      closedGoodputErr: cf?.goodputBps == null ? null : relErr(cf.goodputBps, packetGoodputBps),
      closedCwndErr: cf?.cwndSegments == null ? null : relErr(cf.cwndSegments, packetCwndSegments),
      packetWallS: packets.reduce((a, r) => a + r.result.wallS, 0),
      fluidWallS: fluid?.result.wallS ?? 0,
    };
    const fr = fluidReasons(p, base, minLossEvents);
    const warn: string[] = [];
    if (Number.isFinite(packetGoodputBps) && packetGoodputBps >= VALIDITY.bandwidthShare * pathPayloadCapacityBps(p.scenario)) warn.push('link-limited');
    const cr = [...(cf ? cf.validity.reasons : ['no closed form applies']), ...fr.filter((r) => /loss events|failed/.test(r))];
    return {
      ...base,
      fluidInside: fr.length === 0,
      fluidReasons: [...fr, ...warn.map((w) => `~${w}`)].join('; '),
      closedInside: cr.length === 0,
      closedReasons: cr.join('; '),
    };
  });
}

/** Per variant and model: share of the grid inside the validity region, median and 90th percentile |error| inside it. */
export function summarise(rows: readonly PointRow[]): VariantSummary[] {
  const out: VariantSummary[] = [];
  const variants = [...new Set(rows.map((r) => r.variant))];
  for (const variant of variants) {
    const rs = rows.filter((r) => r.variant === variant);
    for (const model of ['fluid', 'closed-form'] as const) {
      const inside = rs.filter((r) => (model === 'fluid' ? r.fluidInside : r.closedInside));
      const errs = (f: (r: PointRow) => number | null): number[] =>
        inside.map(f).filter((x): x is number => x !== null && Number.isFinite(x)).map(Math.abs).sort((a, b) => a - b);
      const g = errs((r) => (model === 'fluid' ? r.fluidGoodputErr : r.closedGoodputErr));
      const c = errs((r) => (model === 'fluid' ? r.fluidCwndErr : r.closedCwndErr));
      const q = (xs: number[], p: number): number | null => (xs.length > 0 ? quantileSorted(xs, p) : null);
      out.push({
        variant, model, points: rs.length, inside: inside.length, insideShare: rs.length > 0 ? inside.length / rs.length : 0,
        medianAbsGoodputErr: q(g, 0.5), p90AbsGoodputErr: q(g, 0.9), medianAbsCwndErr: q(c, 0.5), p90AbsCwndErr: q(c, 0.9),
      });
    }
  }
  return out;
}
