import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.js';
import { agreementRows, flowPoints, meanQueueDelayS, queueTitle, transferPoints } from '../../src/report/aqmData.js';
import { buildReport } from '../../src/report/build.js';
import { parseRecipeText, resolveScenarios } from '../../src/report/recipe.js';

/*
 * The bufferbloat sections (recipe charts `delay` and `transfers`): their figures are the runs' own
 * (per-flow goodput and queueing delay, transfer completion times), the fluid's mean queueing delay
 * is its RunResult's (per admitted packet, as the packet engine's; test/fluid/queueDelay.test.ts),
 * and a finite transfer's fluid column carries the engine's refusal.
 */
const RECIPE = `
name: aqm-test
variants: [reno]
duration: 8s
charts: [delay, transfers]
scenarios:
  - name: codel
    measureFromS: 3
    bottleneck: {bandwidthBps: 20e6, delayS: 0.01, queue: {kind: codel, limitPackets: 1000}}
    flows: [{}, {startS: 0.5}]
  - name: short-droptail
    bottleneck: {bandwidthBps: 20e6, delayS: 0.01, queue: {kind: droptail, limitPackets: 400}}
    flows: [{variant: cubic}, {startS: 3, bytes: 144800}, {startS: 5, bytes: 144800}]
`;

describe('bufferbloat report sections', async () => {
  const recipe = parseRecipeText(RECIPE, 'aqm-test.yaml');
  const cases = await runComparison(resolveScenarios(recipe), recipe.variants);
  const [codel, short] = cases;

  it('per flow: the packet run\'s goodput and its own mean and p99 queueing delay; bulk-only cases only', () => {
    const pts = flowPoints(cases);
    expect(pts).toHaveLength(2);
    pts.forEach((p, i) => {
      const f = codel!.packet.flows[i]!.summary;
      expect(p).toMatchObject({ scenario: 'codel', queue: 'CoDel', ecn: false, variant: 'reno', flow: i, goodputBps: f.goodputBps, meanDelayS: f.queueDelay!.meanS, p99DelayS: f.queueDelay!.p99S });
      // CoDel holds the sojourn near its 5 ms target; the p99 lies above the mean.
      expect(p.meanDelayS!).toBeLessThan(0.015);
      expect(p.p99DelayS!).toBeGreaterThan(p.meanDelayS!);
    });
  });

  it("the fluid's mean queueing delay is its RunResult's, per admitted packet as the packet engine's", () => {
    expect(codel!.fluid.queue.delay!.meanS).toBeGreaterThan(0);
    expect(meanQueueDelayS(codel!.fluid)).toBe(codel!.fluid.queue.delay!.meanS);
    expect(meanQueueDelayS(codel!.packet)).toBe(codel!.packet.queue.delay!.meanS);
    // A failed run has none.
    expect(meanQueueDelayS({ ...codel!.fluid, status: 'failed' })).toBeNull();
    const row = agreementRows(cases)[0]!;
    expect(row.fluidDelayS).toBeCloseTo(meanQueueDelayS(codel!.fluid)!, 12);
    expect(row.delayErr).toBeCloseTo(row.fluidDelayS! / row.packetDelayS! - 1, 12);
    expect(row.within).toBe(Math.abs(row.delayErr!) < 0.2 && Math.abs(row.goodputErr!) < 0.1);
  });

  it('short transfers: completion times from the packet run, beside the bulk flow; the fluid refusal is kept', () => {
    const [t] = transferPoints(cases);
    expect(t!.queue).toBe(queueTitle(short!.scenario));
    expect(t!.bulkVariant).toBe('cubic');
    expect(t!.transferVariant).toBe('reno');
    expect(t!.transfers.map((x) => x.startS)).toEqual([3, 5]);
    expect(t!.transfers.map((x) => x.completionS)).toEqual([1, 2].map((i) => short!.packet.flows[i]!.summary.transfer!.completionS));
    // Behind a 10-BDP buffer a CUBIC flow keeps: 100 segments take many RTTs of 24 ms plus its queue.
    expect(t!.transfers[0]!.completionS!).toBeGreaterThan(0.2);
    expect(t!.bulkGoodputBps).toBe(short!.packet.flows[0]!.summary.goodputBps);
    expect(t!.fluidFailure).toMatch(/flows\[1\]\.bytes .*bulk transfers only/);
    expect(agreementRows(cases).map((r) => r.scenario)).toEqual(['codel']);
  });

  it('the page has the three sections, their tables and their CSV files', async () => {
    const report = await buildReport(recipe, cases);
    for (const id of ['delay-section', 'agreement-section', 'transfers-section']) expect(report.html).toContain(`id="${id}"`);
    expect(report.html).toContain('refused: finite transfers');
    expect(report.files.get('flows.csv')!.split('\n')[0]).toBe('scenario,queue,ecn,variant,flow,goodput_bps,queue_delay_mean_s,queue_delay_p99_s');
    expect(report.files.get('transfers.csv')!.trim().split('\n')).toHaveLength(3);
    expect(report.files.get('agreement.csv')!.trim().split('\n')).toHaveLength(2);
    expect(report.warnings.filter((w) => w.includes('linear stability'))).toEqual([]);
  });
});
