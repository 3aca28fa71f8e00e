import { describe, expect, it } from 'vitest';
import { headlineAxis } from '../../src/runs/axes.js';
import { expandPlan, gridPoints, planHash } from '../../src/sweep/grid.js';
import { deriveSeed } from '../../src/runs/seed.js';
import { inShard, parseShard } from '../../src/runs/shard.js';
import { smallPlan } from './helpers.js';

describe('deriveSeed', () => {
  it('deriveSeed(seed, point, rep) is deterministic', () => {
    expect(deriveSeed(42, { loss: 1e-3, rttS: 0.1 }, 2)).toBe(deriveSeed(42, { rttS: 0.1, loss: 1e-3 }, 2));
  });
  it('deriveSeed gives distinct positive int32 seeds over 20 x 20 points x 10 reps', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 20; i++) for (let j = 0; j < 20; j++) for (let r = 0; r < 10; r++) {
      const s = deriveSeed(7, { loss: i, rttS: j }, r);
      expect(s).toBeGreaterThan(0);
      expect(s).toBeLessThan(2 ** 31);
      seen.add(s);
    }
    expect(seen.size).toBe(4000);
  });
  it('deriveSeed changes with the sweep seed', () => {
    expect(deriveSeed(1, { loss: 1e-3 }, 0)).not.toBe(deriveSeed(2, { loss: 1e-3 }, 0));
  });
});

describe('expandPlan', () => {
  it('expands points x variants x engines x reps, fluid once per point (deterministic engine)', () => {
    const runs = expandPlan(smallPlan());
    expect(gridPoints(smallPlan().axes)).toHaveLength(6);
    expect(runs).toHaveLength(6 * 2 * (3 + 1));
    expect(new Set(runs.map((r) => r.runId)).size).toBe(runs.length);
    expect(runs.map((r) => r.index)).toEqual(runs.map((_, i) => i));
    expect(runs[0]!.runId).toMatch(/^p[0-9a-f]{10}-reno-packet-r0$/);
  });
  it('puts each run’s seed, variant and swept values into its scenario', () => {
    for (const r of expandPlan(smallPlan())) {
      expect(r.scenario.seed).toBe(r.seed);
      expect(r.scenario.variant).toBe(r.variant);
      expect(r.scenario.bottleneck.loss.rate).toBe(r.point[0]);
    }
  });
  it('shares seeds across variants and engines at a point and replication (common random numbers)', () => {
    const runs = expandPlan(smallPlan());
    const a = runs.find((r) => r.variant === 'reno' && r.engine === 'packet' && r.rep === 1)!;
    const b = runs.find((r) => r.pointId === a.pointId && r.variant === 'cubic' && r.engine === 'packet' && r.rep === 1)!;
    expect(b.seed).toBe(a.seed);
  });
  it('keeps run ids and seeds when the grid is extended', () => {
    const small = expandPlan(smallPlan());
    const big = expandPlan(smallPlan({ axes: [headlineAxis('loss', '1e-4..1e-2:log:5'), headlineAxis('rtt', '20ms,200ms,400ms')] }));
    const bigIds = new Map(big.map((r) => [r.runId, r.seed]));
    for (const r of small) expect(bigIds.get(r.runId)).toBe(r.seed);
  });
  it('planHash changes with any plan input', () => {
    expect(planHash(smallPlan())).toBe(planHash(smallPlan()));
    expect(planHash(smallPlan({ reps: 4 }))).not.toBe(planHash(smallPlan()));
    expect(planHash(smallPlan({ seed: 43 }))).not.toBe(planHash(smallPlan()));
  });
});

describe('shards', () => {
  it('parseShard("2/4") is 1-based; 0/4, 5/4 and 2-4 are InputErrors', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '2-4', '/4', '1/0']) expect(() => parseShard(bad)).toThrow(/--shard/);
  });
  it.each([1, 2, 3, 5, 7])('the union of %i shards is the full grid and shards are disjoint', (n) => {
    const runs = expandPlan(smallPlan());
    const owner = runs.map((r) => [...Array(n).keys()].filter((i) => inShard(r.index, { index: i + 1, count: n })));
    for (const o of owner) expect(o).toHaveLength(1);
    // Balanced within one run.
    const sizes = [...Array(n).keys()].map((i) => owner.filter((o) => o[0] === i).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });
});

describe('expandPlan validation', () => {
  it('rejects a point whose scenario is invalid, naming the point', async () => {
    const { setAxis } = await import('../../src/runs/axes.js');
    const plan = smallPlan();
    const bad = { ...plan, axes: [...plan.axes, setAxis(plan.base, 'measureFromS=0,10')] };
    expect(() => expandPlan(bad)).toThrow(/sweep point .*measureFromS=10.*measureFromS must be below durationS/);
  });
});

describe('swept ccParams', () => {
  it('--set ccParams.beta applies to CUBIC and is dropped for Reno (which has no beta)', async () => {
    const { setAxis } = await import('../../src/runs/axes.js');
    const plan = smallPlan({ engines: ['fluid'] });
    const runs = expandPlan({ ...plan, axes: [setAxis(plan.base, 'ccParams.beta=0.5,0.7')] });
    for (const r of runs) {
      if (r.variant === 'cubic') expect(r.scenario.ccParams.beta).toBe(r.point[0]);
      else expect('beta' in r.scenario.ccParams).toBe(false);
    }
    const { cacheKey } = await import('../../src/runs/cache.js');
    const reno = runs.filter((r) => r.variant === 'reno').map((r) => cacheKey({ scenario: { ...r.scenario, seed: 0 }, engine: r.engine, seed: 0, codeVersion: 'x' }));
    expect(new Set(reno).size).toBe(1);
  });
});
