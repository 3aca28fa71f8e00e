import { describe, expect, it } from 'vitest';
import type { ComparisonCase } from '../../src/compare/run.js';
import { compareRuns } from '../../src/compare/compare.js';
import { queueSwing, stabilitySection, OSCILLATION_SHARE } from '../../src/report/stability.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { Scenario } from '../../src/scenario/types.js';
import { sampled, syntheticRun } from '../compare/fixtures.js';

function caseOf(s: Scenario, queue: (t: number) => number): ComparisonCase {
  const tr = sampled(s.durationS, 2000, queue);
  const packet = syntheticRun({ engine: 'packet', scenario: s, cwndSegments: tr });
  packet.queue.packets = tr;
  const fluid = syntheticRun({ engine: 'fluid', scenario: s, cwndSegments: tr });
  return { scenario: s, packet, fluid, closed: [], comparison: compareRuns(packet, fluid, []) };
}

describe('the report\'s linear stability section', () => {
  it('queueSwing measures the 5th-95th percentile range over the last half, as a share of the buffer', () => {
    const t = Array.from({ length: 1001 }, (_, i) => i / 10);
    // A sawtooth 0..200 over a 200-packet buffer in the second half: about 90% of the buffer.
    const v = t.map((x) => (x < 50 ? 0 : 2 * ((x * 10) % 100)));
    expect(queueSwing({ t, v }, 200)!).toBeCloseTo(0.9, 1);
    expect(queueSwing({ t, v: t.map(() => 100) }, 200)).toBe(0);
  });
  it('puts the drop-tail loop (unstable) beside an oscillating packet queue, and says why a hybrid model has no analysis', () => {
    const reno = dumbbellScenario('reno');
    reno.durationS = 60;
    const B = reno.bottleneck.queue.limitPackets;
    const saw = caseOf(reno, (t) => B * ((t % 10) / 10));
    const cubic = caseOf({ ...reno, variant: 'cubic' }, () => B / 2);
    const warnings: string[] = [];
    const sec = stabilitySection([saw, cubic], warnings)!;
    expect(sec.id).toBe('stability-section');
    const [, first, second] = sec.html.split('<tr>').slice(1);
    expect(first).toMatch(/full queue, W0 [\d.]+, q0 202\.0/);
    expect(first).toMatch(/<td>unstable<\/td><td>oscillates \(swing \d+% of the buffer\)<\/td>/);
    expect(second).toMatch(/hybrid model/);
    expect(second).toMatch(/steady \(swing 0% of the buffer\)/);
    expect(OSCILLATION_SHARE).toBe(0.25);
  });
});
