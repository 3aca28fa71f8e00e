import { join } from 'node:path';
import { InputError } from '../errors.js';
import { CPUS, TASK, commandLine, shQuote, type ShardedJob } from './job.js';

/** Where a job's files go, under {@link ShardedJob.dir}. */
export const slurmPaths = (job: Pick<ShardedJob, 'dir'>) => ({
  array: join(job.dir, 'array.sh'),
  merge: join(job.dir, 'merge.sh'),
  jobs: join(job.dir, 'jobs.json'),
  logs: join(job.dir, 'logs'),
  /** Log of array task i (the latest attempt: a resubmitted task overwrites it). */
  taskLog: (i: number | string) => join(job.dir, 'logs', `shard-${i}.log`),
  mergeLog: join(job.dir, 'logs', 'merge.log'),
});

/** In a batch script: the array index, and the CPUs Slurm gave (a --slurm-opt --cpus-per-task wins over ours). */
const SLURM_EXPANSIONS = (cpus: number) => ({ [TASK]: '${SLURM_ARRAY_TASK_ID}', [CPUS]: `\${SLURM_CPUS_PER_TASK:-${cpus}}` });

/**
 * Checks `--slurm-opt` values: one sbatch option each (`--partition=gpu`, `-A proj`). They become
 * `#SBATCH` lines of both scripts, so a hand resubmission gets them too; sbatch itself judges them.
 */
export function checkSlurmOpts(opts: readonly string[]): readonly string[] {
  for (const o of opts) {
    if (!o.startsWith('-') || /[\n\r]/.test(o)) throw new InputError('--slurm-opt', `takes one sbatch option per flag, starting with - (e.g. --slurm-opt=--partition=short), got ${JSON.stringify(o)}`);
    if (/^--?(array|a|dependency|d|output|o|error|e|job-name|J)(=|\s|$)/.test(o)) {
      throw new InputError('--slurm-opt', `cannot set ${o.split(/[=\s]/)[0]}: cclab sets it (use --slurm-array-size for the array)`);
    }
  }
  return opts;
}

function header(job: ShardedJob, what: string, lines: readonly string[], opts: readonly string[]): string {
  return [
    '#!/bin/bash',
    `# ${what}`,
    `# Written by cclab; runs ${job.cli} with ${job.node}, in ${job.workDir}.`,
    ...lines.map((l) => `#SBATCH ${l}`),
    ...opts.map((o) => `#SBATCH ${o}`),
    'set -euo pipefail',
    `cd ${shQuote(job.workDir)}`,
    // The CLI runs its TypeScript sources when dist/ is stale; the note would repeat in every log.
    'export CCLAB_QUIET_STALE=1',
  ].join('\n');
}

/** The array job: task i runs shard i of N. */
export function arrayScript(job: ShardedJob, opts: readonly string[]): string {
  const p = slurmPaths(job);
  return (
    header(
      job,
      `One task per shard (${job.tasks}). Resubmit failed tasks with: sbatch --array=<ids> ${p.array}`,
      [`--job-name=${job.name}`, `--array=1-${job.tasks}`, `--cpus-per-task=${job.cpusPerTask}`, `--output=${join(p.logs, 'shard-%a.log')}`],
      opts,
    ) + `\nexec ${commandLine(job.node, job.cli, job.taskArgs, SLURM_EXPANSIONS(job.cpusPerTask))}\n`
  );
}

/** The merge job, submitted with --dependency=afterok:<array job>. */
export function mergeScript(job: ShardedJob, opts: readonly string[]): string {
  const p = slurmPaths(job);
  return (
    header(
      job,
      `Merges the ${job.tasks} shards once every array task succeeded: sbatch --dependency=afterok:<array job id> ${p.merge}`,
      [`--job-name=${job.name}-merge`, `--cpus-per-task=${job.cpusPerTask}`, `--output=${p.mergeLog}`],
      opts,
    ) + `\nexec ${commandLine(job.node, job.cli, job.mergeArgs, SLURM_EXPANSIONS(job.cpusPerTask))}\n`
  );
}
