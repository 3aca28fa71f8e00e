import { validateCcParams } from '../cc/registry.js';
import { flowCc } from '../scenario/flowCc.js';
import { flowPath, packetBits, payloadFraction, sharedQueue } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import { countsSegments, VARIANT_FACTS, VARIANTS, type ClosedFormId, type Variant } from '../variants.js';
import { bbrClosedForms } from './bbrClosedForms.js';
import {
  cubicAvgWindow,
  cubicResponseWindow,
  mathisWindow,
  pftkApprox,
  pftkFull,
  pftkTimeoutProbability,
  pftkTimeoutTimeShare,
  tahoeWindow,
  westwoodEquilibrium,
} from './formulas.js';

export * from './formulas.js';

export type { ClosedFormId };

/** What sets a closed form's rate in a scenario. Only 'loss-limited' is the formulas' own regime. */
export type ClosedFormRegime = 'loss-limited' | 'link-limited' | 'rwnd-limited' | 'no-loss';

/**
 * Where a closed form may be trusted, with the reasons when not (as the fluid models' flags): the
 * formulas assume a loss-limited bulk flow with many packets per RTT whose losses are repaired by
 * fast recovery (except PFTK, which models timeouts and the receive window).
 */
export interface ClosedFormValidity {
  regime: ClosedFormRegime;
  valid: boolean;
  /** One sentence per failed assumption, with the value and the threshold. */
  reasons: string[];
  /** The formula's mean window before any cap (segments; null without loss). */
  rawCwndSegments: number | null;
  /** Packets per RTT of the (capped) prediction. */
  packetsPerRtt: number | null;
  /** Probability that a loss indication is a timeout at the predicted window: p with SACK (a lost retransmission), PFTK's Q-hat without. */
  timeoutProbability: number | null;
  /** Share of time in timeouts by PFTK's full model with that probability, at the predicted window. */
  timeoutTimeShare: number | null;
}

/** One closed-form prediction for a Scenario. */
export interface ClosedFormPrediction {
  formula: ClosedFormId;
  title: string;
  appliesTo: readonly Variant[];
  /** Predicted mean window, segments, capped by the receive window and by what the path holds (null without an answer). */
  cwndSegments: number | null;
  /** Predicted goodput, bit/s of payload: rate x (1 - p) x MSS x 8, the rate capped at the flow's fair share of the tightest link. */
  goodputBps: number | null;
  note: string;
  validity: ClosedFormValidity;
  /** The BBR closed forms' own figures (src/theory/bbrClosedForms.ts); absent for the loss-rate formulas. */
  bbr?: BbrClosedFormFigures;
}

/** What a BBR closed form predicts beyond a window and a goodput. */
export interface BbrClosedFormFigures {
  /** The BBR flows' aggregate share of the link against loss-based flows (Ware et al.); null for the steady state. */
  share: number | null;
  /** Mean standing queue at the bottleneck, packets, and its delay, s. */
  meanQueuePackets: number;
  meanQueueDelayS: number;
  /** Share of packets the bottleneck drops (null where the form has no loss figure). */
  lossRate: number | null;
  bbrFlows: number;
  /** The form's operating regime in words: pacing-limited, buffer-overflow, cwnd-limited, cap-limited, whole link. */
  regime: string;
}

/** Thresholds of the closed forms' validity (as src/compare/validity.ts's for the fluid models). */
export const CLOSED_FORM_VALIDITY = {
  /** Below this mean window, three duplicate ACKs rarely arrive and a window is not a fluid. */
  minPacketsPerRtt: 4,
  /** Formulas without a timeout term over-predict once timeouts take more than this share of the time. */
  maxTimeoutTimeShare: 0.1,
  /** Losses per window above which a flow recovers every round: no cycle for the formulas to average. */
  maxLossesPerWindow: 1,
  /** A rate within this factor of the cap counts as capped (numerical slack). */
  capSlack: 1e-9,
} as const;

/**
 * Segments per ACK that slow the additive increase of `variant` as the packet engine implements it:
 * Reno (and CUBIC) count acknowledged segments (Linux tcp_cong_avoid_ai), so delayed ACKs do not slow
 * them (b = 1); NewReno, Tahoe and Westwood+ (ns-3 default) grow per ACK (RFC 5681 eq. 3): b = delAckCount.
 */
export function effectiveB(s: Scenario, flow = 0): number {
  const { variant, ccParams } = flowCc(s, flow);
  return countsSegments(variant, ccParams) ? 1 : s.tcp.delAckCount;
}

/**
 * The retransmission timeout a loss-free path settles to (RFC 6298 (2.3)-(2.4)): SRTT + max(G, 4 RTTVAR)
 * with RTTVAR near 0 on a steady path, at least minRto. PFTK's T0.
 */
export function steadyRtoS(s: Scenario, rttS: number): number {
  return Math.min(s.tcp.maxRtoS, Math.max(s.tcp.minRtoS, rttS + s.tcp.clockGranularityS));
}

interface FormulaOutcome {
  /** Mean window, segments (null: no answer). */
  windowSeg: number | null;
  /** RTT the window is sent over (base RTT unless the formula has its own queueing delay). */
  rttS: number;
  note: string;
  /** True when the formula itself models timeouts and the receive window (PFTK). */
  modelsTimeouts: boolean;
  /** True when the formula itself includes the link (Westwood+'s equilibrium fills it with a standing queue). */
  modelsLink?: boolean;
}

/** What every formula of one scenario reads: flow 0's path, the loss rate and the caps (see {@link closedForms}). */
interface FormulaContext {
  s: Scenario;
  /** Random loss rate of the bottleneck. */
  p: number;
  /** Base RTT, s. */
  R: number;
  b: number;
  /** PFTK's T0, s. */
  T0: number;
  /** Receive window, segments. */
  wmax: number;
  /** Flow 0's max-min fair share of the tightest link, packets/s. */
  shareRate: number;
  /** The tightest queue's packets per flow. */
  queuePerFlow: number;
  /** What the path holds in flight for this flow, segments (with the cap slack). */
  holdSeg: number;
  /** The figures every note opens with. */
  common: string;
}

function formulaContext(s: Scenario): FormulaContext {
  const path = flowPath(s, 0);
  const p = s.bottleneck.loss.rate;
  const R = path.baseRttS;
  const b = effectiveB(s);
  const n = s.flows.length;
  const shareRate = path.fairShareBps / packetBits(s);
  // What the path holds in flight for this flow: its share of the link over the base RTT and of the tightest queue.
  const q = sharedQueue(s);
  const holdSeg = (shareRate * R + q.queuePackets / n) * (1 + CLOSED_FORM_VALIDITY.capSlack);
  return {
    s, p, R, b, T0: steadyRtoS(s, R), wmax: s.tcp.rcvBufBytes / s.mssBytes, shareRate,
    queuePerFlow: q.queuePackets / n, holdSeg, common: `p = ${p}, RTT = ${R.toFixed(4)} s, b = ${b}`,
  };
}

const NO_LOSS_NOTE = 'no random loss (p = 0): the formula needs a loss rate';

/** A formula's window capped by the receive window, by what the path holds and by the fair share; the regime that set it. */
function capOutcome(ctx: FormulaContext, f: FormulaOutcome & { windowSeg: number }): { w: number; rate: number; regime: ClosedFormRegime; reasons: string[] } {
  const { wmax, holdSeg, shareRate } = ctx;
  const reasons: string[] = [];
  let regime: ClosedFormRegime = 'loss-limited';
  let w = f.windowSeg;
  if (w > wmax) {
    w = wmax;
    regime = 'rwnd-limited';
    if (!f.modelsTimeouts) reasons.push(`receive-window limited: the formula's ${f.windowSeg.toFixed(0)} segments exceed the receive window of ${Math.floor(wmax)}`);
  }
  if (w > holdSeg) {
    w = holdSeg;
    regime = 'link-limited';
  }
  let rate = w / f.rttS;
  if (rate > shareRate * (1 + CLOSED_FORM_VALIDITY.capSlack)) {
    rate = shareRate;
    regime = 'link-limited';
  }
  if (regime === 'link-limited' && !f.modelsLink) {
    reasons.push(`link-limited: the formula's ${(f.windowSeg / f.rttS).toFixed(0)} packets/s exceed the flow's share of the tightest link (${shareRate.toFixed(0)} packets/s), so the link, not loss, sets the rate`);
  }
  return { w, rate, regime, reasons };
}

/** The assumptions a formula without a timeout term makes at window `w`, one reason per failed one. */
function assumptionReasons(ctx: FormulaContext, w: number, timeoutTimeShare: number): string[] {
  const { s, p } = ctx;
  const reasons: string[] = [];
  if (w < CLOSED_FORM_VALIDITY.minPacketsPerRtt) {
    reasons.push(`only ${w.toFixed(1)} packets per RTT (< ${CLOSED_FORM_VALIDITY.minPacketsPerRtt}): too few for three duplicate ACKs`);
  }
  if (w * p > CLOSED_FORM_VALIDITY.maxLossesPerWindow) {
    reasons.push(`${(w * p).toFixed(1)} losses per window on average (> ${CLOSED_FORM_VALIDITY.maxLossesPerWindow}): a recovery every round, which the formula's cycle between losses does not have`);
  }
  if (timeoutTimeShare > CLOSED_FORM_VALIDITY.maxTimeoutTimeShare) {
    reasons.push(`timeouts take ${(100 * timeoutTimeShare).toFixed(0)}% of the time (PFTK's time budget, ${s.tcp.sack ? 'a timeout per lost retransmission with SACK' : 'Reno\'s timeout probability'}; > ${100 * CLOSED_FORM_VALIDITY.maxTimeoutTimeShare}%), which the formula leaves out`);
  }
  return reasons;
}

/** One formula's outcome as a prediction: capped, its goodput, its validity. */
function predict(ctx: FormulaContext, formula: ClosedFormId, title: string, appliesTo: readonly Variant[], f: FormulaOutcome): ClosedFormPrediction {
  const { s, p, R, b, T0 } = ctx;
  if (f.windowSeg === null || !(p > 0)) {
    return {
      formula, title, appliesTo, cwndSegments: null, goodputBps: null, note: NO_LOSS_NOTE,
      validity: { regime: 'no-loss', valid: false, reasons: [NO_LOSS_NOTE], rawCwndSegments: null, packetsPerRtt: null, timeoutProbability: null, timeoutTimeShare: null },
    };
  }
  const { w, rate, regime, reasons } = capOutcome(ctx, { ...f, windowSeg: f.windowSeg });
  // With SACK a loss ends in a timeout only when its retransmission is lost too (p); without it,
  // PFTK's Reno estimate (a loss among the last segments of a window, or several in one).
  const timeoutProbability = s.tcp.sack ? Math.min(1, p) : pftkTimeoutProbability(p, w);
  const timeoutTimeShare = pftkTimeoutTimeShare(p, R, b, T0, w, timeoutProbability);
  if (!f.modelsTimeouts) reasons.push(...assumptionReasons(ctx, w, timeoutTimeShare));
  const capped = regime === 'loss-limited' ? '' : `; ${regime}`;
  return {
    formula, title, appliesTo,
    cwndSegments: w,
    goodputBps: rate * (1 - p) * packetBits(s) * payloadFraction(s),
    note: `${f.note}${capped}`,
    validity: { regime, valid: reasons.length === 0, reasons, rawCwndSegments: f.windowSeg, packetsPerRtt: w, timeoutProbability, timeoutTimeShare },
  };
}

/** The loss-rate formulas (title and outcome) by id, in the order a report lists them; null without loss. */
function formulaOutcomes(ctx: FormulaContext, ccParams: Scenario['ccParams']): Partial<Record<ClosedFormId, () => { title: string; outcome: FormulaOutcome }>> {
  const { p, R, b, T0, wmax, shareRate, queuePerFlow, common } = ctx;
  const has = p > 0;
  return {
    mathis: () => ({ title: 'Mathis et al. 1997, sqrt(3/(2bp))', outcome: { windowSeg: has ? mathisWindow(p, b) : null, rttS: R, note: `${common}; periodic loss, no timeouts`, modelsTimeouts: false } }),
    'pftk-full': () => ({
      title: 'Padhye et al. 2000, full model',
      outcome: { windowSeg: has ? pftkFull(p, R, b, T0, wmax) * R : null, rttS: R, note: `${common}, T0 = ${T0.toFixed(3)} s, Wmax = ${Math.round(wmax)}; Reno with timeouts`, modelsTimeouts: true },
    }),
    'pftk-approx': () => ({
      title: 'Padhye et al. 1998, approximation',
      outcome: { windowSeg: has ? pftkApprox(p, R, b, T0, wmax) * R : null, rttS: R, note: `${common}, T0 = ${T0.toFixed(3)} s`, modelsTimeouts: true },
    }),
    tahoe: () => ({ title: 'Tahoe sawtooth (periodic loss, slow start to W/2)', outcome: { windowSeg: has ? tahoeWindow(p, b) : null, rttS: R, note: `${common}; derived like Mathis et al.`, modelsTimeouts: false } }),
    cubic: () => {
      // The knobs' defaults come from CUBIC's own param specs (src/cc/cubic.ts), their one home.
      const { c, beta } = validateCcParams('cubic', ccParams) as { c: number; beta: number };
      const resp = has ? cubicResponseWindow(p, R, c, beta) : null;
      const region = has && cubicAvgWindow(p, R, c, beta) < resp! ? 'Reno-friendly region' : 'cubic region';
      return { title: 'CUBIC response function, RFC 9438 §5', outcome: { windowSeg: resp, rttS: R, note: `${common}, C = ${c}, beta = ${beta}; ${region}`, modelsTimeouts: false } };
    },
    westwood: () => {
      const eq = has ? westwoodEquilibrium(p, R, shareRate, queuePerFlow / shareRate) : null;
      return {
        title: 'Westwood+ fluid equilibrium',
        outcome: {
          windowSeg: eq ? eq.window : null,
          rttS: eq ? R + eq.tqS : R,
          note: eq ? `${common}; standing queue Tq* = ${eq.tqS.toFixed(4)} s fills the link (filter lag not modelled)` : '',
          modelsTimeouts: false,
          modelsLink: true,
        },
      };
    },
  };
}

/** The order predictions are listed in (a report's tables follow it). */
const FORMULA_ORDER: readonly ClosedFormId[] = ['mathis', 'pftk-full', 'pftk-approx', 'tahoe', 'cubic', 'westwood'];

/**
 * Every closed form that applies to flow 0's congestion control, on flow 0's path: base RTT R (propagation
 * plus serialisation, queue empty: the loss-limited regime), random loss rate p of the bottleneck,
 * T0 = {@link steadyRtoS}, Wmax = receive buffer / MSS. Each prediction is then capped twice: the
 * window by the receive window and by what the path holds at once (BDP + buffer, the flow's share),
 * the rate by the flow's max-min fair share of the tightest link. A capped prediction is marked as
 * link- or rwnd-limited and not valid for the formula (the cap, not the formula, predicts there).
 * With p = 0 the formulas have no answer (loss comes from the queue alone): values are null.
 */
export function closedForms(s: Scenario): ClosedFormPrediction[] {
  const ctx = formulaContext(s);
  const { variant: v, ccParams } = flowCc(s, 0);
  // Which formulas describe which variants is the registry's fact (src/variants.ts).
  const forms: readonly ClosedFormId[] = VARIANT_FACTS[v].closedForms;
  const appliesTo = (id: ClosedFormId): Variant[] => VARIANTS.filter((x) => VARIANT_FACTS[x].closedForms.includes(id));
  const outcomes = formulaOutcomes(ctx, ccParams);
  const out: ClosedFormPrediction[] = [];
  for (const id of FORMULA_ORDER) {
    const formula = outcomes[id];
    if (!forms.includes(id) || !formula) continue;
    const { title, outcome } = formula();
    out.push(predict(ctx, id, title, appliesTo(id), outcome));
  }
  // BBR's forms read the path and the flow mix, not a loss rate (src/theory/bbrClosedForms.ts).
  out.push(...bbrClosedForms(s));
  return out;
}
