import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cclabProcess } from '../helpers/cli.js';
import { sandbox } from './harness.js';

/** The contract end to end, through the real binary in a child process (the fuzz suite runs in process). */
describe('fuzz contract, end to end', () => {
  it('the binary exits 2 with one cclab: line for a commander error and for a link to /dev/zero, quickly', () => {
    const dir = sandbox();
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    for (const [args, line] of [
      [['simulate', '--bogus'], /^cclab: error: unknown option '--bogus' \(run cclab --help for usage\)$/],
      [['simulate', '--scenario', join(dir, 'zero.yaml')], /^cclab: error: --scenario '.*zero\.yaml' is not a regular file \(a device\); give a \.json or \.yaml file$/],
    ] as const) {
      const t0 = performance.now();
      const r = cclabProcess([...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(line);
      expect(performance.now() - t0).toBeLessThan(30_000);
    }
  });
});
