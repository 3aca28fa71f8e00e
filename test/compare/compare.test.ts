import { describe, expect, it } from 'vitest';
import { compareRuns, relativeError, resample, slowStartEnd, timeAverage, uniformGrid, type ClosedFormPrediction } from '../../src/compare/index.js';
import { pathPayloadCapacityBps } from '../../src/scenario/path.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { closedForm, sampled, sawtooth, steps, syntheticRun } from './fixtures.js';

describe('resampling', () => {
  it('should read a step series as held and a linear one as interpolated', () => {
    const s = { t: [0, 1, 2], v: [0, 10, 20] };
    expect(resample(s, [0, 0.5, 1, 1.5, 2, 3], 'step')).toEqual([0, 0, 10, 10, 20, 20]);
    expect(resample(s, [-1, 0.5, 1.25, 2.5], 'linear')).toEqual([0, 5, 12.5, 20]);
  });
  it('should build an inclusive uniform grid', () => {
    expect(uniformGrid(0, 1, 5)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });
  it('should time-average a ramp to its midpoint', () => {
    expect(timeAverage({ t: [0, 10], v: [0, 10] }, 0, 10, 'linear')).toBeCloseTo(5, 9);
    // step: 0 on [0,1), 10 on [1,4] -> (0*1 + 10*3) / 4
    expect(timeAverage({ t: [0, 1], v: [0, 10] }, 0, 4, 'step')).toBeCloseTo(7.5, 2);
  });
});

describe('slow-start detection', () => {
  it('should end slow start at the peak before the first decrease', () => {
    expect(slowStartEnd({ t: [0, 1, 2, 3, 4, 5], v: [1, 2, 4, 8, 4, 5] })).toBe(3);
  });
  it('should ignore decreases below the tolerance (solver noise)', () => {
    expect(slowStartEnd({ t: [0, 1, 2, 3], v: [1, 2, 1.9999, 3] })).toBeNull();
  });
  it('should end slow start when cwnd crosses a finite ssthresh from below', () => {
    expect(slowStartEnd({ t: [0, 1, 2, 3], v: [1, 2, 4, 5] }, { t: [0], v: [4] })).toBe(2);
    // ssthresh equal to cwnd from the start is not a crossing
    expect(slowStartEnd({ t: [0, 1, 2], v: [1, 2, 3] }, { t: [0, 1, 2], v: [1, 2, 3] })).toBeNull();
  });
});

describe('compareRuns', () => {
  it('should give relative errors as (model - packet) / packet', () => {
    expect(relativeError(110, 100)).toBeCloseTo(0.1, 12);
    expect(relativeError(1, 0)).toBeNull();
  });

  it('should report RMSE 1 and correlation 1 for a fluid trace one segment above the packet one', () => {
    // 1 s steps: slow start 1, 2, 4, 8, 16, then a sawtooth 8, 12, 16, 8, 12 (cut at t = 4 -> 5)
    const t = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const v = [1, 2, 4, 8, 16, 8, 12, 16, 8, 12];
    const packet = syntheticRun({ engine: 'packet', cwndSegments: steps(t, v, 10), goodputBps: 100_000, meanCwndSegments: 15 });
    const fluid = syntheticRun({ engine: 'fluid', cwndSegments: steps(t, v.map((x) => x + 1), 10), goodputBps: 110_000, meanCwndSegments: 16.5 });
    const c = compareRuns(packet, fluid);
    expect(c.relErr.goodput).toBeCloseTo(0.1, 12);
    expect(c.relErr.meanCwnd).toBeCloseTo(0.1, 12);
    expect(c.fit!.rmseSegments).toBeCloseTo(1, 9);
    expect(c.fit!.correlation).toBeCloseTo(1, 9);
    expect(c.fit!.meanFluidSegments - c.fit!.meanPacketSegments).toBeCloseTo(1, 9);
    // the first decrease is 16 -> 8 at t = 5: slow start ends at the peak sample, t = 5 (end of the 16 step)
    expect(c.transient.packetEndS).toBe(5);
    expect(c.transient.steadyFromS).toBe(5);
    expect(c.steadyFit!.rmseSegments).toBeCloseTo(1, 9);
    expect(c.steadyFit!.meanPacketSegments).toBeCloseTo((8 + 12 + 16 + 8 + 12) / 5, 2);
    expect(c.fluidTrusted).toBe(true);
  });

  it('should separate transient and steady state: same steady state, different slow start', () => {
    // packet: 1, 10, 20 then flat 10 from t = 3; fluid: flat 10 throughout
    const packet = syntheticRun({ engine: 'packet', cwndSegments: steps([0, 1, 2, 3], [1, 10, 20, 10], 10) });
    const same = syntheticRun({ engine: 'fluid', cwndSegments: steps([0, 1, 2, 3], [1, 10, 20, 10], 10) });
    expect(compareRuns(packet, same).fit!.rmseSegments).toBeCloseTo(0, 9);
    const flatFluid = syntheticRun({ engine: 'fluid', cwndSegments: steps([0, 2.5, 2.6], [10, 10.5, 10], 10) });
    const d = compareRuns(packet, flatFluid);
    // whole run: errors 9 on [0,1), 0 on [1,2), 10 on [2,2.5), 9.5 on [2.5,2.6), 10 on [2.6,3), 0 after: RMS about sqrt((81 + 50 + 9 + 40) / 10)
    expect(d.fit!.rmseSegments).toBeCloseTo(Math.sqrt((81 * 1 + 100 * 0.5 + 90.25 * 0.1 + 100 * 0.4) / 10), 1);
    expect(d.transient.steadyFromS).toBe(3);
    expect(d.steadyFit!.rmseSegments).toBeCloseTo(0, 9);
    expect(d.steadyFit!.correlation).toBeNull(); // both windows are constant after 3 s
  });

  it('should put applicable closed forms beside the runs with their error against the packet run', () => {
    const tr = sampled(10, 100, sawtooth(20, 2, 0.1));
    const packet = syntheticRun({ engine: 'packet', cwndSegments: tr, goodputBps: 200_000, meanCwndSegments: 16 });
    const fluid = syntheticRun({ engine: 'fluid', cwndSegments: tr, goodputBps: 200_000, meanCwndSegments: 16 });
    const closed: ClosedFormPrediction[] = [
      closedForm({ formula: 'mathis', title: 'Mathis', appliesTo: ['reno', 'newreno'], cwndSegments: 20, goodputBps: 150_000 }),
      closedForm({ formula: 'cubic', title: 'CUBIC', appliesTo: ['cubic'], cwndSegments: 30, goodputBps: 300_000 }),
    ];
    const c = compareRuns(packet, fluid, closed);
    expect(c.closedForms.map((x) => x.formula)).toEqual(['mathis']);
    expect(c.closedForms[0]!.goodputRelErr).toBeCloseTo(-0.25, 12);
    expect(c.closedForms[0]!.cwndRelErr).toBeCloseTo(0.25, 12);
  });

  it('should compare a one-flow closed form with the packet goodput per flow', () => {
    const spec = presetScenario('ns3-lossy', 'reno', { durationS: 10, flows: 2 });
    const tr = sampled(10, 100, sawtooth(20, 2, 0.1));
    const packet = syntheticRun({ engine: 'packet', scenario: spec, cwndSegments: tr, goodputBps: 200_000, meanCwndSegments: 16 });
    const fluid = syntheticRun({ engine: 'fluid', scenario: spec, cwndSegments: tr, goodputBps: 200_000, meanCwndSegments: 16 });
    const c = compareRuns(packet, fluid, [closedForm({ formula: 'mathis', title: 'Mathis', appliesTo: ['reno'], cwndSegments: 16, goodputBps: 110_000 })]);
    expect(c.flows).toBe(2);
    expect(c.closedForms[0]!.goodputBpsAllFlows).toBe(220_000);
    expect(c.closedForms[0]!.goodputRelErr).toBeCloseTo(0.1, 12); // 110k vs 100k per flow
    expect(c.closedForms[0]!.cwndRelErr).toBeCloseTo(0, 12); // windows are means over flows already
  });

  it('should flag timeouts, tiny windows and bandwidth limits instead of trusting the error', () => {
    const tr = sampled(10, 100, () => 1.5);
    const spec = presetScenario('ns3-lossy', 'reno', { durationS: 10 });
    const cap = pathPayloadCapacityBps(spec);
    expect(cap).toBeCloseTo((1e6 * 340) / 394, 6);
    const packet = syntheticRun({ engine: 'packet', cwndSegments: tr, meanCwndSegments: 1.5, timeouts: 12, fastRecoveries: 3, goodputBps: 0.9 * cap });
    const fluid = syntheticRun({ engine: 'fluid', cwndSegments: tr, meanCwndSegments: 6, goodputBps: 0.5 * cap });
    const c = compareRuns(packet, fluid, [closedForm({ formula: 'mathis', title: 'Mathis', appliesTo: ['reno'], cwndSegments: 3, goodputBps: 1e5 })]);
    const codes = c.flags.map((f) => `${f.code}/${f.subject}`);
    expect(codes).toContain('timeouts-dominate/fluid');
    expect(codes).toContain('few-packets-per-rtt/fluid');
    expect(codes).toContain('bandwidth-limited/fluid');
    expect(codes).toContain('bandwidth-limited/closed-form');
    expect(c.fluidTrusted).toBe(false);
    expect(c.relErr.meanCwnd).toBeCloseTo(3, 12); // still reported, beside the flags
    // Timeouts alone only inform: the fluid models carry them (timeout probability, RTO idle time).
    expect(c.flags.find((f) => f.code === 'timeouts-dominate')!.severity).toBe('info');
  });

  it('should flag timeouts that leave the sender idle for a large share of the run, even when fast recoveries outnumber them', () => {
    const tr = sampled(100, 100, () => 5);
    const spec = presetScenario('ns3-lossy', 'cubic', { durationS: 100 });
    // 32 timeouts of at least minRto = 1 s in 100 s: >= 32% idle, above the 20% threshold; 91 fast recoveries.
    const packet = syntheticRun({ engine: 'packet', scenario: spec, cwndSegments: tr, meanCwndSegments: 5, timeouts: 32, fastRecoveries: 91, goodputBps: 5e4 });
    const fluid = syntheticRun({ engine: 'fluid', scenario: spec, cwndSegments: tr, meanCwndSegments: 5, goodputBps: 9e4 });
    const idle = compareRuns(packet, fluid, []).flags.find((f) => f.code === 'timeouts-dominate');
    expect(idle?.value).toBeCloseTo(0.32, 12);
    expect(idle?.threshold).toBe(0.2);
    // 15 timeouts (>= 15% idle) with 91 fast recoveries: inside the models' assumptions.
    const fewer = syntheticRun({ engine: 'packet', scenario: spec, cwndSegments: tr, meanCwndSegments: 5, timeouts: 15, fastRecoveries: 91, goodputBps: 5e4 });
    expect(compareRuns(fewer, fluid, []).flags.map((f) => f.code)).not.toContain('timeouts-dominate');
  });

  it('should flag a receiver-window-limited flow, and a closed form its theory module marks receive-window limited', () => {
    const spec = presetScenario('ns3-lossy', 'reno', { durationS: 10 });
    spec.tcp.rcvBufBytes = 10 * spec.mssBytes; // 10 segments
    // cwnd at 10 segments (the receive window) from t = 2 s of 10 s: 80% of the time
    const tr = steps([0, 2], [5, 10], 10);
    const packet = syntheticRun({ engine: 'packet', scenario: spec, cwndSegments: tr, meanCwndSegments: 9 });
    const fluid = syntheticRun({ engine: 'fluid', scenario: spec, cwndSegments: tr, meanCwndSegments: 9 });
    const why = 'receive-window limited: the formula\'s 12 segments exceed the receive window of 10';
    const c = compareRuns(packet, fluid, [closedForm({ formula: 'mathis', title: 'Mathis', appliesTo: ['reno'], cwndSegments: 10, goodputBps: 5e4, reasons: [why], regime: 'rwnd-limited' })]);
    const rw = c.flags.filter((f) => f.code === 'receiver-window-limited');
    expect(rw.map((f) => f.subject)).toEqual(['fluid', 'closed-form']);
    expect(rw[0]!.value).toBeCloseTo(0.8, 9);
    expect(rw[1]!.message).toBe(`Mathis: ${why}`);
    expect(rw[1]!.severity).toBe('invalid');
  });

  it('should flag a failed fluid run and report no errors for it', () => {
    const tr = sampled(10, 100, sawtooth(20, 2, 0.1));
    const packet = syntheticRun({ engine: 'packet', cwndSegments: tr });
    const fluid = syntheticRun({ engine: 'fluid', cwndSegments: tr, status: 'failed' });
    const c = compareRuns(packet, fluid);
    expect(c.relErr.goodput).toBeNull();
    expect(c.fit).toBeNull();
    expect(c.flags[0]!.code).toBe('run-failed');
    expect(c.fluidTrusted).toBe(false);
  });
});
