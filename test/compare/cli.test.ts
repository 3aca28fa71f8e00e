import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/compare.js';
import { formatComparisonTable } from '../../src/cli/compare.js';
import { cliInputError } from '../helpers/cli.js';
import { closedForm, sampled, sawtooth, syntheticRun } from './fixtures.js';

const inputError = cliInputError;

describe('cclab compare and cclab report: bad input', () => {
  it('should reject an unknown variant before running anything', async () => {
    const e = await inputError(['compare', '--scenario', 'ns3-lossy', '--variants', 'reno,vegas']);
    expect(e.message).toBe("--variants must be one of tahoe, reno, newreno, westwood, cubic, dctcp, bbr, bbr3, got 'vegas'");
  });
  it('should reject bad scenario flags with the flag named', async () => {
    expect((await inputError(['compare', '--scenario', 'ns3-lossy', '--loss', '2'])).field).toBe('--loss');
  });
  it('should reject a bad report recipe file and bad report flags in one line', async () => {
    expect((await inputError(['report', '--recipe', '/nonexistent.yaml'])).message).toContain("cannot read file '/nonexistent.yaml'");
    expect((await inputError(['report', '--variants', 'reno,reno'])).message).toBe('--variants lists a variant twice');
    expect((await inputError(['report', '--scenarios', 'moon'])).field).toBe('--scenarios');
    expect((await inputError(['report', '--duration', '1s'])).field).toBe('--duration');
    expect((await inputError(['report', '--charts', 'pie'])).field).toBe('--charts');
  });
});

describe('the compare table', () => {
  it('should show goodput, errors and numbered validity notes', () => {
    const tr = sampled(10, 100, sawtooth(20, 2, 0.1));
    const packet = syntheticRun({ engine: 'packet', cwndSegments: tr, goodputBps: 100_000, meanCwndSegments: 1.5, timeouts: 9, fastRecoveries: 1 });
    const fluid = syntheticRun({ engine: 'fluid', cwndSegments: tr, goodputBps: 150_000, meanCwndSegments: 4.5 });
    const text = formatComparisonTable([compareRuns(packet, fluid, [closedForm({ formula: 'mathis', title: 'Mathis', appliesTo: ['reno'], cwndSegments: 4, goodputBps: 120_000 })])]);
    const [head, row] = text.split('\n');
    expect(head).toMatch(/^scenario\s+variant\s+packet\s+fluid\s+error\s+closed form/);
    expect(row).toContain('100 kbit/s');
    expect(row).toContain('150 kbit/s');
    expect(row).toContain('+50.0%');
    expect(row).toContain('120 kbit/s (mathis)');
    expect(row).toContain('+20.0%');
    expect(row).toMatch(/\[1\]/);
    expect(text).toContain('[1] fluid: only 1.5 packets per RTT on average (< 2)');
    // Timeouts only inform (the fluid models carry them): not a numbered note.
    expect(text).not.toContain('timeouts dominate');
  });
});
