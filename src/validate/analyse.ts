import { median, quantileSorted } from 'simple-statistics';
import { modelAgreement } from '../runs/agreement.js';
import { VALIDITY } from '../compare/validity.js';
import { rngStream } from '../engine/rng.js';
import { pathPayloadCapacityBps } from '../scenario/path.js';
import type { RunRecord } from '../runs/execute.js';
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
  /** The packet runs' goodputs, one per seed that ran (the median's sample; not in points.csv). */
  packetGoodputsBps: number[];
  /** Whether those goodputs split into two modes (runs/agreement.ts: packetModes; not in points.csv). */
  packetBimodal: boolean;
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
  /**
   * How far the two goodput figures move with the packet seeds: their 5th and 95th percentiles when
   * each point's seeds are drawn again with replacement ({@link SEED_RESAMPLES} times; null without
   * points). Wide where the packet runs of a point disagree (a bimodal run-away, say).
   */
  medianAbsGoodputErrRange: [number, number] | null;
  p90AbsGoodputErrRange: [number, number] | null;
}

/** Resamples of the packet seeds behind the ranges of {@link VariantSummary}. */
export const SEED_RESAMPLES = 400;

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
  // A rate-based variant's control does not act on loss events (BBR): its runs last ProbeRTT cycles instead (runLength).
  const rate = VARIANT_FACTS[p.variant].control === 'rate';
  if (!rate && row.packetLossEvents < minLossEvents + 1) out.push(`${row.packetLossEvents} loss events in the run (< ${minLossEvents} after the first slow start)`);
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
    // One fluid run (deterministic models) or one per packet seed (hybrid models with Poisson loss
    // events): their median, and 'failed' if any failed (a model that fails on some seeds is not trusted).
    const fluids = rs.filter((r) => r.spec.engine === 'fluid');
    const med = (f: (x: (typeof ok)[number]) => number): number => (ok.length > 0 ? median(ok.map(f)) : NaN);
    const fluidOk = fluids.length > 0 && fluids.every((r) => r.result.status === 'ok');
    // The comparison every command shares (runs/agreement.ts): medians of both sides' runs.
    const goodput = modelAgreement(ok.map((x) => x.goodputBps), fluidOk ? fluids.map((r) => r.result.summary.goodputBps) : []);
    const cwnd = modelAgreement(ok.map((x) => x.meanCwndSegments), fluidOk ? fluids.map((r) => r.result.summary.meanCwndSegments) : []);
    const packetGoodputBps = goodput.packet.median;
    const packetCwndSegments = cwnd.packet.median;
    const fluidGoodputBps = goodput.fluid.median;
    const fluidCwndSegments = cwnd.fluid.median;
    const cf = primaryClosedForm(p.variant, closedForms(p.scenario));
    const base = {
      pointId: p.pointId, variant: p.variant, loss: p.loss, rttS: p.rttS, durationS: p.scenario.durationS, measureFromS: p.scenario.measureFromS,
      seeds: packets.length, packetFailed: packets.length - ok.length,
      packetGoodputBps, packetCwndSegments, packetGoodputsBps: ok.map((x) => x.goodputBps),
      packetLossEvents: med((x) => x.fastRecoveries + x.timeouts), packetTimeouts: med((x) => x.timeouts),
      fluidStatus: fluids.length === 0 ? ('missing' as const) : fluidOk ? ('ok' as const) : ('failed' as const),
      fluidGoodputBps, fluidCwndSegments,
      fluidGoodputErr: goodput.error, fluidCwndErr: cwnd.error, packetBimodal: goodput.modes !== null,
      closedForm: cf?.formula ?? '',
      closedGoodputBps: cf?.goodputBps ?? null, closedCwndSegments: cf?.cwndSegments ?? null,
      closedGoodputErr: cf?.goodputBps == null ? null : relErr(cf.goodputBps, packetGoodputBps),
      closedCwndErr: cf?.cwndSegments == null ? null : relErr(cf.cwndSegments, packetCwndSegments),
      packetWallS: packets.reduce((a, r) => a + r.result.wallS, 0),
      fluidWallS: fluids.reduce((a, r) => a + r.result.wallS, 0),
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
export function summarise(rows: readonly PointRow[], resamples = SEED_RESAMPLES): VariantSummary[] {
  const out: VariantSummary[] = [];
  const variants = [...new Set(rows.map((r) => r.variant))];
  const q = (xs: number[], p: number): number | null => (xs.length > 0 ? quantileSorted(xs, p) : null);
  const absSorted = (xs: (number | null)[]): number[] => xs.filter((x): x is number => x !== null && Number.isFinite(x)).map(Math.abs).sort((a, b) => a - b);
  for (const variant of variants) {
    const rs = rows.filter((r) => r.variant === variant);
    for (const model of ['fluid', 'closed-form'] as const) {
      const inside = rs.filter((r) => (model === 'fluid' ? r.fluidInside : r.closedInside));
      const g = absSorted(inside.map((r) => (model === 'fluid' ? r.fluidGoodputErr : r.closedGoodputErr)));
      const c = absSorted(inside.map((r) => (model === 'fluid' ? r.fluidCwndErr : r.closedCwndErr)));
      const ranges = seedRanges(inside, (r) => (model === 'fluid' ? r.fluidGoodputBps : r.closedGoodputBps), resamples, `${variant}:${model}`);
      out.push({
        variant, model, points: rs.length, inside: inside.length, insideShare: rs.length > 0 ? inside.length / rs.length : 0,
        medianAbsGoodputErr: q(g, 0.5), p90AbsGoodputErr: q(g, 0.9), medianAbsCwndErr: q(c, 0.5), p90AbsCwndErr: q(c, 0.9),
        medianAbsGoodputErrRange: ranges?.median ?? null, p90AbsGoodputErrRange: ranges?.p90 ?? null,
      });
    }
  }
  return out;
}

/**
 * The bootstrap over packet seeds: each point's seeds drawn again with replacement, its median and
 * the model's |error| against it recomputed, then the median and 90th percentile over the points;
 * the 5th-95th percentiles of those over the resamples. Seeded, so the table is reproducible.
 */
function seedRanges(
  inside: readonly PointRow[],
  model: (r: PointRow) => number | null,
  resamples: number,
  stream: string,
): { median: [number, number]; p90: [number, number] } | null {
  const pts = inside
    .map((r) => ({ model: model(r), seeds: r.packetGoodputsBps }))
    .filter((x): x is { model: number; seeds: number[] } => x.model !== null && Number.isFinite(x.model) && x.seeds.length > 0);
  if (pts.length === 0 || resamples <= 0) return null;
  const uniform = rngStream(1, `validate-seed-ranges:${stream}`);
  const medians: number[] = [];
  const p90s: number[] = [];
  const draw: number[] = [];
  for (let k = 0; k < resamples; k++) {
    const errs = pts.map((pt) => {
      draw.length = 0;
      for (let i = 0; i < pt.seeds.length; i++) draw.push(pt.seeds[Math.floor(uniform() * pt.seeds.length)]!);
      const ref = median(draw);
      return ref !== 0 ? Math.abs((pt.model - ref) / ref) : NaN;
    }).filter(Number.isFinite).sort((a, b) => a - b);
    if (errs.length === 0) continue;
    medians.push(quantileSorted(errs, 0.5));
    p90s.push(quantileSorted(errs, 0.9));
  }
  if (medians.length === 0) return null;
  medians.sort((a, b) => a - b);
  p90s.sort((a, b) => a - b);
  const band = (xs: number[]): [number, number] => [quantileSorted(xs, 0.05), quantileSorted(xs, 0.95)];
  return { median: band(medians), p90: band(p90s) };
}
