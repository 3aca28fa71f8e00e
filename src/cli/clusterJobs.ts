import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../errors.js';
import { writeFileAtomic } from '../io/atomicWrite.js';
import { parseInteger } from '../units.js';
import type { SweepPlan } from '../sweep/grid.js';
import type { ValidateGrid } from '../validate/grid.js';
import { arraySizeFlag, cacheArgs, preflight, runClusterJob, userArgs, type ClusterFlags } from './cluster.js';

/**
 * `cclab sweep --slurm` and `cclab validate --slurm` (and --k8s-indexed-job): the command lines of
 * the array tasks and of the merge step. Each task is the same command with `--shard i/N`; a sweep
 * merges the shard folders with `cclab merge`, validate re-runs itself without --shard, every run
 * then coming from the shared cache.
 */

/** Flags each task sets itself (its shard, output, workers) rather than inheriting. */
const PER_TASK = ['--shard', '--out', '--workers', '--quiet', '--report', '--no-report', '--cache', '--no-cache', '--dry-run'];

/** Workers per task: --workers, else 1 (a task's CPUs are what the cluster gives it, not this machine's cores). */
const taskWorkers = (workers: string | undefined) => (workers === undefined ? 1 : parseInteger(workers, '--workers'));

async function arraySize(o: ClusterFlags, runs: number, workers: number): Promise<number> {
  const { checkArraySize, defaultArraySize } = await import('../cluster/job.js');
  const n = arraySizeFlag(o);
  return n === undefined ? defaultArraySize(runs, workers) : checkArraySize(n, runs);
}

/** The workers argument of a task: its CPUs ({cpus}), or 0 (runs in the main thread) when asked. */
const workersArg = async (workers: number) => (workers === 0 ? '0' : (await import('../cluster/job.js')).CPUS);

export async function sweepOnCluster(
  o: ClusterFlags & { out?: string; workers?: string; cache: string | false; report: boolean; maxRuns: string },
  cmd: Command,
  plan: SweepPlan,
): Promise<void> {
  const [{ planSize }, { SWEEP_MARKER }, { TASK }] = await Promise.all([import('../sweep/grid.js'), import('../sweep/output.js'), import('../cluster/job.js')]);
  const out = resolve(o.out!);
  const workers = taskWorkers(o.workers);
  const n = await arraySize(o, planSize(plan).runs, workers);
  const shardDir = (i: string | number) => join(out, 'shards', `shard-${i}`);
  const common = userArgs(cmd, PER_TASK);
  const checked = await preflight(o, n);
  // The merged output goes into --out itself, next to slurm/ and shards/: mark it as a sweep folder
  // now, so that the merge (and a re-run of this command) may write there.
  writeFileAtomic(join(out, SWEEP_MARKER), 'Written by cclab sweep/merge. Its files here are replaced by the next run into this folder.\n');
  await runClusterJob(o, checked, {
    command: 'sweep',
    out,
    tasks: n,
    workers,
    taskArgs: ['sweep', ...common, ...cacheArgs(o.cache), '--shard', `${TASK}/${n}`, '--workers', await workersArg(workers), '--quiet', '--no-report', '--out', shardDir(TASK)],
    mergeArgs: ['merge', ...Array.from({ length: n }, (_, i) => shardDir(i + 1)), '--out', out, ...(o.report ? [] : ['--no-report']), '--max-runs', o.maxRuns],
    paths: [out, ...(o.cache === false ? [] : [resolve(o.cache)])],
    merged: `merged output in ${out} (points.csv, runs.csv${o.report ? ', index.html' : ''})`,
  });
}

export async function validateOnCluster(o: ClusterFlags & { out: string; workers?: string; cache: string | false }, cmd: Command, grid: ValidateGrid, modelsDir: string | undefined): Promise<void> {
  if (o.cache === false) throw new InputError('--no-cache', 'conflicts with --slurm: the tasks hand their runs to the final step through the cache');
  const [{ expandGrid, randomLossEvents }, { TASK }] = await Promise.all([import('../validate/grid.js'), import('../cluster/job.js')]);
  const out = resolve(o.out);
  const workers = taskWorkers(o.workers);
  const n = await arraySize(o, expandGrid(grid, randomLossEvents(modelsDir)).runs.length, workers);
  const common = [...userArgs(cmd, PER_TASK), ...cacheArgs(o.cache), '--workers', await workersArg(workers), '--quiet'];
  await runClusterJob(o, await preflight(o, n), {
    command: 'validate',
    out,
    tasks: n,
    workers,
    taskArgs: ['validate', ...common, '--shard', `${TASK}/${n}`],
    mergeArgs: ['validate', ...common, '--out', out],
    paths: [out, resolve(o.cache)],
    merged: `agreement table in ${out} (index.html, points.csv, summary.csv)`,
  });
}
