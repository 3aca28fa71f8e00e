import { describe, expect, it } from 'vitest';
import { jainIndex } from '../../src/result/fairness.js';
import { summaryJson } from '../../src/result/summaryJson.js';
import { tracesCsv } from '../../src/result/traceCsv.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { syntheticRun } from '../compare/fixtures.js';

const run = () => {
  const s = presetScenario('ns3-lossy', 'reno', { durationS: 10, flows: 2 });
  s.flows[1]!.variant = 'cubic';
  const r = syntheticRun({ engine: 'packet', scenario: s, cwndSegments: { t: [0, 1, 2], v: [10, 20, 15] }, goodputBps: 50_000, meanCwndSegments: 15, timeouts: 2, fastRecoveries: 7 });
  const f0 = r.flows[0]!;
  r.flows = [{ ...f0, summary: { ...f0.summary, goodputBps: 20_000 } }, { ...f0, summary: { ...f0.summary, flowId: 1, goodputBps: 30_000 } }];
  return r;
};

describe('summaryJson', () => {
  it('summaryJson(r) flattens the run into the documented keys, with each flow\'s own variant and the Jain index of their goodputs', () => {
    const r = run();
    const j = summaryJson(r);
    expect(Object.keys(j).sort()).toEqual(
      ['engine', 'status', 'variant', 'scenario', 'seed', 'durationS', 'mssBytes', 'flows', 'goodputBps', 'throughputBps', 'meanCwndBytes', 'meanCwndSegments', 'retransmits', 'timeouts', 'fastRecoveries', 'lossRate', 'jainIndex', 'drops', 'queueDiscipline', 'queueDelay', 'events', 'wallS', 'perFlow'].sort(),
    );
    expect(j).toMatchObject({ engine: 'packet', status: 'ok', variant: 'reno', scenario: 'ns3-lossy', seed: r.spec.seed, durationS: 10, mssBytes: 340, flows: 2, goodputBps: 50_000, timeouts: 2, fastRecoveries: 7 });
    expect(j.perFlow.map((f) => f.variant)).toEqual(['reno', 'cubic']);
    expect(j.jainIndex).toBeCloseTo((50_000 ** 2) / (2 * (20_000 ** 2 + 30_000 ** 2)), 12); // 0.9615
    expect(j.jainIndex).toBe(jainIndex(r.flows.map((f) => f.summary.goodputBps)));
    expect(j.events).toBe(r.stats.events ?? null);
    expect('failure' in j).toBe(false);
  });
  it('summaryJson(r) of a failed run carries its reason', () => {
    const r = { ...run(), status: 'failed' as const, failure: 'step size underflow' };
    expect(summaryJson(r)).toMatchObject({ status: 'failed', failure: 'step size underflow' });
  });
  it('jainIndex(xs) is 1 for equal shares, 1/n for one flow taking all, null when nothing was delivered', () => {
    expect(jainIndex([3, 3, 3])).toBe(1);
    expect(jainIndex([5, 0, 0, 0])).toBe(0.25);
    // (1 + 3)^2 / (2 (1 + 9)) = 0.8
    expect(jainIndex([1, 3])).toBeCloseTo(0.8, 15);
    expect(jainIndex([0, 0])).toBeNull();
  });
});

describe('tracesCsv', () => {
  it('tracesCsv(r) writes one tidy row per recorded point: flow, series, tS, value; the queue with an empty flow', () => {
    const r = run();
    const lines = tracesCsv(r).trimEnd().split('\n');
    expect(lines[0]).toBe('flow,series,tS,value');
    const f0 = r.flows[0]!.trace;
    expect(lines).toContain(`0,cwndBytes,${f0.cwndBytes.t[1]},${f0.cwndBytes.v[1]}`);
    const points = r.flows.reduce((a, f) => a + Object.values(f.trace).reduce((b, s) => b + s.t.length, 0), 0) + r.queue.packets.t.length;
    expect(lines).toHaveLength(1 + points);
    expect(lines.filter((l) => l.startsWith(',queuePackets,'))).toHaveLength(r.queue.packets.t.length);
  });
});
