import { describe, expect, it } from 'vitest';
import type { ComparisonCase } from '../../src/compare/run.js';
import { agreementSentence, bimodalNotesHtml, caseAgreement, caseAgreements, lineVerdicts, setupVerdictHtml } from '../../src/report/agreement.js';
import { caseKey, summarise } from '../../src/report/replicates.js';
import type { CompactRun } from '../../src/runs/compact.js';
import type { LineFigures } from '../../src/report/seedStudy.js';

/** A finished compact run of the given goodput (only what the verdict reads). */
const run = (goodputBps: number): CompactRun => ({ status: 'ok', summary: { goodputBps, timeouts: 0, fastRecoveries: 1, retransmits: 1, meanCwndSegments: 10 } } as unknown as CompactRun);

/** A case as the report holds it: the charted packet and fluid runs, and the fluid runs beside the replications. */
function fakeCase(scenario: string, variant: string, packetBps: number, fluidBps: number, fluidRuns?: number[]): ComparisonCase {
  return {
    scenario: { name: scenario },
    packet: { status: 'ok', summary: { goodputBps: packetBps } },
    fluid: { status: 'ok', summary: { goodputBps: fluidBps } },
    comparison: { scenario, variant, fluid: { status: 'ok', goodputBps: fluidBps } },
    ...(fluidRuns ? { fluidGoodputsBps: fluidRuns } : {}),
  } as unknown as ComparisonCase;
}

// lfn Westwood+'s shape: four runs stuck low, six high (Mbit/s x 1e6).
const BIMODAL = [1.38, 1.5, 1.7, 1.9, 5.6, 5.8, 5.9, 6.0, 6.1, 6.17].map((x) => x * 1e6);

describe('the report compares every case as validate does', () => {
  it('takes the packet replications and every fluid run beside them, medians against medians', () => {
    const packet = [10, 11, 9, 10, 12, 10, 10, 9, 11, 10].map((x) => x * 1e5);
    const c = fakeCase('lossy', 'cubic', packet[0]!, 1.3e6, [1.3e6, 1.05e6, 1.08e6, 1.1e6, 1.2e6, 1.04e6, 1.06e6, 1.1e6, 1.07e6, 1.09e6]);
    const a = caseAgreement(c, summarise(packet.map((_, i) => i), packet.map(run)));
    // packet median 1.0 Mbit/s; fluid median 1.085, not the charted 1.3: +8.5%
    expect(a.packet.median).toBe(1e6);
    expect(a.fluid.median).toBeCloseTo(1.085e6, 3);
    expect(a.fluid.n).toBe(10);
    expect(a.criterion).toBe('within-tolerance');
  });

  it('a deterministic model without replications: the one fluid run against the one packet run', () => {
    const a = caseAgreement(fakeCase('lfn', 'reno', 1e6, 1.2e6));
    expect(a.fluid.n).toBe(1);
    expect(a.error).toBeCloseTo(0.2, 12);
    expect(a.agrees).toBe(false);
  });

  it('the summary counts each criterion and names the misses; the bimodal note shows both modes and the mode predicted', () => {
    const cases = [fakeCase('lfn', 'westwood', BIMODAL[0]!, 5.9e6), fakeCase('lfn', 'reno', 1e6, 1.05e6), fakeCase('lossy', 'tahoe', 1e5, 1.5e5)];
    const figures = new Map([
      [caseKey('lfn', 'westwood'), summarise(BIMODAL.map((_, i) => i), BIMODAL.map(run))],
      [caseKey('lfn', 'reno'), summarise([1], [run(1e6)])],
      [caseKey('lossy', 'tahoe'), summarise([1], [run(1e5)])],
    ]);
    const agreements = caseAgreements(cases, figures);
    const s = agreementSentence(cases, agreements);
    // Westwood+: 5.9 is +3.5% from the median 5.7 (within 10%) and in the upper mode; Reno +5%; Tahoe +50% misses.
    expect(s).toContain('agrees with the simulation in 2 of 3 pairs: 2 within 10%');
    expect(s).toContain('lossy Tahoe +50%');
    const notes = bimodalNotesHtml(cases, agreements);
    expect(notes).toContain('lower mode 1.38–1.90 Mbit/s (4 runs');
    expect(notes).toContain('upper mode 5.60–6.17 Mbit/s (6 runs');
    expect(notes).toContain('predicts the upper mode');
    expect(notes).not.toContain('Reno');
  });

  it('the contrast setup: each pair with its criterion, from its line figures and the fluid runs beside them', () => {
    const line = (name: string, rows: { variant: string; runs: number[] }[]) =>
      ({ scenario: { name }, rows: rows.map((r) => ({ variant: r.variant, cclab: summarise(r.runs.map((_, i) => i), r.runs.map(run)) })) }) as unknown as LineFigures;
    const lines = [line('lfn', [{ variant: 'westwood', runs: BIMODAL.slice(0, 8) }, { variant: 'cubic', runs: [1e6, 1e6, 1e6, 1e6, 1e6, 1e6] }])];
    // BIMODAL's first 8 runs: 4 low, 4 high, median 3.75 Mbit/s; with 8 runs the 95% interval is the range [1.38, 6.0].
    const fluid = new Map([[caseKey('lfn', 'westwood'), [1.6e6]], [caseKey('lfn', 'cubic'), [1.2e6, 1.2e6, 1.3e6, 1.1e6, 1.2e6, 1.2e6]]]);
    const vs = lineVerdicts(lines, fluid);
    expect(vs.map((v) => [v.variant, v.a.criterion])).toEqual([['westwood', 'inside-bimodal-interval'], ['cubic', null]]);
    expect(vs[0]!.a.predictsMode).toBe('lower');
    const html = setupVerdictHtml(vs);
    expect(html).toContain('they agree in 1 of 2 pairs (0 within 10% of the packet median, 1 inside the 95% interval of bimodal packet runs)');
    expect(html).toContain('lfn CUBIC: fluid 1.20 [1.10, 1.30] against the packet median 1.00 Mbit/s, +20.0%: disagrees');
  });
});
