import { describe, expect, it } from 'vitest';
import { fluidSystem, runFluid } from '../../src/fluid/run/runFluid.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { Scenario } from '../../src/scenario/types.js';
import { solve } from '../../src/solver/index.js';
import { dctcpOscillation, scenarioDctcpOscillation } from '../../src/theory/dctcp.js';

/** N DCTCP flows on a 100 Mbit/s step-marking line (K packets), 10 s, measured over the second half. */
function dctcpLine(N: number, K: number, o: { ecn?: boolean; queue?: Scenario['bottleneck']['queue'] } = {}): Scenario {
  const s = dumbbellScenario('dctcp', N);
  s.durationS = 10;
  s.measureFromS = 5;
  s.tcp.ecn = o.ecn ?? true;
  s.bottleneck.queue = o.queue ?? { kind: 'step', limitPackets: 1000, thresholdPackets: K, ecn: true };
  s.flows.forEach((f) => {
    f.access.queuePackets = 10000;
    f.receiverAccess!.queuePackets = 10000;
  });
  return s;
}

/** The fluid model's queue extremes, mean alpha, marked share (time with q >= K) and period (between marking onsets) over [5, 10] s, sampled every 0.1 ms. */
function fluidCycle(s: Scenario): { qMin: number; qMax: number; alpha: number; marked: number; periodS: number; cutsPerCycle: number } {
  const sys = fluidSystem(s);
  const sol = solve(sys.problem, { rtol: 1e-5, atol: 1e-7 });
  expect(sol.status).toBe('ok');
  const y = new Float64Array(sys.layout.n);
  const [qi, mi, ai] = [sys.layout.yBottleneck('q'), sys.layout.yBottleneck('mk'), sys.layout.yFlow(0, 'al')];
  let qMin = Infinity;
  let qMax = -Infinity;
  let alpha = 0;
  let marked = 0;
  let n = 0;
  const onsets: number[] = [];
  for (let k = 0; k <= 50000; k++) {
    const t = 5 + k * 1e-4;
    const was = y[mi]!;
    sol.stateInto(t, y);
    if (k > 0 && was < 0.5 && y[mi]! > 0.5) onsets.push(t);
    qMin = Math.min(qMin, y[qi]!);
    qMax = Math.max(qMax, y[qi]!);
    alpha += y[ai]!;
    marked += y[mi]!;
    n++;
  }
  const cuts = sol.events.filter((e) => e.name.includes('a mark') && e.t >= onsets[0]! && e.t < onsets.at(-1)!).length;
  return { qMin, qMax, alpha: alpha / n, marked: marked / n, periodS: (onsets.at(-1)! - onsets[0]!) / (onsets.length - 1), cutsPerCycle: cuts / (onsets.length - 1) };
}

describe('DCTCP: closed form of the queue oscillation (src/theory/dctcp.ts)', () => {
  it("Alizadeh et al.'s sawtooth: W* = (C R + K)/N, alpha^2 (1 - alpha/4) = (2W* + 1)/(W* + 1)^2, A = N (W* + 1) alpha / 2, Q_max = K + N", () => {
    const o = dctcpOscillation({ flows: 2, capacityPps: 100e6 / (1488 * 8), rttS: 0.0241, kPackets: 30 });
    expect(o.wStar).toBeCloseTo((8400.54 * 0.0241 + 30) / 2, 1);
    expect(o.alpha ** 2 * (1 - o.alpha / 4)).toBeCloseTo((2 * o.wStar + 1) / (o.wStar + 1) ** 2, 12);
    expect(o.amplitudePackets).toBeCloseTo((2 * (o.wStar + 1) * o.alpha) / 2, 12);
    // ~ (1/2) sqrt(2 N (C R + K)) at large W*: 15.54 here against 15.25.
    expect(o.amplitudePackets).toBeCloseTo(15.539, 2);
    expect(0.5 * Math.sqrt(2 * 2 * (o.bdpPackets + 30))).toBeCloseTo(15.246, 2);
    expect([o.qMaxPackets, o.valid]).toEqual([32, true]);
    expect(o.periodRtts).toBeCloseTo(o.amplitudePackets / 2, 12);
  });

  it('validity flags name each failed assumption: g too large for the cycle, a queue that empties, loss at the buffer, no ECN, no step queue', () => {
    const big = dctcpOscillation({ flows: 10, capacityPps: 8400.54, rttS: 0.0241, kPackets: 65 });
    expect(big.reasons).toEqual(['g = 0.0625 is above 1.386 / sqrt(2 (C R + K)) = 0.0599: alpha does not average over a cycle']);
    const low = dctcpOscillation({ flows: 2, capacityPps: 8400.54, rttS: 0.0241, kPackets: 3, bufferPackets: 4 });
    expect(low.reasons.map((r) => r.split(':')[0])).toEqual(['the queue would swing 14.6 packets below Q_max = 5', 'Q_max = K + N = 5 exceeds the buffer (4 packets)']);
    expect(scenarioDctcpOscillation(dctcpLine(2, 30, { ecn: false })).reasons).toContain('ECN is off: packets above K are dropped, not marked');
    const red = scenarioDctcpOscillation(dctcpLine(2, 30, { queue: { kind: 'red', limitPackets: 1000, minThPackets: 30, maxThPackets: 31, maxP: 1, weight: 1, gentle: false, ecn: true } }));
    expect([red.valid, red.reasons[0]]).toEqual([false, 'the queue is red, not a step marker at K (queue kind: step)']);
  });
});

describe("DCTCP's fluid model on a step-marking queue (models/dctcp-sawtooth.model.yaml, by src/fluid/run/modelChoice.ts)", () => {
  // Measured: N = 1, 2, 4 at K = 30, 30, 40: swing 9.93 / 14.80 / 22.04 packets (closed form 10.93, 15.55,
  // 22.65: -9%, -5%, -3%); Q_max 31.0 / 32.0 / 44.1 (31, 32, 44); period 263 / 194 / 155 ms (303, 216, 164:
  // -13%, -10%, -6%); alpha 0.106 / 0.145 / 0.194, the marked share 0.107 / 0.142 / 0.200, the closed form
  // 0.094, 0.132, 0.184 (+14%, +9%, +6%). The closed form holds alpha constant over a cycle; with g = 1/16
  // and 7-11 windows a cycle, alpha rises by g (1 - alpha) after the marked window and decays between, and
  // the cut uses the alpha before that rise, the cycle's lowest (N = 1: 2 x 9.93 / 233.5 = 0.085): smaller
  // cuts, a shorter cycle, a larger marked share. The mean-field model (dctcp.model.yaml) swung 14.62 /
  // 19.61 / 27.27 (+34%, +26%, +20%) with a period 1.8x: its cut went on while the cut window's marks came
  // back. The packet engine on these lines (p99 - p1 of the queue): 7, 12, 22 packets.
  it.each([
    [1, 30],
    [2, 30],
    [4, 40],
  ])('N = %i, K = %i: the queue peaks at K + N and swings as Alizadeh et al.\'s sawtooth, one cut per cycle; alpha is the marked share', (N, K) => {
    const s = dctcpLine(N, K);
    expect(fluidSystem(s).groups.map((g) => g.model)).toEqual(['dctcp-sawtooth']);
    const c = fluidCycle(s);
    const th = scenarioDctcpOscillation(s);
    expect(th.valid).toBe(true);
    expect(Math.abs(c.qMax - th.qMaxPackets)).toBeLessThan(2);
    expect(Math.abs(c.qMax - c.qMin - th.amplitudePackets) / th.amplitudePackets).toBeLessThan(0.1);
    expect(Math.abs(c.periodS - th.periodS) / th.periodS).toBeLessThan(0.15);
    expect(c.cutsPerCycle).toBe(1);
    expect(Math.abs(c.alpha - c.marked) / c.marked).toBeLessThan(0.05);
    expect(Math.abs(c.alpha - th.alpha) / th.alpha).toBeLessThan(0.15);
  });

  it('on a RED queue that marks, DCTCP keeps its mean-field model (marks at random, flows not synchronised)', () => {
    const s = dctcpLine(2, 30, { queue: { kind: 'red', limitPackets: 1000, minThPackets: 20, maxThPackets: 60, maxP: 0.1, weight: 0.002, gentle: true, ecn: true } });
    expect(fluidSystem(s).groups.map((g) => g.model)).toEqual(['dctcp']);
  });

  it('marks cost no loss: no retransmission and the link stays full (goodput within 1% of the payload rate)', () => {
    const r = runFluid(dctcpLine(2, 30));
    expect(r.status).toBe('ok');
    expect(r.summary.retransmits).toBe(0);
    expect(r.summary.goodputBps / (100e6 * (1448 / 1488))).toBeGreaterThan(0.99);
  });
});
