import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { presetScenario } from '../../src/scenario/presets.js';
import { cclab } from './cliHarness.js';

/** The CLI contract for bad input: one line on stderr naming the field and what is accepted, exit 2, no stack. */
function expectBadInput(args: string[], pattern: RegExp): void {
  const r = cclab(args);
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('cclab simulate: bad input', () => {
  it('unknown variant names the accepted ones', () => {
    expectBadInput(['simulate', '--variant', 'vegas'], /--variant must be one of tahoe, reno, newreno, westwood, cubic, got 'vegas'/);
  });
  it('unknown preset', () => {
    expectBadInput(['simulate', '--scenario', 'wan'], /--scenario must be one of normal, lfn, lossy or a .json\/.yaml file, got 'wan'/);
  });
  it('zero or negative bandwidth', () => {
    expectBadInput(['simulate', '--bandwidth', '0Mbps'], /--bandwidth must be a rate > 0, got 0/);
    expectBadInput(['simulate', '--bandwidth', '-5Mbps'], /--bandwidth must be a rate > 0/);
  });
  it('loss outside [0, 1)', () => {
    expectBadInput(['simulate', '--loss', '1'], /--loss must be in \[0, 1\), got 1/);
    expectBadInput(['simulate', '--loss', '-0.1'], /--loss must be in \[0, 1\)/);
  });
  it('unknown flag', () => {
    expectBadInput(['simulate', '--bogus'], /unknown option '--bogus'/);
  });
  it('missing, malformed and misspelt scenario files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cclab-cli-'));
    expectBadInput(['simulate', '--scenario', join(dir, 'none.yaml')], /--scenario cannot read file/);
    writeFileSync(join(dir, 'bad.json'), '{"durationS": ');
    expectBadInput(['simulate', '--scenario', join(dir, 'bad.json')], /bad.json: \(file\) is not valid JSON/);
    writeFileSync(join(dir, 'typo.yaml'), 'durationS: 10\nbottleneck:\n  delay: 0.1\n');
    expectBadInput(['simulate', '--scenario', join(dir, 'typo.yaml')], /typo.yaml: bottleneck.delay is not a known key/);
  });
});

describe('cclab simulate: scenario resolution', () => {
  it('--print-scenario shows the preset with the flags applied', () => {
    const r = cclab(['simulate', '--scenario', 'lfn', '--variant', 'cubic', '--duration', '500s', '--seed', '7', '--print-scenario']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(presetScenario('lfn', 'cubic', { durationS: 500, seed: 7 }));
  });
  it('--help exits 0 and lists the overrides', () => {
    const r = cclab(['simulate', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--bandwidth', '--delay', '--loss', '--flows', '--duration', '--mss', '--queue', '--seed', '--json', '--out']) {
      expect(r.stdout).toContain(flag);
    }
  });
});
