import { describe, expect, it } from 'vitest';
import { compactResult } from '../../src/runs/compact.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { presetScenario } from '../../src/scenario/presets.js';
import type { RunResult } from '../../src/result/types.js';
import type { Scenario } from '../../src/scenario/types.js';
import { simulate } from './helpers.js';

/**
 * RunOptions.record 'summary' (issue 24): the run leaves out its time series and queueing-delay
 * distributions, and everything else it returns is the same byte for byte as a run that records all.
 */
function withoutRecorded(r: RunResult): unknown {
  return {
    ...r,
    stats: { events: r.stats.events },
    flows: r.flows.map((f) => {
      const { queueDelay: _q, ...summary } = f.summary;
      return { summary };
    }),
    queue: { link: r.queue.link, discipline: r.queue.discipline },
  };
}

function normalCubic(): Scenario {
  return presetScenario('ns3-normal', 'cubic', { durationS: 6, seed: 4 });
}

function redDumbbell(): Scenario {
  const s = dumbbellScenario('newreno', 3);
  s.durationS = 4;
  s.measureFromS = 1;
  s.bottleneck.queue = { kind: 'red', limitPackets: 300, minThPackets: 30, maxThPackets: 90, maxP: 0.1, weight: 0.002, gentle: true };
  s.bottleneck.loss = { rate: 1e-4, direction: 'data' };
  return s;
}

describe("packet engine, record: 'summary'", () => {
  it.each([
    ['ns3-normal CUBIC, SACK', normalCubic],
    ['3 NewReno flows through RED, random loss, measured from 1 s', redDumbbell],
  ])('%s: the same counters, summaries and events as a full run; no series', (_name, make) => {
    const full = simulate(make()).result;
    const summary = simulate(make(), { record: 'summary' }).result;
    // The full run records something, so the comparison below is not of two empty runs.
    expect(full.flows[0]!.trace.cwndBytes.t.length).toBeGreaterThan(10);
    expect(full.queue.packets.t.length).toBeGreaterThan(10);
    expect(full.flows[0]!.summary.queueDelay?.packets).toBeGreaterThan(0);
    expect(full.stats.events).toBeGreaterThan(10_000);

    expect(JSON.stringify(withoutRecorded(summary))).toBe(JSON.stringify(withoutRecorded(full)));
    // What a sweep or replication keeps of a run is identical.
    expect(JSON.stringify({ ...compactResult(summary), wallS: 0 })).toBe(JSON.stringify({ ...compactResult(full), wallS: 0 }));
    for (const f of summary.flows) {
      expect(f.summary.queueDelay).toBeUndefined();
      for (const series of Object.values(f.trace)) expect(series).toEqual({ t: [], v: [] });
    }
    expect(summary.queue.packets).toEqual({ t: [], v: [] });
    expect(summary.queue.delayS).toEqual({ t: [], v: [] });
    expect(summary.queue.delay).toBeUndefined();
  });
});
