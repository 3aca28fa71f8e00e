import type { EngineSet } from '../../src/engines.js';
import type { ClosedFormPrediction } from '../../src/compare/types.js';
import type { RunResult, Series } from '../../src/result/types.js';
import type { Scenario } from '../../src/scenario/types.js';
import { closedForm, syntheticRun } from '../compare/fixtures.js';

/**
 * Deterministic stand-in engines: a Reno-like sawtooth whose peak follows sqrt(2/p)-ish scaling for
 * the packet engine, a smooth curve settling at its mean for the fluid one. Enough to exercise every
 * part of a report without minutes of simulation.
 */
function peakFor(s: Scenario): number {
  const p = Math.max(1e-4, s.bottleneck.loss.rate);
  return Math.min(200, Math.max(4, Math.sqrt(8 / (3 * p))));
}

function sawtoothTrace(s: Scenario, points: number): Series {
  const peak = peakFor(s) * (s.variant === 'cubic' ? 1.2 : 1);
  const rtt = 2 * (s.bottleneck.delayS + (s.flows[0]?.access.delayS ?? 0));
  const ss = Math.min(s.durationS / 5, Math.log2(peak) * rtt + 0.1);
  const cycle = Math.max(rtt, (peak / 2) * rtt);
  const t: number[] = [];
  const v: number[] = [];
  for (let i = 0; i <= points; i++) {
    const ti = (s.durationS * i) / points;
    t.push(ti);
    if (ti <= ss) v.push(Math.max(1, peak * Math.pow(2, (ti - ss) / rtt)));
    else v.push(peak / 2 + (peak / 2) * (((ti - ss) % cycle) / cycle));
  }
  return { t, v };
}

function mathis(s: Scenario): ClosedFormPrediction[] {
  const p = s.bottleneck.loss.rate;
  if (!(p > 0)) return [];
  const w = Math.sqrt(3 / (2 * p));
  const rtt = 2 * (s.bottleneck.delayS + (s.flows[0]?.access.delayS ?? 0));
  return [closedForm({ formula: 'mathis', title: 'Mathis et al. 1997: sqrt(3/2p) segments per RTT', appliesTo: ['reno', 'newreno', 'tahoe'], cwndSegments: w, goodputBps: (w * s.mssBytes * 8) / rtt })];
}

/**
 * The runs so far by engine and scenario without its seed (nothing above reads the seed, so a
 * report's replications are the same run under another seed): built once, handed out as a copy
 * carrying the scenario asked for. A seed study is 255 runs of 20 000-point traces but ~30 distinct ones.
 */
const made = new Map<string, RunResult>();

function run(engine: 'packet' | 'fluid', s: Scenario): RunResult {
  const key = `${engine} ${JSON.stringify({ ...s, seed: 0 })}`;
  let r = made.get(key);
  if (!r) made.set(key, (r = build(engine, s)));
  return { ...r, spec: s };
}

function build(engine: 'packet' | 'fluid', s: Scenario): RunResult {
  const tr = sawtoothTrace(s, engine === 'packet' ? 20000 : 4000);
  const series = engine === 'packet' ? tr : { t: tr.t, v: tr.v.map((x, i) => (tr.t[i]! < s.durationS / 5 ? x : 0.75 * peakFor(s) * (1 + 0.05 * Math.sin(tr.t[i]!)))) };
  const mean = series.v.reduce((a, b) => a + b, 0) / series.v.length;
  const rtt = 2 * (s.bottleneck.delayS + (s.flows[0]?.access.delayS ?? 0));
  return syntheticRun({
    engine,
    scenario: s,
    cwndSegments: series,
    meanCwndSegments: mean,
    goodputBps: (mean * s.mssBytes * 8) / rtt,
    timeouts: s.name === 'ns3-lossy' ? 30 : 1,
    fastRecoveries: s.name === 'ns3-lossy' ? 10 : 40,
  });
}

export const fakeEngines: EngineSet = {
  runPacket: (s) => run('packet', s),
  runFluid: (s) => run('fluid', s),
  closedForms: mathis,
};
