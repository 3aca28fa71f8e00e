import { describe, expect, it } from 'vitest';
import { runEngine } from '../../src/engines.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { bdpPackets } from '../../src/scenario/path.js';
import type { Scenario } from '../../src/scenario/types.js';
import { closedForms } from '../../src/theory/closedForms.js';

/**
 * BBRv1's closed forms against the packet engine, computed fresh (no stored numbers): where the
 * theory says what the engine must show, within the band the derivation supports. A 20 Mbit/s,
 * 40 ms path (BDP 67 packets), flows starting together, goodput measured from 10 s (STARTUP and the
 * loss-based flows' first slow start left out).
 */
function path(flows: Scenario['variant'][], bufferBdp: number, durationS: number): Scenario {
  const s = dumbbellScenario('bbr', flows.length);
  s.bottleneck.bandwidthBps = 20e6;
  s.bottleneck.delayS = 0.018;
  s.tcp.rcvBufBytes = 16 * 1024 * 1024;
  s.durationS = durationS;
  s.measureFromS = 10;
  s.flows = s.flows.map((f, i) => ({ ...f, startS: 0, variant: flows[i]! }));
  s.bottleneck.queue = { kind: 'droptail', limitPackets: Math.max(1, Math.round(bufferBdp * bdpPackets(s))) };
  return s;
}

const steady = (s: Scenario) => closedForms(s).find((c) => c.formula === 'bbr-steady')!;

describe('BBRv1 steady state vs the packet engine (one flow)', () => {
  it('2-BDP buffer: goodput within 2%, mean queueing delay within 25% (the probe\'s rise and fall and the burst residue), no loss', async () => {
    const s = path(['bbr'], 2, 40);
    const r = await runEngine('packet', s);
    const cf = steady(s);
    expect(cf.validity.valid).toBe(true);
    expect(Math.abs(r.summary.goodputBps / cf.goodputBps! - 1)).toBeLessThan(0.02);
    const delay = r.queue.delay!.meanS;
    expect(Math.abs(delay / cf.bbr!.meanQueueDelayS - 1)).toBeLessThan(0.25);
    // Far below the cwnd cap's own bound, (cwndGain - 1) BDP = 40 ms: one flow is pacing-limited.
    expect(delay).toBeLessThan(0.1 * 0.04);
    expect(cf.bbr!.lossRate).toBe(0);
    expect(r.summary.lossRate).toBeLessThan(1e-3);
  }, 60_000);

  it('0.1-BDP buffer: the 1.25 phase overflows it; loss rate within a factor 1.5 of the closed form', async () => {
    const s = path(['bbr'], 0.1, 40);
    const r = await runEngine('packet', s);
    const cf = steady(s);
    expect(cf.bbr!.regime).toBe('buffer-overflow');
    const ratio = r.summary.lossRate / cf.bbr!.lossRate!;
    expect(ratio).toBeGreaterThan(1 / 1.5);
    expect(ratio).toBeLessThan(1.5);
    expect(Math.abs(r.summary.goodputBps / cf.goodputBps! - 1)).toBeLessThan(0.03);
  }, 60_000);
});

describe("Ware et al.'s headline vs the packet engine: BBR's share does not depend on the number of loss-based flows", () => {
  it('4-BDP buffer: 1 BBR against 1 and against 4 CUBIC flows take shares within 10 points of each other', async () => {
    const share = async (k: number) => {
      const s = path(['bbr', ...Array.from({ length: k }, () => 'cubic' as const)], 4, 60);
      const r = await runEngine('packet', s);
      const g = r.flows.map((f) => f.summary.goodputBps);
      const ware = closedForms(s).find((c) => c.formula === 'ware-extended')!.bbr!.share!;
      return { packet: g[0]! / g.reduce((a, x) => a + x, 0), ware };
    };
    const one = await share(1);
    const four = await share(4);
    expect(four.ware).toBe(one.ware);
    expect(Math.abs(four.packet - one.packet)).toBeLessThan(0.1);
    // And far above the fair share of 1/5 that a loss-based flow would get among five.
    expect(four.packet).toBeGreaterThan(0.3);
  }, 120_000);
});
