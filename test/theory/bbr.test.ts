import { describe, expect, it } from 'vitest';
import { getCongestionControl } from '../../src/cc/registry.js';
import { bbrSteadyState, wareShare, type BbrKnobs } from '../../src/theory/bbr.js';
import { closedForms } from '../../src/theory/closedForms.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { baseRttS, packetBits } from '../../src/scenario/path.js';
import type { Scenario } from '../../src/scenario/types.js';

/** Linux's BBRv1 knobs, as src/cc/bbr.ts declares them. */
const LINUX = Object.fromEntries(getCongestionControl('bbr').params.map((p) => [p.name, p.default])) as unknown as BbrKnobs;

/** Ware et al.'s validation setup (their Fig. 8a): 10 Mbit/s, 40 ms, 1500-byte packets, so c = 833.3 packets/s, BDP 33.3 packets. */
const C_10M = 10e6 / (1500 * 8);
const L = 0.04;
const ware = (x: number, n = 1) => wareShare({ linkPps: C_10M, baseRttS: L, bufferPackets: x * C_10M * L }, n, LINUX);

describe('Ware et al. IMC 2019: BBR against loss-based flows', () => {
  it('uses the paper\'s constants: 4 packets per flow in PROBE_RTT, every 10 s, for 200 ms', () => {
    expect([LINUX.minCwndSegments, LINUX.minRttWindowS, LINUX.probeRttS]).toEqual([4, 10, 0.2]);
  });

  it('simple form (eq. 5): the in-flight cap 2 p (1 - p) q meets BBR\'s (1 - p) q at p = 1/2', () => {
    const w = ware(32);
    expect(w.simpleShare).toBe(0.5);
    // The fixed point, by the paper's own equation, for any deep queue.
    for (const q of [100, 1e4]) expect(2 * 0.5 * (1 - 0.5) * q).toBeCloseTo((1 - 0.5) * q, 12);
  });

  // Hand-computed from eqs. 9-11 on the Fig. 8a setup (N = 1):
  //  X = 16: q = 533.33, p = 1/2 - 1/32 - 4/533.33 = 0.46125, probe (0.64 + 0.2 + 0.04)/10 = 0.088, share 0.53875 x 0.912 = 0.491340
  //  X = 64: q = 2133.3, p = 1/2 - 1/128 - 4/2133.3 = 0.4903125, probe (2.56 + 0.24)/10 = 0.28, share 0.5096875 x 0.72 = 0.3669750
  //  X = 1: p = 1/2 - 1/2 - 0.12 < 0 -> 0 (BBR's cap exceeds BDP + buffer: the whole link), probe 0.028, share 0.972
  it.each([
    [16, 0.46125, 0.088, 0.49134],
    [64, 0.4903125, 0.28, 0.366975],
    [1, 0, 0.028, 0.972],
  ])('extended form at X = %d BDP: p %f, probe share %f, BBR share %f', (x, p, probe, share) => {
    const w = ware(x);
    expect(w.bufferBdp).toBeCloseTo(x, 12);
    expect(w.lossBasedShare).toBeCloseTo(p, 9);
    expect(w.probeTimeShare).toBeCloseTo(probe, 9);
    expect(w.extendedShare).toBeCloseTo(share, 6);
  });

  it('eq. 9 is the root of eq. 8 = what BBR has in flight ((1 - p)(q + c l)), found here by bisection', () => {
    for (const [x, n] of [[2, 1], [4, 1], [8, 2], [32, 4]] as const) {
      const q = x * C_10M * L;
      // 2 (1 - p) c ((p q + 4N)/c + l) - (1 - p)(q + c l), divided by (1 - p) > 0: increasing in p.
      const f = (p: number) => 2 * C_10M * ((p * q + 4 * n) / C_10M + L) - (q + C_10M * L);
      let lo = -10;
      let hi = 0.5;
      for (let i = 0; i < 200; i++) {
        const mid = (lo + hi) / 2;
        if (f(mid) > 0) hi = mid;
        else lo = mid;
      }
      expect(ware(x, n).lossBasedShareRaw).toBeCloseTo(lo, 9);
      // Eq. 7 at that p.
      expect(ware(x, n).rttEstimateS).toBeCloseTo((Math.max(0, lo) * q + 4 * n) / C_10M + L, 12);
    }
  });

  it('the share does not depend on the number of loss-based flows (the paper\'s headline), through closedForms', () => {
    const shares = [1, 2, 4].map((k) => {
      const f = closedForms(mixed(k, 4)).find((c) => c.formula === 'ware-extended')!;
      return f.bbr!.share!;
    });
    expect(shares[0]).toBeGreaterThan(0.5);
    expect(shares[1]).toBe(shares[0]);
    expect(shares[2]).toBe(shares[0]);
  });

  it('flags where its assumptions fail: a buffer under a BDP (not cap-limited), the simple form below X ~ 5, several RTTs', () => {
    const shallow = closedForms(mixed(1, 0.5));
    const ext = shallow.find((c) => c.formula === 'ware-extended')!;
    expect(ext.validity.valid).toBe(false);
    expect(ext.validity.reasons.join()).toMatch(/not cap-limited/);
    expect(ext.bbr!.share).toBeCloseTo(1 - (0.5 * L + 0.2 + L) / 10, 2);
    const deep = closedForms(mixed(1, 8));
    expect(deep.find((c) => c.formula === 'ware-extended')!.validity.valid).toBe(true);
    expect(deep.find((c) => c.formula === 'ware-simple')!.validity.valid).toBe(true);
    const mid = closedForms(mixed(1, 2));
    expect(mid.find((c) => c.formula === 'ware-extended')!.validity.valid).toBe(true);
    expect(mid.find((c) => c.formula === 'ware-simple')!.validity.reasons.join()).toMatch(/q >> BDP/);
    const rtts = mixed(1, 8);
    rtts.flows[1]!.access.delayS = 0.02;
    expect(closedForms(rtts).find((c) => c.formula === 'ware-extended')!.validity.reasons.join()).toMatch(/base RTTs differ/);
  });

  it('BBRv3 has no closed form and a mix with bbr3 is out of Ware\'s model', () => {
    const s = mixed(1, 4);
    s.flows[1]!.variant = 'bbr3';
    const ext = closedForms(s).find((c) => c.formula === 'ware-extended')!;
    expect(ext.bbr).toBeUndefined();
    expect(ext.validity.reasons.join()).toMatch(/rate-based/);
  });
});

describe('BBRv1 single-flow steady state [D] (gain cycle and phase ends of Linux tcp_bbr.c)', () => {
  // c = 1000 packets/s, l = 0.1 s: BDP 100 packets; no mssBytes, so no send bursts: the up phase's
  // target is 0.25 BDP + 2 = 27 packets of queue. Up gain 1.25 x 0.99 = 1.2375 (e = 0.2375), down 0.7425.
  const path = (q: number) => ({ linkPps: 1000, baseRttS: 0.1, bufferPackets: q });

  it('a buffer above the probe\'s target: pacing-limited; the rise to 27, the down phase, the residue draining at 1%', () => {
    const st = bbrSteadyState(path(100), LINUX);
    expect(st.regime).toBe('pacing-limited');
    const upS = 27 / 237.5; // 0.113684 s to reach the target (> one min_rtt)
    expect(st.probeQueuePackets).toBeCloseTo(27, 9);
    // Down for one min_rtt at (1 - 0.7425) x 1000 = 257.5 /s: 27 -> 1.25; then 1.25 drains at 10 /s in 0.125 s.
    const area = (27 * upS) / 2 + ((27 + 1.25) / 2) * 0.1 + (1.25 * 0.125 - (10 * 0.125 ** 2) / 2);
    const cycle = upS + 0.1 + 0.6;
    expect(st.meanQueuePackets).toBeCloseTo(area / cycle, 9);
    expect(st.lossRate).toBe(0);
    expect(st.probeBwUtilisation).toBeCloseTo((upS + 0.1 + 0.125 + 0.99 * 0.475) / cycle, 12);
    // PROBE_RTT: (0.2 + 0.1) s of (10 + 0.2 + 0.1) s.
    expect(st.probeRttShare).toBeCloseTo(0.3 / 10.3, 12);
    expect(st.cwndCapQueuePackets).toBeCloseTo(100, 9);
  });

  it('a buffer of 0.1 BDP: the up phase sends 27 packets above the link (the target comes before the loss report) and drops 17', () => {
    const st = bbrSteadyState(path(10), LINUX);
    expect(st.regime).toBe('buffer-overflow');
    expect(st.peakQueuePackets).toBe(10);
    const upS = 27 / 237.5;
    const downS = 10 / 257.5;
    expect(st.lossRate).toBeCloseTo(17 / (1000 * (1.2375 * upS + 0.7425 * downS + 0.99 * 0.6)), 12);
  });
});

/** 1 BBR flow against k CUBIC flows on 10 Mbit/s, 40 ms (the Fig. 8a line), buffer x BDP, 60 s. */
function mixed(k: number, x: number): Scenario {
  const s = dumbbellScenario('bbr');
  s.bottleneck.bandwidthBps = 10e6;
  s.bottleneck.delayS = 0.018;
  s.durationS = 60;
  const flow = s.flows[0]!;
  s.flows = [{ ...flow, variant: 'bbr' }, ...Array.from({ length: k }, () => ({ ...flow, access: { ...flow.access }, variant: 'cubic' as const }))];
  // Ware's BDP: the link's packets per second over the base RTT (as src/theory/bbrClosedForms.ts reads the path).
  const bdp = (s.bottleneck.bandwidthBps / packetBits(s)) * baseRttS(s);
  s.bottleneck.queue = { kind: 'droptail', limitPackets: Math.round(x * bdp) };
  return s;
}
