import type { ClosedFormPrediction } from '../../src/theory/closedForms.js';
import type { RunResult, Series } from '../../src/result/types.js';
import { presetScenario } from '../../src/scenario/presets.js';
import type { Scenario } from '../../src/scenario/types.js';
import type { Engine, Variant } from '../../src/variants.js';

/** Series from a function sampled at n + 1 evenly spaced times over [0, durationS]. */
export function sampled(durationS: number, n: number, f: (t: number) => number): Series {
  const t: number[] = [];
  const v: number[] = [];
  for (let i = 0; i <= n; i++) {
    const ti = (durationS * i) / n;
    t.push(ti);
    v.push(f(ti));
  }
  return { t, v };
}

/**
 * A piecewise-constant series that reads the same as a step or a linear series: value v[i] on
 * [t[i], t[i+1]), with a duplicated time at each jump. Keeps hand-computed expectations exact.
 */
export function steps(t: number[], v: number[], endS: number): Series {
  const out: Series = { t: [], v: [] };
  for (let i = 0; i < t.length; i++) {
    const next = i + 1 < t.length ? t[i + 1]! : endS;
    out.t.push(t[i]!, next);
    out.v.push(v[i]!, v[i]!);
  }
  return out;
}

/** A Reno-like sawtooth in segments: slow start to `peak` by `ssEndS`, then halving and +1 per `rttS`. */
export function sawtooth(peak: number, ssEndS: number, rttS: number): (t: number) => number {
  return (t) => {
    if (t <= ssEndS) return 1 + (peak - 1) * (t / ssEndS);
    const cycle = (peak / 2) * rttS; // time to climb from peak/2 back to peak
    const x = ((t - ssEndS) % cycle) / cycle;
    return peak / 2 + (peak / 2) * x;
  };
}

export interface SyntheticRun {
  engine: Engine;
  variant?: Variant;
  scenario?: Scenario;
  cwndSegments: Series;
  goodputBps?: number;
  meanCwndSegments?: number;
  timeouts?: number;
  fastRecoveries?: number;
  queueDrops?: number;
  randomDrops?: number;
  status?: 'ok' | 'failed';
}

/** A RunResult with a given cwnd trace (one flow) and summary figures; what an engine would return. */
export function syntheticRun(o: SyntheticRun): RunResult {
  const spec = o.scenario ?? presetScenario('ns3-lossy', o.variant ?? 'reno', { durationS: o.cwndSegments.t.at(-1) ?? 10 });
  const mss = spec.mssBytes;
  const cwndBytes = { t: o.cwndSegments.t, v: o.cwndSegments.v.map((x) => x * mss) };
  const meanSeg = o.meanCwndSegments ?? o.cwndSegments.v.reduce((a, b) => a + b, 0) / Math.max(1, o.cwndSegments.v.length);
  const goodputBps = o.goodputBps ?? 100_000;
  const timeouts = o.timeouts ?? 0;
  const fastRecoveries = o.fastRecoveries ?? 20;
  const summary = {
    goodputBps,
    throughputBps: goodputBps * 1.05,
    meanCwndBytes: meanSeg * mss,
    meanCwndSegments: meanSeg,
    retransmits: timeouts + fastRecoveries,
    timeouts,
    fastRecoveries,
    lossRate: 0.01,
  };
  const queue = { t: o.cwndSegments.t, v: o.cwndSegments.v.map((x) => Math.max(0, x - 5)) };
  return {
    engine: o.engine,
    variant: spec.variant,
    scenario: spec.name,
    spec,
    durationS: spec.durationS,
    mssBytes: mss,
    status: o.status ?? 'ok',
    ...(o.status === 'failed' ? { failure: 'synthetic failure' } : {}),
    summary: { ...summary, drops: { queue: o.queueDrops ?? 0, random: o.randomDrops ?? 20, ackRandom: 0, ackQueue: 0 } },
    flows: [
      {
        summary: { flowId: 0, ...summary, bytesDelivered: 1e6, bytesSent: 1.05e6 },
        trace: {
          cwndBytes,
          ssthreshBytes: { t: [0], v: [Number.MAX_SAFE_INTEGER] },
          srttS: { t: [0], v: [0.1] },
          inflightBytes: cwndBytes,
        },
      },
    ],
    queue: { packets: queue },
    stats: { wallS: 0.01 },
  };
}

/** A closed-form prediction inside its validity unless `reasons` say otherwise (src/theory's shape). */
export function closedForm(
  o: Pick<ClosedFormPrediction, 'formula' | 'title' | 'appliesTo' | 'cwndSegments' | 'goodputBps'> & { reasons?: string[]; regime?: ClosedFormPrediction['validity']['regime'] },
): ClosedFormPrediction {
  const reasons = o.reasons ?? [];
  return {
    formula: o.formula, title: o.title, appliesTo: o.appliesTo, cwndSegments: o.cwndSegments, goodputBps: o.goodputBps, note: '',
    validity: {
      regime: o.regime ?? 'loss-limited', valid: reasons.length === 0, reasons, rawCwndSegments: o.cwndSegments,
      packetsPerRtt: o.cwndSegments, timeoutProbability: null, timeoutTimeShare: null,
    },
  };
}
