import { describe, expect, it } from 'vitest';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { presetScenario } from '../../src/scenario/presets.js';

describe('CUBIC at a 2 s RTT (issue 10: it used to park at the receive window after its first loss)', () => {
  // lfn with a 955 ms bottleneck: RTT 2 s, the queues follow the preset's BDP rule (6350 packets).
  const s = presetScenario('ns3-lfn', 'cubic', { bottleneckDelayS: 0.955 });
  it('leaves every post-loss hold-off: one congestion event per ~1/(p x rate), loss rate p, far below the receive window', () => {
    const r = runFluid(s);
    expect(r.status).toBe('ok');
    // Every event needs its hold-off to have ended (losses are not counted during it): 13 in 100 s.
    expect(r.summary.fastRecoveries).toBeGreaterThanOrEqual(10);
    expect(r.summary.lossRate).toBeCloseTo(1e-3, 5);
    expect(r.summary.meanCwndSegments).toBeLessThan(0.25 * (s.tcp.rcvBufBytes / s.mssBytes));
  });
  it('solves at rtol 1e-7 too (no step-size collapse), with the same means', () => {
    const loose = runFluid(s);
    const tight = runFluid(s, { solver: { rtol: 1e-7 } });
    expect(tight.status).toBe('ok');
    expect(tight.summary.meanCwndSegments / loose.summary.meanCwndSegments).toBeCloseTo(1, 3);
    expect(tight.summary.fastRecoveries).toBe(loose.summary.fastRecoveries);
  });
});
