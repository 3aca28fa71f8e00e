import { describe, expect, it } from 'vitest';
import { line, simulate } from './helpers.js';

/**
 * The square-root law (Mathis, Semke, Mahdavi, Ott 1997): under random loss p with per-ACK additive
 * increase and b segments per ACK, the mean window is about C / sqrt(p) segments with
 * C = sqrt(3 / (2 b)). A fat pipe (1 Gbps, 21 ms RTT, huge buffer) keeps the window loss-limited;
 * loss is on data only. Measured here (600 s, seed 1, mean over [20 s, 600 s]):
 * - reno (Linux counting, one ACK per segment, b = 1): W = 41.6 at p = 1e-3, C = W sqrt(p) = 1.32
 *   (sqrt(3/2) = 1.22, ratio 1.07); at p = 1e-2: W = 15.3, C = 1.53 (ratio 1.25: recovery ends on
 *   the first new ACK, so bursts of losses cost one cut, not two).
 * - newreno (per-ACK growth, delayed ACKs, b = 2): W = 27.3 at p = 1e-3, C = 0.86 (sqrt(3/4) = 0.87,
 *   ratio 1.00); at p = 1e-2: W = 7.9, C = 0.79 (ratio 0.92: timeouts start to matter).
 * Random loss gives a slightly larger C than the periodic-loss derivation, as expected.
 */
function fatPipe(variant: 'reno' | 'newreno', p: number, delAckCount: number) {
  return line({
    variant,
    bottleneckBps: 1e9,
    accessBps: 10e9,
    bottleneckDelayS: 0.01,
    accessDelayS: 0.0005,
    lossRate: p,
    durationS: 600,
    measureFromS: 20,
    delAckCount,
    queuePackets: 10_000,
  });
}

describe('square-root law', () => {
  it('reno, b = 1, p = 1e-3: mean window within 25% of sqrt(3/(2bp)) = 38.7 segments', () => {
    const { result } = simulate(fatPipe('reno', 1e-3, 1));
    const w = result.summary.meanCwndSegments;
    const formula = Math.sqrt(3 / (2 * 1 * 1e-3));
    expect(w / formula).toBeGreaterThan(0.75);
    expect(w / formula).toBeLessThan(1.25);
    expect(w * Math.sqrt(1e-3)).toBeCloseTo(1.315, 1);
    expect(result.summary.drops.queue).toBe(0);
  });

  it('newreno, delayed ACKs (b = 2), p = 1e-3: mean window within 25% of sqrt(3/(4p)) = 27.4 segments', () => {
    const { result } = simulate(fatPipe('newreno', 1e-3, 2));
    const w = result.summary.meanCwndSegments;
    const formula = Math.sqrt(3 / (2 * 2 * 1e-3));
    expect(w / formula).toBeGreaterThan(0.75);
    expect(w / formula).toBeLessThan(1.25);
  });
});
