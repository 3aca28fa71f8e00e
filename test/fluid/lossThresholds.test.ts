import { describe, expect, it } from 'vitest';
import { rngStream } from '../../src/engine/rng.js';
import { COUPLED_MAX_LOSS, fluidSystem, runFluid } from '../../src/fluid/run/runFluid.js';
import { runPacket } from '../../src/packet/run.js';
import type { RunResult } from '../../src/result/types.js';
import { lossThresholds } from '../../src/fluid/run/lossThresholds.js';
import { OWN_ACK_STREAM_MAX_LOSS, presetScenario } from '../../src/scenario/presets.js';

/** Data packets up to and including the first draw below p in the packet engine's loss stream (src/net/dumbbell.ts onArrive). */
function firstDropPacket(seed: number, p: number, ackEvery: number): number {
  const u = rngStream(seed, 'loss');
  let n = 0;
  for (let i = 0; ; i++) {
    const isAck = ackEvery > 0 && i % (ackEvery + 1) === ackEvery;
    const hit = u() < p;
    if (isAck) continue;
    n++;
    if (hit) return n;
  }
}

/** Time of a run's first window cut (cwnd below 90% of its peak so far), s. */
function firstCutS(r: RunResult): number {
  const cw = r.flows[0]!.trace.cwndBytes;
  let peak = 0;
  for (let i = 0; i < cw.t.length; i++) {
    peak = Math.max(peak, cw.v[i]!);
    if (cw.v[i]! < 0.9 * peak) return cw.t[i]!;
  }
  return Infinity;
}

describe('Poisson-mode loss thresholds on the packet engine\'s loss stream (common random numbers, issue 21)', () => {
  const p = 1e-3;
  const lambda = -Math.log(1 - p);
  it('the k-th threshold E satisfies ceil(E / lambda) = the data packets to the k-th drop, and E is Exp(1)', () => {
    const draw = lossThresholds(7, { p, ackEvery: 0 });
    const u = rngStream(7, 'loss');
    let sum = 0, sq = 0;
    const K = 4000;
    for (let k = 0; k < K; k++) {
      let n = 0;
      while (true) { n++; if (u() < p) break; }
      const e = draw();
      expect(Math.ceil(e / lambda)).toBe(n);
      sum += e;
      sq += e * e;
    }
    // Exp(1): mean 1, variance 1 (4000 draws: standard errors 0.016 and ~0.05).
    expect(sum / K).toBeCloseTo(1, 1);
    expect(sq / K - (sum / K) ** 2).toBeGreaterThan(0.85);
    expect(sq / K - (sum / K) ** 2).toBeLessThan(1.15);
  });
  it("a lone flow's first threshold lands on the packet run's first random drop (ACKs drawing too: every third draw skipped; with their own stream none), not without the coupling", () => {
    for (const [seed, ackStream] of [[1, 'shared'], [2, 'shared'], [3, 'shared'], [1, 'own'], [2, 'own']] as const) {
      const s = presetScenario('ns3-lfn', 'cubic', { seed });
      s.bottleneck.loss.ackStream = ackStream;
      const sys = fluidSystem(s, { lossProcess: 'poisson' });
      const lth = sys.layout.flows[0]!.states.indexOf('Lth');
      const first = sys.problem.y0[sys.layout.nb + lth]!;
      const n = firstDropPacket(seed, p, ackStream === 'own' ? 0 : s.tcp.delAckCount);
      // The event lands between packets (n - 1) lambda / p and n lambda / p.
      expect(first / p).toBeGreaterThan((n - 1) * (lambda / p) - 1e-9);
      expect(first / p).toBeLessThanOrEqual(n * (lambda / p) + 1e-9);
      const free = fluidSystem(s, { lossProcess: 'poisson', commonRandomNumbers: false });
      const other = free.problem.y0[free.layout.nb + lth]!;
      expect(Math.abs(other / p - n)).toBeGreaterThan(2);
    }
  });

  it("with ACKs on their own loss stream the fluid's first cut follows the packet run's on the same seed (ns3-lfn CUBIC: within 0.15 s on seeds 1-8, 0.1 s at most; 3 of 8 on the shared stream)", () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      // 8 s: the application stops 2.9 s before the end, and the first cuts fall at 1.5-2.7 s.
      const s = presetScenario('ns3-lfn', 'cubic', { seed, durationS: 8 });
      s.bottleneck.loss.ackStream = 'own';
      s.trace = { maxPoints: 100000 };
      const packet = firstCutS(runPacket(s));
      expect(packet).toBeLessThan(5);  // a cut while the application sends
      expect(Math.abs(firstCutS(runFluid(s, { lossProcess: 'poisson' })) - packet)).toBeLessThan(0.15);
    }
  });

  it("the presets give ACKs their own stream exactly where the fluid reads the packet run's (p <= COUPLED_MAX_LOSS): own normal and lfn, not lossy, never ns3-*", () => {
    expect(OWN_ACK_STREAM_MAX_LOSS).toBe(COUPLED_MAX_LOSS);
    const layout = (name: Parameters<typeof presetScenario>[0]) => presetScenario(name, 'cubic').bottleneck.loss.ackStream ?? 'shared';
    expect(['normal', 'lfn', 'lossy', 'ns3-normal', 'ns3-lfn', 'ns3-lossy'].map((n) => layout(n as Parameters<typeof presetScenario>[0]))).toEqual(['own', 'own', 'shared', 'shared', 'shared', 'shared']);
  });
});
