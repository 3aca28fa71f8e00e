import { describe, expect, it } from 'vitest';
import { limitCycle } from '../../src/theory/limitCycle.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { applyBufferBdp, applyRtt } from '../../src/runs/scenarioAxes.js';
import { flowPath } from '../../src/scenario/path.js';

/**
 * The limit cycle of a model with no equilibrium (`cclab predict --stability` on a hybrid model),
 * from the model: one BBR flow on 100 Mbit/s, 40 ms, a one-BDP buffer cycles with its gain cycle (8
 * phases of just over one min RTT, the 0.75 phase ending early once the queue has drained); BBRv3
 * with its bandwidth probes (the mean wait of 2.5 s plus REFILL and UP, a round each or more).
 */
function path(v: 'bbr' | 'bbr3') {
  const s = dumbbellScenario(v);
  applyRtt(s, 0.04);
  applyBufferBdp(s, 1);
  s.durationS = 30;
  s.measureFromS = 10;
  return s;
}

describe('limit cycles of the BBR models', () => {
  it('BBRv1: the period of the gain cycle, 7 to 8 phases of 1.001 min RTT; the queue swings from empty to about 0.25 BDP', () => {
    const s = path('bbr');
    const rtt = flowPath(s).baseRttS;
    const c = limitCycle(s);
    // Measured: 0.309 s (7.7 phases), queue 0..88 packets, mean 24.5 (BDP 336).
    expect(c.periodS!).toBeGreaterThan(7 * 1.001 * rtt);
    expect(c.periodS!).toBeLessThan(8 * 1.001 * rtt * 1.01);
    expect(c.queueMaxPackets).toBeGreaterThan(0.2 * flowPath(s).bdpPackets);
    expect(c.queueMaxPackets).toBeLessThan(0.3 * flowPath(s).bdpPackets);
    expect(c.queueMinPackets).toBeLessThan(1);
  });
  it('BBRv3: the period of its bandwidth probes, the mean wait (2.5 s) plus a few rounds', () => {
    const s = path('bbr3');
    const c = limitCycle(s);
    // Measured: 2.648 s, queue 0..205 packets, mean 13.8.
    expect(c.periodS!).toBeGreaterThan(2.5);
    expect(c.periodS!).toBeLessThan(2.5 + 10 * flowPath(s).baseRttS);
  });
});
