import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { presetScenario } from '../../src/scenario/presets.js';
import type { Scenario } from '../../src/scenario/types.js';
import { headlineAxis, scenarioAt, setAxis } from '../../src/runs/axes.js';
import { getPath, setPath } from '../../src/runs/fieldPath.js';
import { applyRtt } from '../../src/runs/scenarioAxes.js';
import { bdpPackets, propagationRttS } from '../../src/scenario/path.js';

const oneWaySum = (s: Scenario, i = 0) => s.flows[i]!.access.delayS + s.bottleneck.delayS + (s.flows[i]!.receiverAccess?.delayS ?? 0);

describe('applyRtt', () => {
  it.each([0.01, 0.0169, 0.092, 0.4])('applyRtt(s, %f) makes 2 x sum of one-way delays equal the RTT', (rtt) => {
    const s = presetScenario('ns3-normal', 'reno');
    applyRtt(s, rtt);
    expect(2 * oneWaySum(s)).toBeCloseTo(rtt, 15);
    expect(propagationRttS(s)).toBeCloseTo(rtt, 15);
  });
  it('keeps each link’s share of the path delay (access 45/46 on the normal preset)', () => {
    const s = presetScenario('ns3-normal', 'reno');
    applyRtt(s, 0.01);
    expect(s.flows[0]!.access.delayS / oneWaySum(s)).toBeCloseTo(45 / 46, 12);
    expect(s.bottleneck.delayS).toBeCloseTo(0.005 / 46, 15);
  });
  it('counts a receiver access link and keeps other flows’ RTT ratio', () => {
    const s = presetScenario('ns3-lfn', 'reno', { flows: 2 });
    s.flows[0]!.receiverAccess = { bandwidthBps: 1e9, delayS: 0.01, queuePackets: 100 };
    s.flows[1]!.access.delayS = 0.09;
    const ratio = oneWaySum(s, 1) / oneWaySum(s, 0);
    applyRtt(s, 0.05);
    expect(2 * oneWaySum(s)).toBeCloseTo(0.05, 15);
    expect(oneWaySum(s, 1) / oneWaySum(s, 0)).toBeCloseTo(ratio, 12);
  });
  it('splits evenly between access and bottleneck when the base has no delay', () => {
    const s = presetScenario('ns3-lfn', 'reno');
    s.flows[0]!.access.delayS = 0;
    s.bottleneck.delayS = 0;
    applyRtt(s, 0.1);
    expect(s.flows[0]!.access.delayS).toBe(0.025);
    expect(s.bottleneck.delayS).toBe(0.025);
  });
  it('rejects a non-positive RTT with InputError on --rtt', () => {
    expect(() => applyRtt(presetScenario('ns3-lfn', 'reno'), 0)).toThrow(/--rtt/);
  });
});

describe('scenarioAt', () => {
  const base = presetScenario('ns3-lfn', 'reno');
  it('applies loss, bandwidth, flows and does not touch the base', () => {
    const axes = [headlineAxis('loss', '1e-3'), headlineAxis('bandwidth', '10Mbps'), headlineAxis('flows', '3')];
    const s = scenarioAt(base, axes, [1e-3, 1e7, 3]);
    expect(s.bottleneck.loss.rate).toBe(1e-3);
    expect(s.bottleneck.bandwidthBps).toBe(1e7);
    expect(s.flows.map((f) => f.startS)).toEqual([0.1, expect.closeTo(0.2, 12), expect.closeTo(0.3, 12)]);
    expect(base.flows).toHaveLength(1);
    expect(base.bottleneck.loss.rate).toBe(1e-3);
  });
  it('sizes a BDP-relative buffer after the rate and RTT, whatever the flag order', () => {
    const axes = [headlineAxis('bufferBdp', '2'), headlineAxis('rtt', '100ms'), headlineAxis('bandwidth', '5Mbps')];
    const s = scenarioAt(base, axes, [2, 0.1, 5e6]);
    // min(access 10 Mbps, 5 Mbps) x 0.1 s / (8 x 394 bits) = 158.6 packets; x 2 → 317.
    expect(bdpPackets(s)).toBeCloseTo((5e6 * 0.1) / (8 * 394), 9);
    expect(s.bottleneck.queue.limitPackets).toBe(317);
  });
  it('--set sweeps any field by path, including * over flows and free ccParams keys', () => {
    const a = setAxis(base, 'flows.*.access.delayS=5ms,10ms');
    expect(a.unit).toBe('duration');
    expect(a.values).toEqual([0.005, 0.01]);
    const s = scenarioAt(presetScenario('ns3-lfn', 'reno', { flows: 2 }), [a], [0.01]);
    expect(s.flows.map((f) => f.access.delayS)).toEqual([0.01, 0.01]);
    expect(setAxis(base, 'tcp.minRtoS=0.2..1:lin:3').values).toEqual([0.2, 0.6, 1]);
    expect(setAxis(base, 'bottleneck.loss.direction=data,both').values).toEqual(['data', 'both']);
    const c = scenarioAt(base, [setAxis(base, 'ccParams.beta=0.5,0.7')], [0.5]);
    expect(c.ccParams.beta).toBe(0.5);
  });
  it('--set with an unknown path throws InputError', () => {
    expect(() => setAxis(base, 'tcp.minRtO=1')).toThrow(InputError);
    expect(() => setAxis(base, 'nope')).toThrow(/path=values/);
    expect(() => setPath(structuredClone(base), 'bottleneck.nope', 1)).toThrow(InputError);
    expect(getPath(base, 'flows.0.access.delayS')).toEqual([0.045]);
  });
});

describe('checkAxes', () => {
  it('refuses --set seed/variant (set per run) and a buffer given twice', async () => {
    const { checkAxes } = await import('../../src/runs/axes.js');
    const base = presetScenario('ns3-lfn', 'reno');
    expect(() => checkAxes(base, [setAxis(base, 'seed=1,2')])).toThrow(/--seed/);
    expect(() => checkAxes(base, [headlineAxis('buffer', '10'), headlineAxis('bufferBdp', '1')])).toThrow(/--buffer-bdp/);
    expect(() => checkAxes(base, [headlineAxis('loss', '1e-3'), headlineAxis('loss', '1e-2')])).toThrow(/twice/);
  });
});

describe('sweeping the queue discipline (--set bottleneck.queue.kind=...)', () => {
  it('setting the kind keeps only the parameters the new kind has; any discipline parameter may be set, and the point is checked against its kind', async () => {
    const { validateScenario } = await import('../../src/scenario/check/validate.js');
    const s = presetScenario('ns3-lfn', 'reno');
    s.bottleneck.queue = { kind: 'red', limitPackets: 300, minThPackets: 10, maxThPackets: 30, maxP: 0.1, weight: 0.002, gentle: true, ecn: true };
    setPath(s, 'bottleneck.queue.kind', 'codel');
    expect(s.bottleneck.queue).toEqual({ kind: 'codel', limitPackets: 300, ecn: true });
    setPath(s, 'bottleneck.queue.targetS', 0.02);
    expect(() => validateScenario(s)).not.toThrow();
    setPath(s, 'bottleneck.queue.targetS', 0.2);
    expect(() => validateScenario(s)).toThrow(/bottleneck\.queue\.targetS must be below intervalS \(0\.1\), got 0\.2/);
    setPath(s, 'bottleneck.queue.kind', 'droptail');
    expect(s.bottleneck.queue).toEqual({ kind: 'droptail', limitPackets: 300 });
    expect(() => setPath(s, 'bottleneck.queue.kind', 'sfq')).toThrow(/bottleneck\.queue\.kind must be one of droptail, red, codel, fq_codel, pie, policer, step, got 'sfq'/);
    expect(() => setPath(s, 'bottleneck.queue.foo', 1)).toThrow(/does not exist in the scenario \(no "foo"\)/);
  });
});
