import { describe, expect, it } from 'vitest';
import { runComparison, type EngineSet } from '../../src/compare/index.js';
import { InputError } from '../../src/errors.js';
import { buildReport } from '../../src/report/build.js';
import { bufferBdpOf, bufferPoints, sharePoints } from '../../src/report/bufferSweep.js';
import { loadRecipe, parseRecipeText, resolveScenarios } from '../../src/report/recipe.js';
import { summarise } from '../../src/report/replicates.js';
import { compactResult } from '../../src/runs/compact.js';
import type { RunResult } from '../../src/result/types.js';
import { bdpPackets } from '../../src/scenario/path.js';
import type { Scenario } from '../../src/scenario/types.js';
import { closedForms } from '../../src/theory/closedForms.js';
import { hasEngine } from '../../src/variants.js';
import { syntheticRun } from '../compare/fixtures.js';
import { fakeEngines } from './fakeEngines.js';

const GRID = `
name: g
variants: [bbr, bbr3]
engines: [packet, fluid]
duration: 20s
charts: [buffers, shares]
grid:
  base:
    bottleneck: {bandwidthBps: 10e6, delayS: 0.018, queue: {kind: droptail, limitPackets: 10}}
    measureFromS: 5
  bufferBdp: [0.5, 2, 8]
  mixes:
    alone: [{}]
    cubic-x2: [{}, {variant: cubic}, {variant: cubic}]
`;

/**
 * A packet engine whose flow 0 (the variant under study) takes X / (X + 1) of a 10 Mbit/s link at a
 * buffer of X BDP, the rest split evenly; the queue delay is X x 10 ms. Known answers for the sections.
 */
function packet(s: Scenario): RunResult {
  const r = syntheticRun({ engine: 'packet', scenario: s, cwndSegments: { t: [0, s.durationS], v: [10, 10] }, goodputBps: 9e6 });
  const x = bufferBdpOf(s);
  const n = s.flows.length;
  const g = n === 1 ? [9e6] : [9e6 * (x / (x + 1)), ...Array.from({ length: n - 1 }, () => (9e6 / (x + 1)) / (n - 1))];
  r.flows = g.map((goodputBps, i) => ({ summary: { ...r.flows[0]!.summary, flowId: i, goodputBps }, trace: r.flows[0]!.trace }));
  r.queue.delay = { meanS: 0.01 * x, p99S: 0.02 * x, packets: 1000 };
  return r;
}

const engines: EngineSet = { runPacket: packet, runFluid: fakeEngines.runFluid, closedForms };

describe('recipe grid (mixes x buffers)', () => {
  it('expands to one scenario per mix x buffer, named <mix>-<X>bdp, the buffer X BDPs of flow 0\'s path', () => {
    const r = parseRecipeText(GRID, 'g.yaml');
    const ss = resolveScenarios(r);
    expect(ss.map((s) => s.name)).toEqual(['alone-0.5bdp', 'alone-2bdp', 'alone-8bdp', 'cubic-x2-0.5bdp', 'cubic-x2-2bdp', 'cubic-x2-8bdp']);
    // About 10 Mbit/s x 40 ms / (1500 x 8) = 33.3 packets (the path's own propagation RTT): X x that, rounded.
    const bdp = bdpPackets(ss[0]!);
    expect(bdp).toBeGreaterThan(33);
    expect(bdp).toBeLessThan(34);
    expect(ss.map((s) => s.bottleneck.queue.limitPackets)).toEqual([0.5, 2, 8, 0.5, 2, 8].map((x) => Math.round(x * bdp)));
    expect(ss[3]!.flows.map((f) => f.variant)).toEqual([undefined, 'cubic', 'cubic']);
    expect(ss.every((s) => s.measureFromS === 5 && s.durationS === 20)).toBe(true);
  });

  it.each([
    ['grid: {bufferBdp: [1], mixes: {a: [{}]}, extra: 1}', 'grid.extra'],
    ['grid: {bufferBdp: [], mixes: {a: [{}]}}', 'grid.bufferBdp'],
    ['grid: {bufferBdp: [0], mixes: {a: [{}]}}', 'grid.bufferBdp[0]'],
    ['grid: {bufferBdp: [1], mixes: {}}', 'grid.mixes'],
    ['grid: {bufferBdp: [1], mixes: {a: []}}', 'grid.mixes.a'],
    ['grid: {base: {flows: [{}]}, bufferBdp: [1], mixes: {a: [{}]}}', 'grid.base.flows'],
  ])('%s: one error naming %s', (text, field) => {
    let err: unknown;
    try {
      parseRecipeText(`name: g\nvariants: [bbr]\n${text}\n`, 'g.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).field).toBe(field);
  });

  it('the bbr recipe: 7 mixes x 7 buffers from 0.1 to 10 BDP, bbr and bbr3, the buffer and share sections', () => {
    const r = loadRecipe('reports/recipes/bbr.yaml');
    const ss = resolveScenarios(r);
    expect(ss).toHaveLength(49);
    expect(r.variants).toEqual(['bbr', 'bbr3']);
    expect(r.charts).toEqual(['buffers', 'shares']);
    const xs = [...new Set(ss.map((s) => +bufferBdpOf(s).toFixed(1)))];
    expect(xs).toEqual([0.1, 0.3, 0.5, 1, 2, 4, 10]);
  });
});

describe('buffer and share sections (a pure function of the cases)', () => {
  it('one flow per buffer: packet figures, the BBRv1 steady state beside them, "no model" fluid left out', async () => {
    const r = parseRecipeText(GRID, 'g.yaml');
    const cases = await runComparison(resolveScenarios(r).slice(0, 3), ['bbr'], { engines });
    const figures = new Map(cases.map((c) => [`${c.scenario.name}|bbr`, summarise([1], [compactResult(c.packet)])]));
    const pts = bufferPoints(cases, figures);
    const pk = pts.filter((p) => p.source === 'packet');
    expect(pk.map((p) => +p.bufferBdp.toFixed(1))).toEqual([0.5, 2, 8]);
    expect(pk.map((p) => p.queueDelayS)).toEqual(pk.map((p) => 0.01 * p.bufferBdp));
    const steady = pts.filter((p) => p.source === 'bbr-steady');
    expect(steady).toHaveLength(3);
    // The steady state does not depend on a buffer above the probe's queue (pacing-limited).
    expect(steady[1]!.goodputBps).toBe(steady[2]!.goodputBps);
    expect(pts.some((p) => p.source === 'fluid')).toBe(hasEngine('bbr', 'fluid'));
  });

  it('shares per mix and buffer: the packet share as the engine gave it, Ware\'s forms with their validity', async () => {
    const r = parseRecipeText(GRID, 'g.yaml');
    const cases = await runComparison(resolveScenarios(r).slice(3), ['bbr'], { engines });
    const figures = new Map(cases.map((c) => [`${c.scenario.name}|bbr`, summarise([1], [compactResult(c.packet)])]));
    const pts = sharePoints(cases, figures);
    const pk = pts.filter((p) => p.source === 'packet');
    expect(pk.map((p) => p.share)).toEqual(pk.map((p) => p.bufferBdp / (p.bufferBdp + 1)).map((x) => expect.closeTo(x, 12)));
    expect(new Set(pts.map((p) => p.mix))).toEqual(new Set(['vs 2 CUBIC']));
    const ext = pts.filter((p) => p.source === 'ware-extended');
    expect(ext.map((p) => p.valid)).toEqual([false, true, true]);
    const simple = pts.filter((p) => p.source === 'ware-simple');
    expect(simple.every((p) => p.share === 0.5)).toBe(true);
    expect(simple.map((p) => p.valid)).toEqual([false, false, true]);
  });

  it('the page has both sections and their CSV; a report without a buffer sweep has neither', async () => {
    const r = parseRecipeText(GRID, 'g.yaml');
    const cases = await runComparison(resolveScenarios(r), ['bbr'], { engines });
    const rep = await buildReport({ ...r, variants: ['bbr'] }, cases);
    expect(rep.html).toContain('id="buffers-section"');
    expect(rep.html).toContain('id="shares-section"');
    expect(rep.files.get('shares.csv')!.split('\n')[0]).toBe('line,variant,mix,against,competitors,buffer_bdp,source,share,share_low,share_high,valid');
    expect(rep.charts).toBe(2);
    const one = await buildReport({ ...r, variants: ['bbr'] }, cases.filter((c) => c.scenario.name === 'alone-2bdp'));
    expect(one.html).not.toContain('id="buffers-section"');
    expect(one.files.has('buffers.csv')).toBe(false);
  });
});
