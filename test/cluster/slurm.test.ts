import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * `cclab sweep --slurm --wait` against a real Slurm: the one `.ci/run` brings up with
 * .ci/slurm/up.sh (or any cluster whose sinfo answers from this machine). Where none answers the
 * test skips with one line; CCLAB_REQUIRE_SLURM=1 (set by .ci/run) makes that a failure instead.
 */
function slurmStatus(): { ok: boolean; why: string } {
  const r = spawnSync('sinfo', ['-h', '-o', '%T'], { encoding: 'utf8', timeout: 5_000 });
  if (r.error) return { ok: false, why: `sinfo: ${(r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not installed' : r.error.message}` };
  if (r.status !== 0) return { ok: false, why: `sinfo: ${r.stderr.trim().split('\n')[0] ?? `exit ${r.status}`}` };
  const states = r.stdout.trim().split('\n');
  return states.some((s) => /^(idle|mixed|allocated)/.test(s)) ? { ok: true, why: '' } : { ok: false, why: `no usable node (sinfo: ${states.join(', ')})` };
}

const required = process.env.CCLAB_REQUIRE_SLURM === '1';
const status = slurmStatus();
if (!status.ok && !required) console.log(`slurm: skipped, no Slurm here (${status.why}); bash .ci/slurm/up.sh starts one, CCLAB_REQUIRE_SLURM=1 makes this a failure`);

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The issue's small sweep: 2 variants x 3 losses x 2 RTTs x 2 reps, packet + fluid, 5 s runs = 6 points x 2 x (2 + 1) = 36 runs. */
const SWEEP = [
  'sweep', '--variants', 'reno,cubic', '--engines', 'packet,fluid', '--loss', '1e-3,1e-2,5e-2', '--rtt', '20ms,80ms', '--reps', '2',
  '--scenario', 'lossy', '--duration', '5s', '--seed', '2026', '--no-report',
];
const read = (p: string) => readFileSync(p, 'utf8');

describe.runIf(status.ok || required)('a sweep on a real single-node Slurm', () => {
  it('is available (CCLAB_REQUIRE_SLURM=1)', () => {
    expect(status.why).toBe('');
  });
  it.runIf(status.ok)('4 array tasks + the merge job give the bytes of a local run; a deleted shard resubmitted merges again; a failed task stops the merge (exit 3)', { timeout: 600_000 }, async () => {
    const dir = tempDir('cclab-slurm-');
    dirs.push(dir);
    const local = join(dir, 'local');
    const out = join(dir, 'slurm');
    const slurmSweep = (...extra: string[]) => cli([...SWEEP, '--cache', join(dir, 'cache-slurm'), '--out', out, '--slurm', '--wait', '--slurm-array-size', '4', ...extra]);
    const same = () => {
      for (const f of ['points.csv', 'runs.csv', 'runs.json']) expect(read(join(out, f)), f).toBe(read(join(local, f)));
    };

    expect((await cli([...SWEEP, '--cache', join(dir, 'cache-local'), '--workers', '0', '--quiet', '--out', local])).code).toBe(0);
    expect(read(join(local, 'runs.csv')).trim().split('\n')).toHaveLength(37);

    // 1. The whole sweep: four tasks, each a quarter of the runs, then the merge.
    const first = await slurmSweep();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^submitted array job (\d+) \(tasks 1-4\) and merge job (\d+) \(afterok:\1\)\n/);
    for (const t of [1, 2, 3, 4]) {
      expect(first.stdout).toContain(`task ${t}/4: COMPLETED\n`);
      expect(read(join(out, `slurm/logs/shard-${t}.log`))).toMatch(new RegExp(`^sweep: 9 of 36 runs \\(0 cached, 0 failed\\) in .* -> ${out}/shards/shard-${t}\\n$`));
    }
    expect(first.stdout).toContain(`merge: 36 runs from 4 folders -> ${out}\n`);
    expect(first.stdout).toMatch(/merge job \d+: COMPLETED; merged output in /);
    same();

    // 2. A lost shard: delete its folder (and the merged files), resubmit that task alone.
    rmSync(join(out, 'shards/shard-2'), { recursive: true });
    for (const f of ['points.csv', 'runs.csv', 'runs.json']) rmSync(join(out, f));
    const again = await slurmSweep('--slurm-tasks', '2');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/\(tasks 2\)/);
    expect(again.stdout).toContain('task 2/4: COMPLETED\n');
    expect(again.stdout).not.toContain('task 1/4');
    // Its runs come back from the shared cache.
    expect(read(join(out, 'slurm/logs/shard-2.log'))).toMatch(/^sweep: 9 of 36 runs \(9 cached, 0 failed\)/);
    same();

    // 3. A task that fails (a file where its shard folder goes): the merge never runs, exit 3.
    rmSync(join(out, 'shards/shard-3'), { recursive: true });
    writeFileSync(join(out, 'shards/shard-3'), 'in the way\n');
    rmSync(join(out, 'points.csv'));
    const failed = await slurmSweep('--slurm-tasks', '3');
    expect(failed.code).toBe(3);
    const log3 = join(out, 'slurm/logs/shard-3.log');
    expect(failed.stdout).toContain(`task 3/4: FAILED (log: ${log3})\n`);
    const mergeId = /merge job (\d+)/.exec(failed.stdout)![1];
    expect(failed.stderr).toBe(`cclab: 1 of 1 array tasks failed; merge job ${mergeId} cancelled:\n  task 3: FAILED, log ${log3}\nresubmit them with the same command and --slurm-tasks 3\n`);
    expect(read(log3)).toContain('exists and is not a folder');
    expect(existsSync(join(out, 'points.csv'))).toBe(false);
    const merge = spawnSync('squeue', ['-h', '--states=all', '-j', mergeId!, '-o', '%T'], { encoding: 'utf8' });
    expect(merge.stdout.trim()).toBe('CANCELLED');

    // 4. An option sbatch rejects: its own message, exit 2, nothing submitted.
    const rejected = await slurmSweep('--slurm-opt=--partition=no-such-partition');
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toMatch(/^cclab: error: sbatch rejected array\.sh: sbatch: error: invalid partition specified: no-such-partition.*\n$/);
  });
});
