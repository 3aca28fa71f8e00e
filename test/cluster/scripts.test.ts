import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { arraySpec, commandLine, defaultArraySize, sbatch, TASK, waitForSubmission, type SlurmShell } from '../../src/cluster/index.js';
import { commonRoot } from '../../src/cluster/k8s.js';
import { InputError } from '../../src/errors.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

/** Runs a script with bash, asynchronously (so several can run at once). */
function bash(script: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('bash', [script], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', () => done({ stdout, stderr }));
  });
}

const BIN = fileURLToPath(new URL('../../bin/cclab.js', import.meta.url));
const dirs: string[] = [];
const tmp = () => {
  const d = tempDir('cclab-cluster-');
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A small fluid-only sweep: 2 losses x 2 RTTs x 1 variant = 4 runs. */
const SWEEP = ['sweep', '--variants', 'reno', '--engines', 'fluid', '--loss', '1e-3,1e-2', '--rtt', '20ms,80ms', '--scenario', 'lossy', '--duration', '5s', '--seed', '7'];

describe('job scripts', () => {
  it('quote every word for bash and expand only the task placeholders', () => {
    const args = ['a b', "it's", '$HOME', '`x`', 'back\\slash', `--out=/d/shard-${TASK}`, `"${TASK}"/4`, ''];
    const line = commandLine('printf', '%s\\n', args, { [TASK]: '${SLURM_ARRAY_TASK_ID}' });
    const r = spawnSync('bash', ['-c', line], { encoding: 'utf8', env: { SLURM_ARRAY_TASK_ID: '3', HOME: '/nope' } });
    expect(r.stdout).toBe(['a b', "it's", '$HOME', '`x`', 'back\\slash', '--out=/d/shard-3', '"3"/4', ''].map((s) => `${s}\n`).join(''));
  });
  it('default array size: about 16 runs per worker of a task, within [1, runs] and at most 1000 tasks', () => {
    expect(defaultArraySize(72, 1)).toBe(5);
    expect(defaultArraySize(20_000, 8)).toBe(157);
    expect(defaultArraySize(100_000, 1)).toBe(1000);
    expect(defaultArraySize(3, 4)).toBe(1);
    expect(defaultArraySize(3, 0)).toBe(1);
  });
  it("sbatch's --array syntax for the tasks submitted", () => {
    expect(arraySpec([1, 2, 3, 4])).toBe('1-4');
    expect(arraySpec([3])).toBe('3');
    expect(arraySpec([7, 2])).toBe('2,7');
  });
});

/** A scripted Slurm: each squeue call returns the next state table; records every command. */
function fakeSlurm(polls: Record<string, string>[], sbatchReply = { code: 0, stdout: '41\n', stderr: '' }) {
  const calls: string[] = [];
  let i = 0;
  const shell: SlurmShell = {
    run: async (cmd, args) => {
      calls.push([cmd, ...args].join(' '));
      if (cmd === 'squeue') {
        const table = polls[Math.min(i++, polls.length - 1)]!;
        return { code: 0, stdout: Object.entries(table).map(([id, s]) => `${id}|${s}\n`).join(''), stderr: '' };
      }
      if (cmd === 'sacct') return { code: 1, stdout: '', stderr: 'Slurm accounting storage is disabled' };
      if (cmd === 'sbatch') return sbatchReply;
      return { code: 0, stdout: '', stderr: '' };
    },
  };
  return { shell, calls };
}

describe('following a submission', () => {
  const sub = { arrayJobId: '10', mergeJobId: '11', tasks: [1, 2, 3] };
  const fast = { intervalMs: () => 0, sleep: async () => {} };
  it('reports each task as it ends, then the merge job', async () => {
    const { shell } = fakeSlurm([
      { '10_1': 'RUNNING', '10_2': 'PENDING', '10_3': 'PENDING', '11': 'PENDING' },
      { '10_1': 'COMPLETED', '10_2': 'RUNNING', '10_3': 'RUNNING', '11': 'PENDING' },
      { '10_1': 'COMPLETED', '10_2': 'COMPLETED', '10_3': 'COMPLETED', '11': 'RUNNING' },
      { '10_1': 'COMPLETED', '10_2': 'COMPLETED', '10_3': 'COMPLETED', '11': 'COMPLETED' },
    ]);
    const ends: number[] = [];
    const r = await waitForSubmission(shell, sub, { ...fast, onTask: (t) => ends.push(t.task) });
    expect(ends).toEqual([1, 2, 3]);
    expect(r.merge).toEqual({ state: 'COMPLETED', outcome: 'completed' });
  });
  it('a failed task: the merge job (which afterok never starts) is cancelled and not waited for', async () => {
    const { shell, calls } = fakeSlurm([
      { '10_1': 'COMPLETED', '10_2': 'FAILED', '10_3': 'RUNNING', '11': 'PENDING' },
      { '10_1': 'COMPLETED', '10_2': 'FAILED', '10_3': 'TIMEOUT', '11': 'PENDING' },
    ]);
    const r = await waitForSubmission(shell, sub, fast);
    expect(r.merge).toBeUndefined();
    expect(r.tasks.filter((t) => t.outcome === 'failed').map((t) => [t.task, t.state])).toEqual([[2, 'FAILED'], [3, 'TIMEOUT']]);
    expect(calls.at(-1)).toBe('scancel 11');
  });
  it('a task squeue forgot, with no sacct to ask, counts as failed instead of being waited for forever', async () => {
    const { shell } = fakeSlurm([{ '10_1': 'RUNNING', '10_2': 'COMPLETED', '10_3': 'COMPLETED', '11': 'PENDING' }, { '10_2': 'COMPLETED', '10_3': 'COMPLETED', '11': 'PENDING' }]);
    const r = await waitForSubmission(shell, sub, fast);
    expect(r.tasks.find((t) => t.task === 1)).toMatchObject({ outcome: 'failed', state: expect.stringContaining('UNKNOWN') });
  });
  it("a rejected submission is the user's to fix: sbatch's own message, as bad input", async () => {
    const { shell } = fakeSlurm([], { code: 1, stdout: '', stderr: 'sbatch: error: invalid partition specified: nope\nsbatch: error: Batch job submission failed: Invalid partition name specified\n' });
    const err = await sbatch(shell, '/x/array.sh').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe('sbatch rejected array.sh: sbatch: error: invalid partition specified: nope; sbatch: error: Batch job submission failed: Invalid partition name specified');
  });
});

describe('cclab sweep --slurm-dry-run / --k8s-indexed-job', () => {
  it('writes the array and merge scripts calling this checkout with this node, prints the sbatch lines, submits nothing', async () => {
    const out = join(tmp(), 'sweep');
    const r = await cli([...SWEEP, '--slurm-dry-run', '--slurm-array-size', '3', '--slurm-opt=--partition=short', '--cache', join(out, '..', 'c'), '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([`sbatch --parsable ${out}/slurm/array.sh`, `sbatch --parsable --dependency=afterok:<array job id> ${out}/slurm/merge.sh`]);
    const array = readFileSync(join(out, 'slurm/array.sh'), 'utf8');
    expect(array).toContain('#SBATCH --array=1-3\n');
    expect(array).toContain('#SBATCH --partition=short\n');
    expect(array).toContain(`#SBATCH --output=${out}/slurm/logs/shard-%a.log\n`);
    expect(array).toContain(`exec ${process.execPath} ${BIN} sweep --variants reno --engines fluid `);
    expect(array).toContain(' --shard "${SLURM_ARRAY_TASK_ID}/3" --workers "${SLURM_CPUS_PER_TASK:-1}" --quiet --no-report');
    expect(array).not.toMatch(/--slurm|--dry-run/);
    const merge = readFileSync(join(out, 'slurm/merge.sh'), 'utf8');
    expect(merge).toContain(`merge ${[1, 2, 3].map((i) => `${out}/shards/shard-${i}`).join(' ')} --out ${out} `);
    expect(statSync(join(out, 'slurm/array.sh')).mode & 0o111).not.toBe(0);
    expect(existsSync(join(out, 'slurm/jobs.json'))).toBe(false);
  });
  it('the scripts run as they are: each task by hand, then the merge, give the bytes of a local sweep', { timeout: 300_000 }, async () => {
    const dir = tmp();
    const out = join(dir, 'cluster');
    await cli([...SWEEP, '--slurm-dry-run', '--slurm-array-size', '2', '--cache', join(dir, 'cache'), '--out', out]);
    // Both tasks at once, as a cluster would run them.
    const tasks = await Promise.all(['1', '2'].map((task) => bash(join(out, 'slurm/array.sh'), { SLURM_ARRAY_TASK_ID: task })));
    tasks.forEach((r, i) => {
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(new RegExp(`^sweep: 2 of 4 runs \\(0 cached, 0 failed\\) in .* -> ${out}/shards/shard-${i + 1}\\n$`));
    });
    const m = spawnSync('bash', [join(out, 'slurm/merge.sh')], { encoding: 'utf8', env: process.env });
    expect(m.stdout).toBe(`merge: 4 runs from 2 folders -> ${out}\n`);
    // The local sweep writes the data files compared below, not the page (the merge job renders its own): a page costs more CPU than the four runs.
    const local = join(dir, 'local');
    expect((await cli([...SWEEP, '--workers', '0', '--quiet', '--no-cache', '--no-report', '--out', local])).code).toBe(0);
    for (const f of ['points.csv', 'runs.csv', 'runs.json']) expect(readFileSync(join(out, f), 'utf8')).toBe(readFileSync(join(local, f), 'utf8'));
  });
  it('validate --slurm-dry-run: tasks fill the cache with --shard, the merge job re-runs validate for the table', async () => {
    const dir = tmp();
    const r = await cli(['validate', '--variants', 'reno', '--loss', '1e-3', '--rtt', '20ms,80ms', '--reps', '2', '--slurm-dry-run', '--slurm-array-size', '2', '--cache', join(dir, 'c'), '--out', join(dir, 'v')]);
    expect(r.code).toBe(0);
    const array = readFileSync(join(dir, 'v/slurm/array.sh'), 'utf8');
    const merge = readFileSync(join(dir, 'v/slurm/merge.sh'), 'utf8');
    expect(array).toContain(`validate --variants reno --loss 1e-3 --rtt 20ms,80ms --reps 2 --cache ${dir}/c --workers "\${SLURM_CPUS_PER_TASK:-1}" --quiet --shard "\${SLURM_ARRAY_TASK_ID}/2"\n`);
    expect(merge).toContain(`validate --variants reno --loss 1e-3 --rtt 20ms,80ms --reps 2 --cache ${dir}/c --workers "\${SLURM_CPUS_PER_TASK:-1}" --quiet --out ${dir}/v\n`);
  });
  it('commonRoot gives the deepest shared folder, at least /', () => {
    expect(commonRoot(['/work/a/b', '/work/a/c/d'])).toBe('/work/a');
    expect(commonRoot(['/work/a', '/work/a'])).toBe('/work/a');
    expect(commonRoot(['/work/ab', '/work/a'])).toBe('/work');
    expect(commonRoot(['/tmp/x', '/work/y'])).toBe('/');
  });
  it('--k8s-indexed-job writes an Indexed Job whose pod k runs shard k+1, and a merge Job', async () => {
    const out = join(tmp(), 'k');
    const r = await cli([...SWEEP, '--k8s-indexed-job', '--slurm-array-size', '2', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`kubectl apply -f ${out}/k8s/shards.yaml`);
    const job = parse(readFileSync(join(out, 'k8s/shards.yaml'), 'utf8'));
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 2, parallelism: 2 });
    const c = job.spec.template.spec.containers[0];
    expect(c.command[2]).toContain('--shard "$((JOB_COMPLETION_INDEX + 1))/2"');
    expect(c.command[2]).toContain(`exec node ${BIN} sweep`);
    // The volume is mounted at the deepest folder holding the checkout and the output (wherever the clone lives).
    const mount: string = c.volumeMounts[0].mountPath;
    expect(mount).toBe(commonRoot([dirname(dirname(BIN)), out]));
    for (const p of [BIN, out]) expect(p === mount || p.startsWith(mount.endsWith('/') ? mount : `${mount}/`)).toBe(true);
    const merge = parse(readFileSync(join(out, 'k8s/merge.yaml'), 'utf8'));
    expect(merge.spec.template.spec.containers[0].command[2]).toContain(`merge ${out}/shards/shard-1 ${out}/shards/shard-2 --out ${out}`);
  });
});

describe('the tasks get the flags as typed', () => {
  it('every sweep and validate option keeps its text (the scripts rebuild the command line from parsed values)', async () => {
    const { buildProgram } = await import('../../src/cli/main.js');
    const program = await buildProgram();
    for (const name of ['sweep', 'validate']) {
      const cmd = program.commands.find((c) => c.name() === name)!;
      for (const opt of cmd.options) {
        if (!opt.required && !opt.optional) continue; // a boolean switch
        const text = opt.argChoices?.[0] ?? '1e-3,x';
        const v: unknown = opt.parseArg ? opt.parseArg(text, undefined as never) : text;
        expect([name, opt.long, v], 'a value parser that transforms its text would be passed on changed').toEqual([name, opt.long, opt.variadic || Array.isArray(v) ? [text] : text]);
      }
    }
  });
});

describe('cluster flags: bad input is one line, exit 2, nothing written', () => {
  it('--slurm without sbatch on PATH', async () => {
    const out = join(tmp(), 'o');
    const path = process.env.PATH;
    process.env.PATH = tmp();
    try {
      const r = await cli([...SWEEP, '--slurm', '--out', out]);
      expect(r).toMatchObject({ code: 2, stderr: 'cclab: error: sbatch not found: is this a Slurm login node?\n' });
      expect(existsSync(out)).toBe(false);
    } finally {
      process.env.PATH = path;
    }
  });
  it.each([
    [['--slurm', '--shard', '1/2'], '--shard conflicts with --slurm'],
    [['--wait'], '--wait needs --slurm'],
    [['--slurm-opt=--partition=x'], '--slurm-opt needs --slurm'],
    [['--slurm-dry-run', '--slurm-opt=--array=1-3'], '--slurm-opt cannot set --array'],
    [['--slurm-dry-run', '--slurm-opt=partition=x'], '--slurm-opt takes one sbatch option per flag'],
    [['--slurm-dry-run', '--slurm-array-size', '5'], '--slurm-array-size must be a whole number in [1, 4]'],
    [['--slurm-dry-run', '--slurm-tasks', '2,9', '--slurm-array-size', '4'], '--slurm-tasks expects a comma list of array tasks in [1, 4]'],
    [['--slurm', '--k8s-indexed-job'], '--k8s-indexed-job conflicts with --slurm'],
    [['--slurm', '--dry-run'], '--dry-run conflicts with --slurm'],
  ])('%j', async (flags, message) => {
    const out = join(tmp(), 'o');
    const r = await cli([...SWEEP, ...flags, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^cclab: error: ${message.replace(/[[\]().]/g, '\\$&')}.*\\n$`));
    expect(existsSync(out)).toBe(false);
  });
  it('validate --slurm --no-cache: the cache is how the tasks hand their runs on', async () => {
    const r = await cli(['validate', '--variants', 'reno', '--loss', '1e-3', '--rtt', '20ms', '--reps', '1', '--slurm-dry-run', '--no-cache', '--out', join(tmp(), 'v')]);
    expect(r).toMatchObject({ code: 2, stderr: expect.stringMatching(/^cclab: error: --no-cache conflicts with --slurm/) });
  });
});
