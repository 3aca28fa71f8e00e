import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDirs } from '../../src/io/outDir.js';
import { writeCliFixtures } from './arbitraries.js';
import { changedPaths, cli, sandbox, treeDigest, violation } from './harness.js';

/**
 * Issue 22: every output and cache folder flag against folders that cannot be made. As root,
 * /proc and /sys pass access(W_OK), and Node 20's recursive mkdir loops forever on /proc/x
 * (`simulate --out /proc/x` and `sweep --cache /proc/x` spun at 98% CPU). Whatever the path, the
 * answer is exit 2 with one line naming the flag, within a second, before any run, nothing written.
 */

const UNMAKEABLE = ['/proc/cclab-x', '/proc/cclab-x/deeper', '/proc', '/sys/cclab-x', '/sys/kernel/cclab-x', '/dev/null/x', 'a-file.txt', 'a-file.txt/sub'];

const dir = sandbox('cclab-fuzz-folders-');
const cwd = process.cwd();
beforeAll(async () => {
  process.chdir(dir);
  writeCliFixtures(dir);
  const r = await cli(['sweep', '--engines', 'fluid', '--duration', '1s', '--variants', 'reno', '--loss', '1e-3', '--workers', '0', '--quiet', '--no-report', '--no-cache', '--out', 'shard-ok']);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => process.chdir(cwd));

const SWEEP = ['sweep', '--engines', 'fluid', '--duration', '1s', '--variants', 'reno', '--loss', '1e-3', '--workers', '0', '--quiet', '--no-report'];
const REPORT = ['report', '--scenarios', 'ns3-lfn', '--variants', 'reno', '--duration', '4s', '--charts', 'goodput'];
const VALIDATE = ['validate', '--variants', 'reno', '--loss', '1e-3', '--rtt', '50ms', '--seeds', '1', '--workers', '0', '--quiet'];

/** Command lines with `P` where the folder goes; every other flag valid, so only the folder is wrong. */
const CASES: [string, string[]][] = [
  ['simulate --out', ['simulate', '--duration', '1s', '--out', 'P']],
  ['predict --out', ['predict', '--duration', '1s', '--out', 'P']],
  ['compare --out', ['compare', '--duration', '1s', '--variants', 'reno', '--out', 'P']],
  ['report --out', [...REPORT, '--out', 'P']],
  ['report --cache', [...REPORT, '--reps', '2', '--out', 'report-ok', '--cache', 'P']],
  ['sweep --out', [...SWEEP, '--no-cache', '--out', 'P']],
  ['sweep --cache', [...SWEEP, '--out', 'sweep-ok', '--cache', 'P']],
  ['merge --out', ['merge', 'shard-ok', '--out', 'P']],
  ['validate --out', [...VALIDATE, '--no-cache', '--out', 'P']],
  ['validate --cache', [...VALIDATE, '--out', 'validate-ok', '--cache', 'P']],
];

describe('issue 22: an output or cache folder that cannot be made', () => {
  it.each(CASES)('%s: exit 2, one line naming the flag, under a second, nothing written', async (name, argv) => {
    const flag = name.split(' ')[1]!;
    // Load the command's modules first: the bound is on the check, not on the first import.
    await cli([argv[0]!, '--help']);
    for (const p of UNMAKEABLE) {
      const args = argv.map((a) => (a === 'P' ? p : a));
      const before = treeDigest(dir);
      const r = await cli(args);
      const v = violation(r, { maxMs: 1000, mustFail: true });
      expect(v, `cclab ${args.join(' ')}: ${r.stderr}`).toBeNull();
      expect(r.stderr, `cclab ${args.join(' ')}`).toMatch(new RegExp(`^cclab: error: ${flag} .*'${p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}'`, 'm'));
      expect(changedPaths(before, treeDigest(dir)).map((x) => relative(dir, x))).toEqual([]);
    }
  });
});

describe('makeDirs (mkdir -p without the /proc loop)', () => {
  it('makes every missing level and accepts an existing folder', () => {
    const d = join(sandbox('cclab-makedirs-'), 'a', 'b', 'c');
    makeDirs(d);
    makeDirs(d);
    expect(existsSync(d)).toBe(true);
  });
  it('throws the mkdir error (with syscall and path) at once where mkdir answers ENOENT under an existing parent', () => {
    const t0 = performance.now();
    expect(() => makeDirs('/proc/cclab-x/y')).toThrow(/EACCES|ENOENT|EPERM/);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
  it('a file in the way is an error, not a loop', () => {
    expect(() => makeDirs('/dev/null/x')).toThrow(/EEXIST|ENOTDIR/);
  });
});
