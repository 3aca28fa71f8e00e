import { describe, expect, it } from 'vitest';
import { rngStream } from '../../src/engine/rng.js';
import { fluidSystem } from '../../src/fluid/run/runFluid.js';
import { lossThresholds } from '../../src/fluid/run/lossThresholds.js';
import { presetScenario } from '../../src/scenario/presets.js';

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
  it("a lone flow's first threshold lands on the packet run's first random drop (ACKs drawing too: every third draw skipped), not without the coupling", () => {
    for (const seed of [1, 2, 3]) {
      const s = presetScenario('ns3-lfn', 'cubic', { seed });
      const sys = fluidSystem(s, { lossProcess: 'poisson' });
      const lth = sys.layout.flows[0]!.states.indexOf('Lth');
      const first = sys.problem.y0[sys.layout.nb + lth]!;
      const n = firstDropPacket(seed, p, s.tcp.delAckCount);
      // The event lands between packets (n - 1) lambda / p and n lambda / p.
      expect(first / p).toBeGreaterThan((n - 1) * (lambda / p) - 1e-9);
      expect(first / p).toBeLessThanOrEqual(n * (lambda / p) + 1e-9);
      const free = fluidSystem(s, { lossProcess: 'poisson', commonRandomNumbers: false });
      const other = free.problem.y0[free.layout.nb + lth]!;
      expect(Math.abs(other / p - n)).toBeGreaterThan(2);
    }
  });
});
