import { medianInterval, type MedianInterval } from './stats.js';

/**
 * The one way cclab says whether a fluid model agrees with the packet engine, shared by `report`,
 * `compare` and `validate`: the packet engine runs on several seeds; a model with discrete loss
 * events (a hybrid model that draws its loss thresholds: Tahoe, CUBIC) runs once per packet seed
 * with Poisson loss events seeded by it, a deterministic model once; both sides are summarised the
 * same way (median and the distribution-free 95% interval of the median, runs/stats.ts), and the
 * model's median is compared with the packet median. Where the packet runs split into two modes
 * ({@link packetModes}) one error against a median between them says little: the verdict then also
 * accepts a model inside the packet runs' 95% interval, and names the mode it predicts, if any.
 */

/** A model within this share of the packet median agrees with it. */
export const AGREEMENT_TOLERANCE = 0.1;

/**
 * Bimodality test (deterministic, on the sorted run goodputs): the split of the runs into a lower
 * and an upper group that minimises the within-group sum of squares (the 1-D two-means optimum,
 * Otsu's criterion; ties to the lower split), each group of at least `minModeRuns` runs; bimodal when
 * the empty stretch between the groups is wider than either group (gap > max(width_lo, width_hi):
 * two clumps further apart than each is wide; a uniform or bell-shaped sample of 10 has gaps of a
 * ninth of its range or less) and their medians differ by more than `minModeSeparation` of the
 * overall median (twice the agreement tolerance: closer modes are one answer at the precision the
 * verdict asks for). A separation statistic such as Ashman's D is no test after a two-means split:
 * evenly spaced runs split in halves already give D = sqrt(12) = 3.5.
 */
export const BIMODAL = { minRuns: 6, minModeRuns: 2, minModeSeparation: 2 * AGREEMENT_TOLERANCE } as const;

export interface Mode {
  runs: number;
  median: number;
  minBps: number;
  maxBps: number;
}

export interface Modes {
  lower: Mode;
  upper: Mode;
  /** The empty stretch between the groups, over the wider group's width (> 1 when bimodal; Infinity when both groups are points). */
  gapRatio: number;
}

/** Population variance of a group (0 for one value). */
function variance(xs: readonly number[]): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length;
}

function modeOf(sorted: readonly number[]): Mode {
  return { runs: sorted.length, median: medianInterval(sorted).median, minBps: sorted[0]!, maxBps: sorted.at(-1)! };
}

/** The two modes of a set of run goodputs, or null when they are not bimodal ({@link BIMODAL}). */
export function packetModes(values: readonly number[]): Modes | null {
  const x = values.filter(Number.isFinite).sort((a, b) => a - b);
  const n = x.length;
  if (n < BIMODAL.minRuns) return null;
  let best = -1;
  let bestSs = Infinity;
  for (let k = BIMODAL.minModeRuns; k <= n - BIMODAL.minModeRuns; k++) {
    const ss = k * variance(x.slice(0, k)) + (n - k) * variance(x.slice(k));
    if (best < 0 || ss < bestSs - 1e-9 * bestSs) {
      bestSs = ss;
      best = k;
    }
  }
  if (best < 0) return null;
  const lo = x.slice(0, best);
  const hi = x.slice(best);
  const lower = modeOf(lo);
  const upper = modeOf(hi);
  const width = Math.max(lower.maxBps - lower.minBps, upper.maxBps - upper.minBps);
  const gap = upper.minBps - lower.maxBps;
  const gapRatio = width > 0 ? gap / width : gap > 0 ? Infinity : 0;
  const overall = medianInterval(x).median;
  if (!(gapRatio > 1) || !(upper.median - lower.median > BIMODAL.minModeSeparation * overall)) return null;
  return { lower, upper, gapRatio };
}

/** Which criterion made the model agree (null: it does not). */
export type AgreementCriterion = 'within-tolerance' | 'inside-bimodal-interval' | null;

export interface ModelAgreement {
  packet: MedianInterval;
  /** The model's runs: one (deterministic model), or one per packet seed (hybrid model, Poisson loss events). */
  fluid: MedianInterval;
  /** (fluid median - packet median) / packet median; null without both. */
  error: number | null;
  /** The packet runs' two modes, when bimodal. */
  modes: Modes | null;
  /** The mode the model's median falls in (within the tolerance of its median, or inside its range), when bimodal. */
  predictsMode: 'lower' | 'upper' | null;
  criterion: AgreementCriterion;
  agrees: boolean;
}

const near = (x: number, m: Mode) => Math.abs(x - m.median) <= AGREEMENT_TOLERANCE * m.median || (x >= m.minBps && x <= m.maxBps);

/** The verdict of a model's runs against the packet runs (goodputs or any positive figure; non-finite values left out). */
export function modelAgreement(packetValues: readonly number[], modelValues: readonly number[]): ModelAgreement {
  const packet = medianInterval(packetValues.filter(Number.isFinite));
  const fluid = medianInterval(modelValues.filter(Number.isFinite));
  const error = fluid.n > 0 && packet.n > 0 && packet.median !== 0 && Number.isFinite(packet.median) ? (fluid.median - packet.median) / packet.median : null;
  const modes = packetModes(packetValues);
  const predictsMode = modes && fluid.n > 0 ? (near(fluid.median, modes.lower) ? 'lower' : near(fluid.median, modes.upper) ? 'upper' : null) : null;
  let criterion: AgreementCriterion = null;
  // The tolerance is inclusive (a hair of slack for 110 / 100 - 1 = 0.10000000000000009).
  if (error !== null && Math.abs(error) <= AGREEMENT_TOLERANCE + 1e-12) criterion = 'within-tolerance';
  else if (error !== null && modes && fluid.median >= packet.low && fluid.median <= packet.high) criterion = 'inside-bimodal-interval';
  return { packet, fluid, error, modes, predictsMode, criterion, agrees: criterion !== null };
}

/** What a verdict says, in words: "within 10% of the packet median", "inside the bimodal runs' 95% interval (predicts the upper mode)". */
export function criterionText(a: ModelAgreement): string {
  const mode = a.predictsMode ? `, predicts the ${a.predictsMode} mode` : a.modes ? ', predicts neither mode' : '';
  if (a.criterion === 'within-tolerance') return `within ${100 * AGREEMENT_TOLERANCE}% of the packet median${mode}`;
  if (a.criterion === 'inside-bimodal-interval') return `inside the bimodal packet runs' 95% interval${mode}`;
  return `disagrees${mode}`;
}
