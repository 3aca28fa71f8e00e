import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { executeRuns } from '../../src/runs/execute.js';
import { expandPlan } from '../../src/sweep/grid.js';
import { runSweep } from '../../src/sweep/sweep.js';
import { runEngine as fakeEngine } from './fixtures/fakeEngine.js';
import { FAKE_ENGINE_MODULE, smallPlan, tmp } from './helpers.js';

const codeVersion = () => 'test';

describe('executeRuns', () => {
  it('a 2-thread worker pool gives the same records, in plan order, as in-process', async () => {
    const runs = expandPlan(smallPlan());
    const inProc = await executeRuns(runs, { cacheDir: null, workers: 0, engine: fakeEngine, codeVersion });
    const pooled = await executeRuns(runs, { cacheDir: null, workers: 2, engineModule: FAKE_ENGINE_MODULE, codeVersion });
    expect(pooled.map((r) => r.spec.runId)).toEqual(runs.map((r) => r.runId));
    expect(pooled.map((r) => r.result.summary)).toEqual(inProc.map((r) => r.result.summary));
    // Replications differ (distinct seeds); the fluid fake is deterministic.
    const reps = inProc.filter((r) => r.spec.pointId === runs[0]!.pointId && r.spec.variant === 'reno' && r.spec.engine === 'packet');
    expect(new Set(reps.map((r) => r.result.summary.goodputBps)).size).toBe(3);
  });
  it('reuses the cache: a second run computes nothing; extending the grid computes only new points', async () => {
    const cacheDir = tmp();
    const plan = smallPlan();
    const first = await runSweep(plan, { cacheDir, workers: 0, engine: fakeEngine, codeVersion, outDir: tmp() });
    expect(first.cached).toBe(0);
    const again = await runSweep(plan, { cacheDir, workers: 0, engine: fakeEngine, codeVersion, outDir: tmp() });
    expect(again.cached).toBe(again.records.length);
    const bigger = smallPlan({ reps: 4 });
    const ext = await runSweep(bigger, { cacheDir, workers: 0, engine: fakeEngine, codeVersion, outDir: tmp() });
    expect(ext.records.length - ext.cached).toBe(6 * 2 * 1); // one new packet replication per point and variant
  });
  it('records a throwing run as failed and does not cache it', async () => {
    const cacheDir = tmp();
    const runs = expandPlan(smallPlan({ engines: ['packet'], reps: 1 }));
    let calls = 0;
    const flaky = (e: 'packet' | 'fluid', s: Parameters<typeof fakeEngine>[1]) => {
      calls++;
      if (s.bottleneck.loss.rate === 1e-3) throw new Error('boom');
      return fakeEngine(e, s);
    };
    const out = await executeRuns(runs, { cacheDir, workers: 0, engine: flaky, codeVersion });
    const failed = out.filter((r) => r.result.status === 'failed');
    expect(failed).toHaveLength(4);
    expect(failed[0]!.result.failure).toBe('threw: boom');
    calls = 0;
    await executeRuns(runs, { cacheDir, workers: 0, engine: flaky, codeVersion });
    expect(calls).toBe(4);
  });
  it('writes runs.csv with one tidy row per run and points.csv with Student-t intervals', async () => {
    const outDir = tmp();
    await runSweep(smallPlan(), { cacheDir: null, workers: 0, engine: fakeEngine, codeVersion, outDir });
    const runsCsv = readFileSync(join(outDir, 'runs.csv'), 'utf8').trim().split('\n');
    expect(runsCsv[0]).toMatch(/^runId,pointId,loss,rttS,variant,engine,rep,seed,status,goodputBps,/);
    expect(runsCsv).toHaveLength(1 + 48);
    const points = readFileSync(join(outDir, 'points.csv'), 'utf8').trim().split('\n');
    expect(points).toHaveLength(1 + 6 * 2 * 2);
    const header = points[0]!.split(',');
    const row = points.find((l) => l.includes(',reno,packet,'))!.split(',');
    const get = (k: string) => Number(row[header.indexOf(k)]);
    expect(get('n')).toBe(3);
    const half = get('goodputCi95High') - get('goodputMean');
    expect(half).toBeCloseTo((4.302652729 * get('goodputSd')) / Math.sqrt(3), 3);
  });
});

describe('deterministic engines', () => {
  it('compute a fluid scenario once across points that differ only in a parameter the variant ignores', async () => {
    const { setAxis } = await import('../../src/runs/axes.js');
    const plan = smallPlan({ engines: ['fluid'] });
    const runs = expandPlan({ ...plan, axes: [setAxis(plan.base, 'ccParams.beta=0.5,0.6,0.7')] });
    const calls: string[] = [];
    const counting = (e: 'packet' | 'fluid', s: Parameters<typeof fakeEngine>[1]) => {
      calls.push(s.variant);
      return fakeEngine(e, s);
    };
    const out = await executeRuns(runs, { cacheDir: tmp(), workers: 0, engine: counting, codeVersion });
    expect(out).toHaveLength(6);
    expect(calls.filter((v) => v === 'reno')).toHaveLength(1);
    expect(calls.filter((v) => v === 'cubic')).toHaveLength(3);
  });
});
