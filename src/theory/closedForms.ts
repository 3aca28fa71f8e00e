import type { Scenario } from '../scenario/types.js';
import type { Variant } from '../variants.js';
import { mapScenario } from '../fluid/scenarioMap.js';
import { cubicAvgWindow, cubicResponseWindow, mathisWindow, pftkApprox, pftkFull, tahoeWindow, westwoodEquilibrium } from './formulas.js';

export * from './formulas.js';

export type ClosedFormId = 'mathis' | 'pftk-full' | 'pftk-approx' | 'cubic' | 'westwood' | 'tahoe';

/** One closed-form prediction for a Scenario (same shape as src/compare's ClosedFormLike). */
export interface ClosedFormPrediction {
  formula: ClosedFormId;
  title: string;
  appliesTo: Variant[];
  /** Predicted mean window, segments (null when the formula has no answer here, e.g. p = 0). */
  cwndSegments: number | null;
  /** Predicted goodput, bit/s of payload: rate x (1 - p) x MSS x 8, capped at the flow's share of the link. */
  goodputBps: number | null;
  note: string;
}

/**
 * Segments per ACK that slow the additive increase of `variant` as the packet engine implements it:
 * Reno (and CUBIC) count acknowledged segments (Linux tcp_cong_avoid_ai), so delayed ACKs do not slow
 * them (b = 1); NewReno, Tahoe and Westwood+ (ns-3 default) grow per ACK (RFC 5681 eq. 3): b = delAckCount.
 */
export function effectiveB(s: Scenario): number {
  const v = s.variant;
  if (v === 'reno' || v === 'cubic') return 1;
  if (v === 'westwood' && (s.ccParams.segmentCounting ?? 0) === 1) return 1;
  return s.tcp.delAckCount;
}

/**
 * Every closed form that applies to the scenario's variant, evaluated on flow 0's path with the
 * random loss rate p of the bottleneck and the propagation RTT (queue assumed empty: loss-limited
 * regime). T0 = the minimum RTO (RFC 6298: RTO >= minRto, and RTT + 4 RTTVAR is below it on these
 * paths), Wmax = receiver buffer / MSS. With p = 0 the formulas have no answer (loss comes from the
 * queue alone): values are null with a note.
 */
export function closedForms(s: Scenario): ClosedFormPrediction[] {
  const { link, flows } = mapScenario(s);
  const p = s.bottleneck.loss.rate;
  const R = flows[0]!.Tp;
  const b = effectiveB(s);
  const T0 = s.tcp.minRtoS;
  const wmax = s.tcp.rcvBufBytes / s.mssBytes;
  const share = link.C / s.flows.length;
  const bits = s.mssBytes * 8;
  const out: ClosedFormPrediction[] = [];
  const add = (formula: ClosedFormId, title: string, appliesTo: Variant[], windowSeg: number | null, note: string, rtt = R): void => {
    if (windowSeg === null || !(p > 0)) {
      out.push({ formula, title, appliesTo, cwndSegments: null, goodputBps: null, note: 'no random loss (p = 0): the formula needs a loss rate' });
      return;
    }
    let w = Math.min(windowSeg, wmax);
    let rate = w / rtt;
    let capped = '';
    if (rate > share * (1 + 1e-9)) {
      rate = share;
      w = share * rtt;
      capped = '; capped at the link share (capacity-limited, the formula does not apply)';
    }
    out.push({ formula, title, appliesTo, cwndSegments: w, goodputBps: rate * (1 - p) * bits, note: `${note}${windowSeg > wmax ? '; receiver-window limited' : ''}${capped}` });
  };
  const common = `p = ${p}, RTT = ${R.toFixed(4)} s, b = ${b}`;
  const v = s.variant;
  if (v === 'reno' || v === 'newreno') {
    add('mathis', 'Mathis et al. 1997, sqrt(3/(2bp))', ['reno', 'newreno'], mathisWindow(p, b), `${common}; periodic loss, no timeouts`);
    add('pftk-full', 'Padhye et al. 2000, full model', ['reno', 'newreno'], p > 0 ? pftkFull(p, R, b, T0, wmax) * R : null, `${common}, T0 = ${T0} s, Wmax = ${Math.round(wmax)}; Reno with timeouts`);
    add('pftk-approx', 'Padhye et al. 1998, approximation', ['reno', 'newreno'], p > 0 ? pftkApprox(p, R, b, T0, wmax) * R : null, `${common}, T0 = ${T0} s`);
  }
  if (v === 'tahoe') add('tahoe', 'Tahoe sawtooth (periodic loss, slow start to W/2)', ['tahoe'], tahoeWindow(p, b), `${common}; derived like Mathis et al.`);
  if (v === 'cubic') {
    const c = s.ccParams.c ?? 0.4;
    const beta = s.ccParams.beta ?? 0.7;
    const cub = p > 0 ? cubicAvgWindow(p, R, c, beta) : 0;
    const resp = p > 0 ? cubicResponseWindow(p, R, c, beta) : null;
    add('cubic', 'CUBIC response function, RFC 9438 §5', ['cubic'], resp, `${common}, C = ${c}, beta = ${beta}; ${resp !== null && cub < resp ? 'Reno-friendly region' : 'cubic region'}`);
  }
  if (v === 'westwood' && p > 0) {
    const eq = westwoodEquilibrium(p, R, share, link.B / link.C);
    add('westwood', 'Westwood+ fluid equilibrium', ['westwood'], eq.window, `${common}; standing queue Tq* = ${eq.tqS.toFixed(4)} s fills the link (filter lag not modelled)`, R + eq.tqS);
  } else if (v === 'westwood') add('westwood', 'Westwood+ fluid equilibrium', ['westwood'], null, '');
  return out;
}
