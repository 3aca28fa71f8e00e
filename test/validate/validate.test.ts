import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flowPath, packetBits } from '../../src/scenario/path.js';
import type { RunRecord } from '../../src/runs/execute.js';
import { mathisWindow } from '../../src/theory/closedForms.js';
import { DEFAULT_GRID, expandGrid, pointRows, pointScenario, runLength, runValidate, summarise } from '../../src/validate/index.js';
import { randomLossEvents } from '../../src/validate/grid.js';
import { keyParts } from '../../src/runs/execute.js';
import { cacheKey } from '../../src/runs/cache.js';
import { emptySummary } from '../../src/runs/compact.js';
import { runEngine as fakeEngine } from '../sweep/fixtures/fakeEngine.js';
import { tmp } from '../sweep/helpers.js';

describe('the validate grid', () => {
  it('is 7 variants (bbr and bbr3 among them) x 5 losses x 4 RTTs, 5 packet seeds + 1 fluid run per point, the seeds shared across variants', () => {
    const { points, runs } = expandGrid({ ...DEFAULT_GRID });
    expect(DEFAULT_GRID.variants).toContain('bbr');
    expect(DEFAULT_GRID.variants).toContain('bbr3');
    expect(points).toHaveLength(140);
    expect(runs).toHaveLength(840);
    const seedsAt = (variant: string) => runs.filter((r) => r.variant === variant && r.engine === 'packet' && r.point[0] === 1e-3 && r.point[1] === 0.1).map((r) => r.seed);
    expect(seedsAt('reno')).toHaveLength(5);
    expect(new Set(seedsAt('reno')).size).toBe(5);
    expect(seedsAt('cubic')).toEqual(seedsAt('reno'));
  });
  it("runs the hybrid models with random loss thresholds (tahoe, cubic) once per packet seed with Poisson loss events, cached by seed; the others (bbr's and bbr3's hybrid models draw none) once", () => {
    const hybrid = randomLossEvents();
    // The grid's points are one flow on drop-tail: Reno's lone-flow model is for active queues only.
    expect(DEFAULT_GRID.variants.filter((v) => hybrid(pointScenario(v, 1e-3, 0.1, 100e6, 20))).sort()).toEqual(['cubic', 'tahoe']);
    const { runs } = expandGrid({ ...DEFAULT_GRID }, hybrid);
    expect(runs).toHaveLength(140 * 5 + 100 * 1 + 40 * 5);
    const at = (variant: string, engine: string) => runs.filter((r) => r.variant === variant && r.engine === engine && r.point[0] === 1e-3 && r.point[1] === 0.1);
    const fluid = at('cubic', 'fluid');
    expect(fluid.map((r) => r.seed)).toEqual(at('cubic', 'packet').map((r) => r.seed));
    expect(fluid.every((r) => r.lossProcess === 'poisson')).toBe(true);
    expect(at('reno', 'fluid')).toHaveLength(1);
    expect(at('reno', 'fluid')[0]!.lossProcess).toBeUndefined();
    // Poisson runs are keyed by their seed; deterministic fluid runs are not (one run serves all seeds).
    const keys = fluid.map((r) => cacheKey(keyParts(r, 'v')));
    expect(new Set(keys).size).toBe(5);
    const periodic = { ...fluid[0]!, lossProcess: undefined };
    expect(cacheKey(keyParts(periodic, 'v'))).not.toBe(keys[0]);
    expect(cacheKey(keyParts({ ...periodic, seed: 7, scenario: { ...periodic.scenario, seed: 7 } }, 'v'))).toBe(cacheKey(keyParts(periodic, 'v')));
  });
  it('points sit on a 100 Mbit/s bottleneck with 1 Gbit/s access, a one-BDP buffer and a receive window that never limits', () => {
    const s = pointScenario('newreno', 1e-4, 0.3, 100e6, 20);
    const path = flowPath(s);
    expect(path.tightest.role).toBe('bottleneck');
    expect(path.propagationRttS).toBeCloseTo(0.3, 12);
    expect(s.flows[0]!.access.bandwidthBps).toBe(1e9);
    expect(s.bottleneck.queue.limitPackets).toBe(Math.ceil(path.bdpPackets));
    expect(s.tcp.rcvBufBytes / s.mssBytes).toBeGreaterThan(2 * (path.bdpPackets + s.bottleneck.queue.limitPackets));
    expect(s.bottleneck.loss).toEqual({ rate: 1e-4, direction: 'data' });
  });
  it('runLength leaves 1.5 x 200 loss events after the measurement start for a loss-limited point at p = 1e-3 (one per 1/p packets; 20 at p = 1e-5)', () => {
    const s = pointScenario('newreno', 1e-3, 0.1, 100e6, 20);
    const len = runLength(s, 20);
    // Loss-limited: Mathis' window with b = 2 fits in BDP + buffer, so events come at x p per second.
    const w = mathisWindow(1e-3, 2);
    const R = flowPath(s).baseRttS;
    expect(w).toBeLessThan((100e6 / packetBits(s)) * R);
    expect(len.eventRatePerS).toBeCloseTo((w / R) * 1e-3, 9);
    expect(s.durationS - s.measureFromS).toBeCloseTo((1.5 * 200) / len.eventRatePerS, 2);
    const rare = pointScenario('newreno', 1e-5, 0.1, 100e6, 20);
    const lr = runLength(rare, 20);
    expect(rare.durationS - rare.measureFromS).toBeCloseTo((1.5 * 20) / lr.eventRatePerS, 2);
    expect(s.measureFromS).toBeGreaterThan(len.slowStartS);
  });
  it('runLength counts buffer overflows when the loss-limited window does not fit (NewReno at p = 1e-5, RTT 10 ms: sawtooth of (BDP + B)/2 x b RTTs)', () => {
    const s = pointScenario('newreno', 1e-5, 0.01, 100e6, 20);
    const len = runLength(s, 20);
    const path = flowPath(s);
    const C = 100e6 / packetBits(s);
    const wCap = C * path.baseRttS + s.bottleneck.queue.limitPackets;
    const rAvg = path.baseRttS + s.bottleneck.queue.limitPackets / (2 * C);
    const random = Math.min(C * 1e-5, 1 / rAvg);
    expect(len.eventRatePerS).toBeCloseTo(random + 1 / (0.5 * wCap * 2 * rAvg), 9);
  });
});

/** A finished packet or fluid run of `pointId` with the given summary figures. */
function record(pointId: string, engine: 'packet' | 'fluid', o: { goodputBps: number; meanCwndSegments: number; fastRecoveries?: number; timeouts?: number }): RunRecord {
  const summary = { ...emptySummary(), goodputBps: o.goodputBps, meanCwndSegments: o.meanCwndSegments, fastRecoveries: o.fastRecoveries ?? 40, timeouts: o.timeouts ?? 0 };
  return { spec: { pointId, engine } as RunRecord['spec'], result: { status: 'ok', summary, flowGoodputBps: [o.goodputBps], wallS: 0.1 }, cached: false };
}

describe('the agreement table', () => {
  const grid = { ...DEFAULT_GRID, variants: ['reno' as const], losses: [1e-3, 1e-2], rttsS: [0.1], seeds: 3 };
  const { points } = expandGrid(grid);
  it('takes the packet median over seeds, the error of the fluid run and its median and 90th percentile |error| inside the region', () => {
    const [a, b] = points;
    const records = [
      record(a!.pointId, 'packet', { goodputBps: 90, meanCwndSegments: 30 }),
      record(a!.pointId, 'packet', { goodputBps: 100, meanCwndSegments: 40 }),
      record(a!.pointId, 'packet', { goodputBps: 130, meanCwndSegments: 50 }),
      record(a!.pointId, 'fluid', { goodputBps: 110, meanCwndSegments: 36 }),
      ...[1, 2, 3].map(() => record(b!.pointId, 'packet', { goodputBps: 50, meanCwndSegments: 10 })),
      record(b!.pointId, 'fluid', { goodputBps: 40, meanCwndSegments: 10 }),
    ];
    const rows = pointRows(points, records, 20);
    expect(rows[0]!.packetGoodputBps).toBe(100);
    expect(rows[0]!.fluidGoodputErr).toBeCloseTo(0.1, 12);
    expect(rows[0]!.fluidCwndErr).toBeCloseTo(-0.1, 12);
    expect(rows[1]!.fluidGoodputErr).toBeCloseTo(-0.2, 12);
    const fluid = summarise(rows).find((s) => s.model === 'fluid')!;
    expect(fluid.insideShare).toBe(1);
    expect(fluid.medianAbsGoodputErr).toBeCloseTo(0.15, 12); // the median of {0.1, 0.2}
    expect(fluid.p90AbsGoodputErr).toBeCloseTo(0.19, 12); // interpolated between the order statistics
    expect(fluid.medianAbsCwndErr).toBeCloseTo(0.05, 12); // {0.1, 0}
    // Seed ranges: point b's seeds agree (error 0.2 in every resample); point a's median is 90, 100 or
    // 130 in a resample (error 0.222, 0.1, 0.154), so the median over the two points is 0.15, 0.177 or 0.211.
    const [lo, hi] = fluid.medianAbsGoodputErrRange!;
    expect(lo).toBeGreaterThanOrEqual(0.15 - 1e-12);
    expect(hi).toBeLessThanOrEqual((0.2 + 20 / 90) / 2 + 1e-12);
    expect(hi).toBeGreaterThan(lo);
    expect(summarise(rows).find((s) => s.model === 'fluid')!.medianAbsGoodputErrRange).toEqual([lo, hi]); // seeded
    const agreeing = summarise(pointRows([b!], records, 20)).find((s) => s.model === 'fluid')!;
    expect(agreeing.medianAbsGoodputErrRange![0]).toBeCloseTo(0.2, 12);
    expect(agreeing.medianAbsGoodputErrRange![1]).toBeCloseTo(0.2, 12);
  });
  it("compares the median of a point's fluid runs when there are several (hybrid models), and trusts none if one failed", () => {
    const [a] = points;
    const packets = [90, 100, 130].map((g) => record(a!.pointId, 'packet', { goodputBps: g, meanCwndSegments: 30 }));
    const fluids = [80, 120, 110].map((g) => record(a!.pointId, 'fluid', { goodputBps: g, meanCwndSegments: 20 }));
    const row = pointRows([a!], [...packets, ...fluids], 20)[0]!;
    expect(row.fluidGoodputBps).toBe(110);
    expect(row.fluidGoodputErr).toBeCloseTo(0.1, 12);
    const broken = { ...fluids[1]!, result: { ...fluids[1]!.result, status: 'failed' as const } };
    const bad = pointRows([a!], [...packets, fluids[0]!, broken, fluids[2]!], 20)[0]!;
    expect(bad.fluidStatus).toBe('failed');
    expect(bad.fluidInside).toBe(false);
  });
  it('puts a point outside the fluid region with its reason: too few packets per RTT, too few loss events; timeouts alone do not (the models have them)', () => {
    const [a, b] = points;
    const records = [
      ...[1, 2, 3].map(() => record(a!.pointId, 'packet', { goodputBps: 50, meanCwndSegments: 1.5, fastRecoveries: 5, timeouts: 30 })),
      record(a!.pointId, 'fluid', { goodputBps: 40, meanCwndSegments: 10 }),
      ...[1, 2, 3].map(() => record(b!.pointId, 'packet', { goodputBps: 50, meanCwndSegments: 10, fastRecoveries: 12 })),
      record(b!.pointId, 'fluid', { goodputBps: 40, meanCwndSegments: 10 }),
    ];
    const rows = pointRows(points, records, 20);
    expect(rows[0]!.fluidInside).toBe(false);
    expect(rows[0]!.fluidReasons).toBe('1.5 packets per RTT (< 2)');
    expect(rows[1]!.fluidReasons).toBe('12 loss events in the run (< 20 after the first slow start)');
    // 30 timeouts of 35 loss reactions at 3 packets per RTT: inside.
    const timeouts = [...[1, 2, 3].map(() => record(a!.pointId, 'packet', { goodputBps: 50, meanCwndSegments: 3, fastRecoveries: 5, timeouts: 30 })), record(a!.pointId, 'fluid', { goodputBps: 40, meanCwndSegments: 10 })];
    expect(pointRows(points, timeouts, 20)[0]!.fluidInside).toBe(true);
    expect(summarise(rows).find((s) => s.model === 'fluid')!.medianAbsGoodputErr).toBeNull();
  });
  it('runValidate runs through the sweep machinery, writes the page and CSVs, and a second run comes from the cache', async () => {
    const out = tmp('cclab-validate-');
    const cacheDir = join(out, 'cache');
    const first = await runValidate({ grid, outDir: out, cacheDir, workers: 0, engine: fakeEngine, codeVersion: () => 'validate-test' });
    expect(first.records).toHaveLength(2 * 4);
    expect(first.summary!.map((s) => `${s.variant}/${s.model}`)).toEqual(['reno/fluid', 'reno/closed-form']);
    for (const f of ['index.html', 'points.csv', 'summary.csv', 'charts/errors.vl.json']) expect(existsSync(join(out, f))).toBe(true);
    expect(readFileSync(join(out, 'points.csv'), 'utf8').split('\n')[0]).toMatch(/^variant,loss,rttS,durationS,measureFromS,seeds/);
    const second = await runValidate({ grid, cacheDir, workers: 0, engine: fakeEngine, codeVersion: () => 'validate-test' });
    expect(second.records.every((r) => r.cached)).toBe(true);
    expect(second.summary).toEqual(first.summary);
    const shard = await runValidate({ grid, cacheDir: null, workers: 0, engine: fakeEngine, shard: { index: 1, count: 2 } });
    expect(shard.records).toHaveLength(4);
    expect(shard.summary).toBeNull();
  });
});
