import { describe, expect, it } from 'vitest';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { runPacket } from '../../src/packet/run.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { applyBufferBdp, applyRtt } from '../../src/runs/scenarioAxes.js';
import type { RunResult } from '../../src/result/types.js';
import type { Scenario } from '../../src/scenario/types.js';
import { pointScenario } from '../../src/validate/grid.js';

/**
 * The BBRv1 fluid model (models/bbr.model.yaml) against the packet engine's BBR (issue 19): one flow
 * on a clean 100 Mbit/s, 40 ms path (30 s, measured from 10 s; packet median of 3 seeds): goodput
 * within 5% and mean queue within 20% at buffers of 1 and 2 BDP, the loss rate within a factor 1.5
 * on a 0.1-BDP drop-tail buffer. The packet engine's mean queue is its mean queueing delay per packet
 * times the link's packet rate (Little; its queue trace keeps each bucket's extremes, whose mean is
 * biased), the fluid's the time average of q. BBR against CUBIC (one flow each, 120 s, 5 seeds, 5
 * buffers) takes ~10 minutes of packet runs: it runs with CCLAB_LONG=1 (scripts/bbrAgreement.ts
 * compete prints the same table).
 */
const C_PPS = 100e6 / (8 * 1488);

function single(bufferBdp: number): Scenario {
  const s = dumbbellScenario('bbr');
  applyRtt(s, 0.04);
  applyBufferBdp(s, bufferBdp);
  s.durationS = 30;
  s.measureFromS = 10;
  return s;
}
const median = (xs: number[]): number => {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
};
const packetRuns = (s: Scenario, seeds: number): RunResult[] => Array.from({ length: seeds }, (_, k) => runPacket({ ...s, seed: 1 + k }));
function fluidMeanQueue(r: RunResult, from: number): number {
  const q = r.queue.packets;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < q.t.length; i++) if (q.t[i]! >= from) (sum += q.v[i]!), n++;
  return sum / n;
}

describe('BBRv1 fluid model vs the packet engine, one flow, 100 Mbit/s, 40 ms', () => {
  it.each([1, 2])('buffer %d BDP: goodput within 5%, mean queue within 20%', (k) => {
    const s = single(k);
    const packet = packetRuns(s, 3);
    const fluid = runFluid(s);
    expect(fluid.status).toBe('ok');
    const goodput = median(packet.map((r) => r.summary.goodputBps));
    const queue = median(packet.map((r) => r.queue.delay!.meanS * C_PPS));
    // Measured: goodput -2.3% (ProbeRTT every 10.2 s costs the fluid flow 2.3%; the packet flows' min
    // RTT is refreshed by slightly lower samples and ProbeRTT rarely comes), queue 23.9 vs 21.5 (+11%).
    expect(Math.abs(fluid.summary.goodputBps / goodput - 1)).toBeLessThan(0.05);
    expect(Math.abs(fluidMeanQueue(fluid, s.measureFromS) / queue - 1)).toBeLessThan(0.2);
  });
  it('buffer 0.1 BDP (drop-tail): the loss rate within a factor 1.5', () => {
    const s = single(0.1);
    const packet = median(packetRuns(s, 3).map((r) => r.summary.lossRate));
    const fluid = runFluid(s).summary.lossRate;
    // Measured: fluid 2.7e-2, packet 3.07e-2 (the 1.25 phase overflows the 34-packet buffer each cycle).
    expect(fluid / packet).toBeGreaterThan(1 / 1.5);
    expect(fluid / packet).toBeLessThan(1.5);
  });
});

describe.runIf(process.env.CCLAB_LONG === '1')('BBR vs CUBIC, one flow each, 100 Mbit/s, 40 ms, 120 s, 5 seeds', () => {
  it.each([0.5, 1, 2, 4, 8])("buffer %d BDP: BBR's share from the fluid model within 10 points of the packet median", (k) => {
    const s = dumbbellScenario('bbr', 2);
    applyRtt(s, 0.04);
    applyBufferBdp(s, k);
    s.durationS = 120;
    s.measureFromS = 20;
    s.flows[1]!.variant = 'cubic';
    const share = (r: RunResult): number => r.flows[0]!.summary.goodputBps / (r.flows[0]!.summary.goodputBps + r.flows[1]!.summary.goodputBps);
    const packet = median(packetRuns(s, 5).map(share));
    const fluid = runFluid(s);
    expect(fluid.status).toBe('ok');
    expect(Math.abs(share(fluid) - packet)).toBeLessThan(0.1);
  });
});

/**
 * The BBRv3 fluid model (models/bbr3.model.yaml) on validate grid points (pointScenario: 100 Mbit/s,
 * one-BDP drop-tail buffer, random loss p, 30 s measured after STARTUP), packet median of 3 seeds.
 * Measured over the whole grid (scripts/bbrAgreement.ts bbr3, models/README.md "BBRv3"): goodput and
 * mean cwnd within 9% at all 16 points with p <= 1e-2 (the data in flight is a state: STARTUP fills
 * the one-BDP buffer at its pacing rate, overflows it and ends on loss with inflight_hi = BDP + B,
 * as the packet flow does; the short-term bounds are cut to the last round's largest delivery, as v3's
 * bw_latest / inflight_latest); at p = 5e-2 goodput within 15% at 100 ms only, mean cwnd at 30 and 100
 * ms (the packet flow decays for 30 s to a floor of 8-15 segments). The test holds six points across
 * the grid, the p <= 1e-4 ones being those the window-limited flight fixed (+15..+23% cwnd before).
 */
describe('BBRv3 fluid model vs the packet engine on validate grid points', () => {
  it.each([
    [1e-5, 0.03],
    [1e-4, 0.01],
    [1e-4, 0.1],
    [1e-3, 0.03],
    [1e-2, 0.03],
    [1e-2, 0.3],
  ])('p = %d, RTT %d s: goodput and mean cwnd within 15%', (p, rtt) => {
    const s = pointScenario('bbr3', p, rtt, 100e6, 20);
    const packet = packetRuns(s, 3);
    const fluid = runFluid(s);
    expect(fluid.status).toBe('ok');
    expect(Math.abs(fluid.summary.goodputBps / median(packet.map((r) => r.summary.goodputBps)) - 1)).toBeLessThan(0.15);
    expect(Math.abs(fluid.summary.meanCwndSegments / median(packet.map((r) => r.summary.meanCwndSegments)) - 1)).toBeLessThan(0.15);
  });
});
