import { describe, expect, it } from 'vitest';
import { fluidSystem, runFluid } from '../../src/fluid/run/runFluid.js';
import { UNLIMITED_SEGMENTS } from '../../src/fluid/run/scenarioMap.js';
import { presetScenario } from '../../src/scenario/presets.js';
import type { Scenario } from '../../src/scenario/types.js';
import type { Variant } from '../../src/variants.js';
import { payloadBps, together } from './together.js';

describe('fluid engine, many flows starting at the same instant (issue 9)', () => {
  it('50 Reno flows from t = 0, each its own state: the link is not exceeded and every flow leaves slow start', () => {
    const s = together(new Array<Variant>(50).fill('reno'), 0.02, 10);
    const r = runFluid(s, { aggregate: false });
    expect(r.status, r.failure).toBe('ok');
    // Before the fix only flow 0 left slow start and the others sent 174x the link rate.
    expect(r.summary.throughputBps).toBeLessThanOrEqual(payloadBps(s) * (1 + 1e-6));
    expect(r.summary.goodputBps).toBeLessThanOrEqual(r.summary.throughputBps);
    // Sending from 0 to 7.1 s (the app stops 2.9 s early) of 10 s: the link is full while they send.
    expect(r.summary.goodputBps / payloadBps(s)).toBeGreaterThan(0.65);
    for (const f of r.flows) {
      expect(Math.min(...f.trace.ssthreshBytes.v)).toBeLessThan(UNLIMITED_SEGMENTS * s.mssBytes);
      // Identical flows get identical shares.
      expect(Math.abs(f.summary.goodputBps / (r.summary.goodputBps / 50) - 1)).toBeLessThan(1e-6);
    }
  });

  it('identical flows merged into one block (the default) give what separate blocks give, for a state the size of one flow', () => {
    const s = together(new Array<Variant>(10).fill('cubic'), 0.02, 10);
    const merged = runFluid(s);
    const apart = runFluid(s, { aggregate: false });
    expect(merged.status).toBe('ok');
    expect(apart.status).toBe('ok');
    for (let i = 0; i < 10; i++) {
      expect(Math.abs(merged.flows[i]!.summary.goodputBps / apart.flows[i]!.summary.goodputBps - 1)).toBeLessThan(1e-3);
      expect(Math.abs(merged.flows[i]!.summary.meanCwndBytes / apart.flows[i]!.summary.meanCwndBytes - 1)).toBeLessThan(1e-3);
      expect(merged.flows[i]!.summary.fastRecoveries).toBe(apart.flows[i]!.summary.fastRecoveries);
    }
    expect(Math.abs(merged.summary.drops.queue - apart.summary.drops.queue)).toBeLessThanOrEqual(0.001 * apart.summary.drops.queue + 1);
    const one = fluidSystem(together(['cubic'], 0.02, 10));
    const thousand = fluidSystem(together(new Array<Variant>(1000).fill('cubic'), 0.02, 10));
    expect(thousand.layout.n).toBe(one.layout.n);
    expect(thousand.groups[0]!.members).toHaveLength(1000);
  });

  it('flows with random loss thresholds (Poisson mode, hybrid model) are never merged: their loss times differ', () => {
    const s = together(['cubic', 'cubic', 'reno', 'reno'], 0.02, 10);
    const c = fluidSystem(s).layout;
    const poisson = fluidSystem(s, { lossProcess: 'poisson' });
    // cubic draws thresholds (expdraw), reno is mean-field: the two Reno flows still share a block.
    expect(poisson.groups.map((g) => g.members)).toEqual([[0], [1], [2, 3]]);
    expect(c.blocks).toBe(2);
  });
});

describe('StateLayout', () => {
  it('owns the offsets of blocks of different models: [q, ... | cubic | reno] in Y, [delay, A, outputs | R, outputs ...] in Z', () => {
    const sys = fluidSystem(together(['cubic', 'reno'], 0.02, 5));
    const { layout } = sys;
    const [cubic, reno] = sys.groups.map((g) => g.system);
    const nb = cubic!.nb;
    expect(layout.off(0)).toBe(nb);
    expect(layout.off(1)).toBe(nb + cubic!.nf);
    expect(layout.n).toBe(nb + cubic!.nf + reno!.nf);
    expect(layout.zo(0)).toBe(2 + cubic!.nbo);
    expect(layout.zo(1)).toBe(2 + cubic!.nbo + 1 + cubic!.nfo);
    expect(layout.zSize).toBe(layout.zo(1) + 1 + reno!.nfo);
    expect(layout.zFlow(1, 'R')).toBe(layout.zo(1));
    expect(layout.zFlow(1, 'cwnd')).toBe(layout.zo(1) + 1 + reno!.flow.outputs.findIndex((o) => o.name === 'cwnd'));
    expect(layout.yFlow(0, 'W')).toBe(nb + cubic!.flow.states.findIndex((st) => st.name === 'W'));
    expect(layout.yBottleneck('q')).toBe(cubic!.bottleneck.states.findIndex((st) => st.name === 'q'));
    expect(layout.zBottleneck('p')).toBe(2 + cubic!.bottleneck.outputs.findIndex((o) => o.name === 'p'));
    expect(layout.zFlow(0, 'nosuch')).toBe(-1);
    // The snapshot's A is the sum of the blocks' rates (times their multiplicities).
    const Z = sys.snapshot(1, sys.problem.y0, new Float64Array(layout.zSize));
    expect(Z[layout.zBottleneck('A')]).toBeCloseTo(Z[layout.zFlow(0, 'rate')]! + Z[layout.zFlow(1, 'rate')]!, 12);
  });
});

describe('fluid engine, mixed variants (each flow its own model, coupled through the queue)', () => {
  it('CUBIC vs Reno: a little ahead at 10 ms RTT (Reno-friendly region), CUBIC ahead at 100 ms; flow order does not matter', () => {
    const share = (r: { flows: { summary: { goodputBps: number } }[]; summary: { goodputBps: number } }, i: number): number =>
      r.flows[i]!.summary.goodputBps / r.summary.goodputBps;
    const short = runFluid(together(['cubic', 'reno'], 0.01, 60));
    expect(short.status).toBe('ok');
    // Friendly region: CUBIC's beta = 0.7 cut with its Reno-equivalent increase keeps it a little ahead on
    // synchronised drop-tail losses (fluid 58.5%; against the packet engine's 57.2% in flows-agreement.test.ts).
    expect(share(short, 0)).toBeGreaterThan(0.5);
    const long = runFluid(together(['cubic', 'reno'], 0.1, 60));
    const swapped = runFluid(together(['reno', 'cubic'], 0.1, 60));
    expect(long.status).toBe('ok');
    // Issue 9: within 10 points of the packet engine's share, 62.3% at 100 ms (measured on this
    // scenario, one run: no random loss; not run here, 12 s of CPU). The fluid CUBIC has HyStart's ACK
    // train (models/cubic.model.yaml): 71.7%; without it both flows slow-start into the overflow and
    // CUBIC keeps 77%.
    expect(share(long, 0)).toBeGreaterThan(0.5);
    expect(Math.abs(share(long, 0) - 0.623)).toBeLessThan(0.1);
    // The same system with its blocks in the other order.
    expect(Math.abs(swapped.flows[1]!.summary.goodputBps / long.flows[0]!.summary.goodputBps - 1)).toBeLessThan(1e-6);
    expect(Math.abs(swapped.flows[0]!.summary.goodputBps / long.flows[1]!.summary.goodputBps - 1)).toBeLessThan(1e-6);
    // Together they fill the link while they send (50 of 60 s after the first slow start) and never exceed it.
    for (const r of [short, long]) {
      const s = r.spec;
      expect(r.summary.throughputBps).toBeLessThanOrEqual(payloadBps(s) * (1 + 1e-6));
      expect(r.summary.goodputBps / payloadBps(s)).toBeGreaterThan(0.85);
    }
    // The hybrid CUBIC model counts its loss events; Reno's mean-field count is the expected one.
    expect(long.flows[0]!.summary.fastRecoveries).toBeGreaterThan(0);
  });

  it('a run parameter must belong to one of the run\'s models, and reaches only the models that have it', () => {
    const s = together(['cubic', 'reno'], 0.02, 5);
    expect(() => runFluid(s, { params: { nosuch: 1 } })).toThrow(/params\.nosuch is not a parameter of cubic\.model\.yaml or reno\.model\.yaml/);
    // segmentCounting is Reno's (not CUBIC's): accepted, and it changes the Reno flow.
    const base = runFluid(s);
    const off = runFluid(s, { params: { segmentCounting: 0 } });
    expect(off.status).toBe('ok');
    expect(off.flows[1]!.summary.goodputBps).not.toBe(base.flows[1]!.summary.goodputBps);
  });
});
