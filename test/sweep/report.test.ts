import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { elasticities, reportRows, theoryRows, winners } from '../../src/sweep/analysis.js';
import { headlineAxis } from '../../src/runs/axes.js';
import { aggregatePoints } from '../../src/sweep/points.js';
import { sweepReport } from '../../src/sweep/report.js';
import { runSweep } from '../../src/sweep/sweep.js';
import { closedForms } from '../../src/theory/closedForms.js';
import { fairSharePayloadBps } from '../../src/scenario/path.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { runEngine as fakeEngine } from './fixtures/fakeEngine.js';
import { smallPlan, tmp } from './helpers.js';

const opts = { cacheDir: null, workers: 0, engine: fakeEngine, codeVersion: () => 'report-test' } as const;
// Loss-limited everywhere: Mathis goodput stays far below the 10 Mbps access link.
const plan = smallPlan({
  axes: [headlineAxis('loss', '1e-3..1e-1:log:5'), headlineAxis('rtt', '50ms..400ms:log:4')],
  reps: 4,
});

describe('sweep analysis', () => {
  it('elasticities recover the fake engine’s power law: -1/2 in p, -1 in RTT', async () => {
    const { records } = await runSweep(plan, { ...opts, outDir: tmp() });
    const rows = reportRows(plan, aggregatePoints(records));
    const e = elasticities(rows);
    const fluidLoss = e.find((x) => x.variant === 'reno' && x.engine === 'fluid' && x.wrt === 'loss')!;
    expect(fluidLoss.lines).toBe(4);
    expect(fluidLoss.median).toBeCloseTo(-0.5, 9);
    expect(fluidLoss.theory).toBe(-0.5);
    expect(e.find((x) => x.variant === 'reno' && x.engine === 'fluid' && x.wrt === 'rtt')!.median).toBeCloseTo(-1, 9);
    // Packet runs carry ±5% noise: the fit lands near, not on, the law.
    expect(e.find((x) => x.variant === 'reno' && x.engine === 'packet' && x.wrt === 'loss')!.median).toBeCloseTo(-0.5, 1);
    expect(e.find((x) => x.variant === 'cubic' && x.wrt === 'loss')!.theory).toBe(-0.75);
  });
  it('winners picks the variant with the highest goodput (the fake gives cubic 1.3x reno)', async () => {
    const { records } = await runSweep(plan, { ...opts, outDir: tmp() });
    const w = winners(reportRows(plan, aggregatePoints(records)));
    expect(w).toHaveLength(20 * 2);
    for (const x of w) {
      expect(x.winner).toBe('cubic');
      expect(x.margin!).toBeGreaterThan(0.15);
    }
  });
  it('theoryRows carry src/theory\'s predictions: capped at the fair share where the link limits (CUBIC on lfn at p = 1e-6)', () => {
    const base = presetScenario('ns3-lfn', 'reno');
    const p = smallPlan({ axes: [headlineAxis('loss', '1e-6,1e-2')], reps: 1 });
    p.base = base;
    p.variants = ['reno', 'cubic'];
    const rows = theoryRows(p, [{ pointId: 'a', point: [1e-6] }, { pointId: 'b', point: [1e-2] }], closedForms);
    const cubicLow = rows.find((r) => r.variant === 'cubic' && r.loss === 1e-6)!;
    expect(cubicLow.regime).toBe('link-limited');
    expect(cubicLow.goodputBps).toBeCloseTo(fairSharePayloadBps(base) * (1 - 1e-6), 3);
    const mathis = rows.find((r) => r.variant === 'reno' && r.loss === 1e-2 && r.formula === 'mathis')!;
    expect(mathis.regime).toBe('loss-limited');
    const s = { ...base, variant: 'reno' as const };
    s.bottleneck = { ...s.bottleneck, loss: { ...s.bottleneck.loss, rate: 1e-2 } };
    expect(mathis.goodputBps).toBe(closedForms(s).find((c) => c.formula === 'mathis')!.goodputBps);
  });
});

describe('sweepReport', () => {
  it('writes index.html with every section and compiled charts, and their .vl.json specs', async () => {
    const outDir = tmp();
    await runSweep(plan, { ...opts, outDir, report: (p, r) => sweepReport(p, r, closedForms) });
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    for (const id of ['setup', 'maps', 'vs-loss', 'vs-rtt', 'winners', 'elasticities', 'method']) expect(html).toContain(`<section id="${id}">`);
    expect(html).not.toContain('id="failures"');
    expect((html.match(/<figure class="chart"/g) ?? []).length).toBe(6);
    expect(existsSync(join(outDir, 'charts', 'map-sim-0.vl.json'))).toBe(true);
    expect(html).not.toMatch(/<script[^>]+src=/);
  });
  it('lists failed runs and excludes them from statistics', async () => {
    process.env.FAKE_ENGINE_FAIL_LOSS = '0.1';
    try {
      const { records } = await runSweep(plan, { ...opts, outDir: tmp() });
      const page = await sweepReport(plan, records, closedForms);
      expect(page.html).toContain('<section id="failures">');
      const pts = aggregatePoints(records).filter((p) => p.point[0] === 0.1);
      for (const p of pts) expect([p.failed, p.goodputBps.n]).toEqual([p.runs, 0]);
    } finally {
      delete process.env.FAKE_ENGINE_FAIL_LOSS;
    }
  });
});

describe('elasticities in CUBIC’s cubic region', () => {
  it('leaves out CUBIC points the closed form places in the Reno-friendly region', async () => {
    const { records } = await runSweep(plan, { ...opts, outDir: tmp() });
    const rows = reportRows(plan, aggregatePoints(records));
    const all = elasticities(rows).find((x) => x.variant === 'cubic' && x.engine === 'fluid' && x.wrt === 'loss')!;
    const theory = rows.filter((r) => r.variant === 'cubic' && r.loss! >= 1e-2).map((r) => ({
      slice: r.slice, loss: r.loss, rttS: r.rttS, variant: 'cubic' as const, formula: 'cubic', title: '', goodputBps: 1, regime: 'loss-limited', note: 'Reno-friendly region',
    }));
    const cubicOnly = elasticities(rows, theory).find((x) => x.variant === 'cubic' && x.engine === 'fluid' && x.wrt === 'loss')!;
    expect(all.lines).toBe(4);
    // Only p = 1e-3 and 3.16e-3 remain on each RTT line: fewer than 3 points, no fit.
    expect(cubicOnly.lines).toBe(0);
    expect(elasticities(rows, theory).find((x) => x.variant === 'reno' && x.engine === 'fluid' && x.wrt === 'loss')!.lines).toBe(4);
  });
});

describe('sweepReport with extra axes', () => {
  it('draws one set of charts per slice of the other axes (flows=1, flows=2)', async () => {
    const p = smallPlan({ axes: [headlineAxis('loss', '1e-3..1e-1:log:3'), headlineAxis('rtt', '50ms,200ms'), headlineAxis('flows', '1,2')], reps: 2 });
    const { records } = await runSweep(p, { ...opts, outDir: tmp() });
    const page = await sweepReport(p, records, closedForms);
    expect(page.html).toContain('<h4>flows=1</h4>');
    expect(page.html).toContain('<h4>flows=2</h4>');
    expect(page.files.map((f) => f.path)).toEqual(expect.arrayContaining(['charts/map-sim-0.vl.json', 'charts/map-sim-1.vl.json', 'charts/vs-rtt-1.vl.json']));
  });
  it('a loss-only sweep has response charts and elasticities but no maps', async () => {
    const p = smallPlan({ axes: [headlineAxis('loss', '1e-3..1e-1:log:4')], reps: 2 });
    const { records } = await runSweep(p, { ...opts, outDir: tmp() });
    const page = await sweepReport(p, records, closedForms);
    expect(page.html).toContain('<section id="vs-loss">');
    expect(page.html).not.toContain('<section id="maps">');
    expect(page.html).toContain('<section id="elasticities">');
    const spec = JSON.parse(page.files.find((f) => f.path === 'charts/vs-loss-0.vl.json')!.text) as { data: { values: { panel: string }[] } };
    expect(spec.data.values.length).toBeGreaterThan(8);
    expect(new Set(spec.data.values.map((v) => v.panel))).toEqual(new Set(['base scenario']));
    const e = elasticities(reportRows(p, aggregatePoints(records)));
    expect(e.filter((x) => x.wrt === 'rtt')).toHaveLength(0);
    const fluid = e.find((x) => x.variant === 'reno' && x.engine === 'fluid')!;
    expect(fluid.lines).toBe(1);
    expect(fluid.median).toBeCloseTo(-0.5, 9);
  });
});
