import { chmodSync } from 'node:fs';
import { writeFileAtomic } from '../io/atomicWrite.js';
import { asUserIo, makeDirs } from '../io/outDir.js';
import type { ShardedJob } from './job.js';
import { k8sManifests, type K8sOptions } from './k8s.js';
import { sbatchLines, submitArrayAndMerge, systemShell, type SlurmShell, type Submission } from './slurm.js';
import { arrayScript, mergeScript, slurmPaths } from './slurmScript.js';
import { waitForSubmission, type TaskEnd, type WaitResult } from './wait.js';

/** Writes array.sh and merge.sh (executable) and the logs folder; returns their paths. */
export function writeSlurmScripts(job: ShardedJob, opts: readonly string[]): ReturnType<typeof slurmPaths> {
  const p = slurmPaths(job);
  asUserIo('--out', () => {
    makeDirs(p.logs);
    writeFileAtomic(p.array, arrayScript(job, opts));
    writeFileAtomic(p.merge, mergeScript(job, opts));
    // Executable, so a user can also run one task by hand: SLURM_ARRAY_TASK_ID=3 ./array.sh
    for (const f of [p.array, p.merge]) chmodSync(f, 0o755);
  });
  return p;
}

/** Writes the Kubernetes manifests into `dir`; returns their paths and the kubectl commands. */
export function writeK8sManifests(job: ShardedJob, o: K8sOptions, dir: string): { paths: string[]; commands: string[] } {
  const m = k8sManifests(job, o, dir);
  asUserIo('--out', () => {
    writeFileAtomic(m.paths.shards, m.shards);
    writeFileAtomic(m.paths.merge, m.merge);
  });
  return { paths: [m.paths.shards, m.paths.merge], commands: m.commands };
}

export interface SlurmRunOptions {
  /** `--slurm-opt` values (#SBATCH lines of both scripts). */
  opts: readonly string[];
  /** Array indices to submit (default: all): a resubmission of failed tasks. */
  tasks?: readonly number[];
  dryRun?: boolean;
  wait?: boolean;
  shell?: SlurmShell;
  /** Progress lines (job ids, task ends). */
  say: (line: string) => void;
  intervalMs?: (elapsedMs: number) => number;
}

export interface SlurmRunResult {
  paths: ReturnType<typeof slurmPaths>;
  submission?: Submission;
  waited?: WaitResult;
  /** Array tasks that failed, with their logs (empty when none failed or nothing was waited for). */
  failed: (TaskEnd & { log: string })[];
}

/**
 * Writes the scripts, then (unless a dry run) submits the array and the merge job after it, records
 * the ids in jobs.json and (with `wait`) follows them to the end.
 */
export async function runOnSlurm(job: ShardedJob, o: SlurmRunOptions): Promise<SlurmRunResult> {
  const paths = writeSlurmScripts(job, o.opts);
  const tasks = o.tasks ?? Array.from({ length: job.tasks }, (_, i) => i + 1);
  if (o.dryRun) {
    for (const line of sbatchLines(paths.array, paths.merge, o.tasks)) o.say(line);
    return { paths, failed: [] };
  }
  const shell = o.shell ?? systemShell;
  const submission = await submitArrayAndMerge(shell, paths.array, paths.merge, tasks);
  asUserIo('--out', () => writeFileAtomic(paths.jobs, JSON.stringify(submission, null, 1) + '\n'));
  o.say(`submitted array job ${submission.arrayJobId} (tasks ${tasks.length === job.tasks ? `1-${job.tasks}` : tasks.join(',')}) and merge job ${submission.mergeJobId} (afterok:${submission.arrayJobId})`);
  if (!o.wait) return { paths, submission, failed: [] };
  const waited = await waitForSubmission(shell, submission, {
    intervalMs: o.intervalMs,
    onTask: (t) => o.say(`task ${t.task}/${job.tasks}: ${t.state}${t.outcome === 'failed' ? ` (log: ${paths.taskLog(t.task)})` : ''}`),
  });
  const failed = waited.tasks.filter((t) => t.outcome === 'failed').map((t) => ({ ...t, log: paths.taskLog(t.task) }));
  return { paths, submission, waited, failed };
}
