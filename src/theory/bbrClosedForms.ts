import { validateCcParams } from '../cc/registry.js';
import { flowCc, flowVariants } from '../scenario/flowCc.js';
import { baseRttS, packetBits, payloadFraction, sharedQueue } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import { VARIANT_FACTS, VARIANTS, type ClosedFormId, type Variant } from '../variants.js';
import { bbrSteadyState, wareShare, type BbrKnobs, type BbrPath } from './bbr.js';
import type { ClosedFormPrediction, ClosedFormRegime } from './closedForms.js';

/** Thresholds of the BBR closed forms' validity (as CLOSED_FORM_VALIDITY for the loss formulas). */
export const BBR_VALIDITY = {
  /** The steady state and Ware's ProbeRTT term average over PROBE_RTT cycles: at least this many min-RTT windows measured. */
  minProbeRttCycles: 1,
  /**
   * Ware's simple form neglects 1/(2X) + 4N/q of eq. 9 (the propagation delay and PROBE_RTT's
   * packets against the queue): valid while those stay under this share of the link (the issue's
   * 10-point band for the share).
   */
  simpleNeglectedShare: 0.1,
  /** Ware's extended form: a ProbeRTT time share above this means the flows are rarely in competition (eq. 11 grows past the 10 s interval). */
  maxProbeTimeShare: 0.5,
} as const;

/** BBRv1's knobs of flow i (defaults filled from src/cc/bbr.ts). */
function knobsOf(s: Scenario, flow: number): BbrKnobs & { ltLossThresh: number } {
  return validateCcParams('bbr', flowCc(s, flow).ccParams) as unknown as BbrKnobs & { ltLossThresh: number };
}

/** The bottleneck as the formulas see it: the tightest link's rate, flow i's base RTT, its queue. */
function pathOf(s: Scenario, flow: number): BbrPath {
  const q = sharedQueue(s);
  return { linkPps: q.bandwidthBps / packetBits(s), baseRttS: baseRttS(s, flow), bufferPackets: q.queuePackets, mssBytes: s.mssBytes };
}

function appliesTo(id: ClosedFormId): Variant[] {
  return VARIANTS.filter((x) => VARIANT_FACTS[x].closedForms.includes(id));
}

function notApplicable(formula: ClosedFormId, title: string, why: string): ClosedFormPrediction {
  return {
    formula, title, appliesTo: appliesTo(formula), cwndSegments: null, goodputBps: null, note: why,
    validity: { regime: 'link-limited', valid: false, reasons: [why], rawCwndSegments: null, packetsPerRtt: null, timeoutProbability: null, timeoutTimeShare: null },
  };
}

function prediction(formula: ClosedFormId, title: string, regime: ClosedFormRegime, reasons: string[], f: Omit<ClosedFormPrediction, 'formula' | 'title' | 'appliesTo' | 'validity'>): ClosedFormPrediction {
  return {
    formula, title, appliesTo: appliesTo(formula), ...f,
    validity: { regime, valid: reasons.length === 0, reasons, rawCwndSegments: f.cwndSegments, packetsPerRtt: f.cwndSegments, timeoutProbability: null, timeoutTimeShare: null },
  };
}

const STEADY_TITLE = 'BBRv1 steady state (gain cycle, cwnd cap 2 BDP)';
const WARE_EXT_TITLE = 'Ware et al. 2019, extended (buffer/BDP, N, ProbeRTT)';
const WARE_SIMPLE_TITLE = 'Ware et al. 2019, simple (in-flight cap: 1/2)';

/** Reasons the measured interval cannot show a PROBE_RTT-averaged steady state. */
function intervalReasons(s: Scenario, k: BbrKnobs): string[] {
  const measured = s.durationS - s.measureFromS;
  const cycle = k.minRttWindowS + k.probeRttS;
  return k.probeRttS > 0 && measured < BBR_VALIDITY.minProbeRttCycles * cycle
    ? [`the measured ${measured.toFixed(1)} s hold less than one PROBE_RTT cycle (${cycle.toFixed(1)} s): the formula averages over them`]
    : [];
}

/** Every BBR flow alone on the bottleneck: the gain cycle's steady state (src/theory/bbr.ts bbrSteadyState). */
function steadyForm(s: Scenario, bbrFlows: number[]): ClosedFormPrediction {
  const k = knobsOf(s, bbrFlows[0]!);
  const path = pathOf(s, bbrFlows[0]!);
  const n = bbrFlows.length;
  const st = bbrSteadyState(path, k);
  const p = s.bottleneck.loss.rate;
  const bdp = path.linkPps * path.baseRttS;
  const reasons = intervalReasons(s, k);
  // Several flows: each estimate is c/N + epsilon, so together they overrun the link until the cwnd
  // cap binds (Ware et al. §4.2, Scherrer et al. 2022): a standing queue of (cwndGain - 1) BDP.
  const queue = n === 1 ? st.meanQueuePackets : Math.min(path.bufferPackets, st.cwndCapQueuePackets);
  const lossRate = n === 1 ? st.lossRate : null;
  if (n > 1 && path.bufferPackets < st.cwndCapQueuePackets) {
    reasons.push(`${n} BBR flows on a buffer of ${(path.bufferPackets / bdp).toFixed(2)} BDP (< ${(st.cwndCapQueuePackets / bdp).toFixed(2)} BDP, the cwnd cap's queue): they overflow it persistently, which the steady state does not model`);
  }
  if (p >= k.ltLossThresh) reasons.push(`random loss ${p} at or above the long-term sampler's ${k.ltLossThresh.toFixed(3)}: BBR then paces at a policed rate`);
  const cwnd = k.cwndGain * (path.linkPps / n) * path.baseRttS;
  if (cwnd * s.mssBytes > s.tcp.rcvBufBytes) reasons.push(`receive-window limited: the cwnd target of ${cwnd.toFixed(0)} segments exceeds the ${Math.floor(s.tcp.rcvBufBytes / s.mssBytes)}-segment receive window`);
  const utilisation = n === 1 ? st.utilisation : 1 - st.probeRttShare;
  const goodputBps = ((utilisation * path.linkPps) / n) * (1 - p) * packetBits(s) * payloadFraction(s);
  const regime = n === 1 ? st.regime : 'cwnd-limited';
  return prediction('bbr-steady', STEADY_TITLE, 'link-limited', reasons, {
    cwndSegments: cwnd,
    goodputBps,
    note:
      `${n} flow${n > 1 ? 's' : ''}, ${regime}: X = ${(path.bufferPackets / bdp).toFixed(2)} BDP, mean queue ${queue.toFixed(1)} packets, ` +
      (lossRate !== null ? `loss ${lossRate.toExponential(2)}, ` : '') +
      `PROBE_RTT ${(100 * st.probeRttShare).toFixed(1)}% of the time`,
    bbr: { share: null, meanQueuePackets: queue, meanQueueDelayS: queue / path.linkPps, lossRate, bbrFlows: n, regime },
  });
}

/** BBR against loss-based flows: Ware et al.'s share, both forms (src/theory/bbr.ts wareShare). */
function wareForms(s: Scenario, bbrFlows: number[], lossFlows: number): ClosedFormPrediction[] {
  const k = knobsOf(s, bbrFlows[0]!);
  const path = pathOf(s, bbrFlows[0]!);
  const n = bbrFlows.length;
  const w = wareShare(path, n, k);
  const common: string[] = [];
  const rtts = s.flows.map((_, i) => baseRttS(s, i));
  if (Math.max(...rtts) > 1.05 * Math.min(...rtts)) common.push('the flows\' base RTTs differ (the model assumes one RTT for all)');
  if (s.bottleneck.queue.kind !== 'droptail') common.push(`a ${s.bottleneck.queue.kind} queue: the model assumes a drop-tail queue the loss-based flows keep full`);
  if (s.bottleneck.loss.rate > 0) common.push(`random loss ${s.bottleneck.loss.rate}: the model has loss from the full queue only`);
  common.push(...intervalReasons(s, k));
  const ext: string[] = [...common];
  if (w.lossBasedShareRaw <= 0) {
    ext.push(`buffer of ${w.bufferBdp.toFixed(2)} BDP: eq. 9 gives p = ${w.lossBasedShareRaw.toFixed(3)} <= 0 (the in-flight cap exceeds BDP + buffer), so BBR is not cap-limited and the model's premise fails; it predicts the whole link`);
  }
  if (w.probeTimeShare > BBR_VALIDITY.maxProbeTimeShare) ext.push(`PROBE_RTT takes ${(100 * w.probeTimeShare).toFixed(0)}% of the time by eq. 11 (> ${100 * BBR_VALIDITY.maxProbeTimeShare}%): the queue drains longer than the model's cycle`);
  const neglected = 1 / (2 * w.bufferBdp) + (k.minCwndSegments * n) / path.bufferPackets;
  const simple: string[] = [...common];
  if (n > 1) simple.push(`${n} BBR flows: the simple form is for one BBR flow`);
  if (!(neglected <= BBR_VALIDITY.simpleNeglectedShare)) {
    simple.push(`buffer of ${w.bufferBdp.toFixed(2)} BDP: the simple form assumes q >> BDP; the terms it drops, 1/(2X) + 4N/q = ${neglected.toFixed(3)}, exceed ${BBR_VALIDITY.simpleNeglectedShare}`);
  }
  const capacity = path.linkPps * packetBits(s) * payloadFraction(s);
  const figures = (share: number, regime: string) => ({ share, meanQueuePackets: path.bufferPackets, meanQueueDelayS: path.bufferPackets / path.linkPps, lossRate: null, bbrFlows: n, regime });
  const mix = `${n} BBR vs ${lossFlows} loss-based, X = ${w.bufferBdp.toFixed(2)} BDP`;
  return [
    prediction('ware-extended', WARE_EXT_TITLE, 'link-limited', ext, {
      cwndSegments: null,
      goodputBps: null,
      note: `${mix}: p = max(0, ${w.lossBasedShareRaw.toFixed(3)}), ProbeRTT ${(100 * w.probeTimeShare).toFixed(1)}% of the time, BBR share ${(100 * w.extendedShare).toFixed(1)}% (${((w.extendedShare * capacity) / 1e6).toFixed(2)} Mbit/s)`,
      bbr: figures(w.extendedShare, w.lossBasedShareRaw > 0 ? 'cap-limited' : 'whole link'),
    }),
    prediction('ware-simple', WARE_SIMPLE_TITLE, 'link-limited', simple, {
      cwndSegments: null,
      goodputBps: null,
      note: `${mix}: BBR share 50% whatever the number of loss-based flows`,
      bbr: figures(w.simpleShare, 'cap-limited'),
    }),
  ];
}

/**
 * The BBRv1 closed forms for a scenario: the steady state when every flow is BBR(v1), Ware et al.'s
 * share when BBR(v1) flows meet loss-based (window) flows only; the others say why not.
 */
export function bbrClosedForms(s: Scenario): ClosedFormPrediction[] {
  const vs = flowVariants(s);
  const bbrFlows = vs.flatMap((v, i) => (v === 'bbr' ? [i] : []));
  if (bbrFlows.length === 0) return [];
  const others = vs.filter((v) => v !== 'bbr');
  const window = others.filter((v) => VARIANT_FACTS[v].control === 'window');
  if (others.length === 0) {
    return [steadyForm(s, bbrFlows), notApplicable('ware-extended', WARE_EXT_TITLE, 'no loss-based flow to compete with'), notApplicable('ware-simple', WARE_SIMPLE_TITLE, 'no loss-based flow to compete with')];
  }
  const steadyNa = notApplicable('bbr-steady', STEADY_TITLE, `BBR shares the bottleneck with ${others.join(', ')}: the single-flow steady state does not apply`);
  if (window.length < others.length) {
    const why = `other rate-based flows (${others.filter((v) => VARIANT_FACTS[v].control !== 'window').join(', ')}): Ware et al. model BBRv1 against loss-based flows only`;
    return [steadyNa, notApplicable('ware-extended', WARE_EXT_TITLE, why), notApplicable('ware-simple', WARE_SIMPLE_TITLE, why)];
  }
  return [steadyNa, ...wareForms(s, bbrFlows, window.length)];
}
