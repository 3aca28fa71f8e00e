import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import { EXIT_RUN_FAILED, InputError } from '../errors.js';
import { parseInteger } from '../units.js';
import { MAX_ARRAY_SIZE, RUNS_PER_WORKER } from '../cluster/job.js';

/**
 * The cluster flags of `cclab sweep` and `cclab validate` (--slurm, --k8s-indexed-job and friends):
 * parsing, conflicts, and the command lines the job scripts run. The work is in src/cluster.
 */
export interface ClusterFlags {
  slurm?: boolean;
  wait?: boolean;
  slurmArraySize?: string;
  slurmOpt?: string[];
  slurmDryRun?: boolean;
  slurmTasks?: string;
  k8sIndexedJob?: boolean;
  k8sImage?: string;
  k8sClaim?: string;
}

const collect = (v: string, acc: string[] = []) => [...acc, v];

/** Flags only the submitting process reads: never passed on to the tasks. */
const CLUSTER_FLAGS = ['--slurm', '--wait', '--slurm-array-size', '--slurm-opt', '--slurm-dry-run', '--slurm-tasks', '--k8s-indexed-job', '--k8s-image', '--k8s-claim'];

export function addClusterOptions(cmd: Command, what: string): Command {
  return cmd
    .option('--slurm', `run the ${what} as a Slurm job array (one task per shard) plus a merge job; scripts in <out>/slurm`)
    .option('--wait', 'with --slurm: follow the jobs to the end, report each task and the merged output (exit 3 if a task failed)')
    .option('--slurm-array-size <n>', `array tasks (default: about ${RUNS_PER_WORKER} runs per worker of each task, at most ${MAX_ARRAY_SIZE})`)
    .option('--slurm-opt <option>', 'sbatch option for both jobs, repeatable, e.g. --slurm-opt=--partition=short (default: none)', collect)
    .option('--slurm-dry-run', 'write the Slurm scripts and print the sbatch lines; submit nothing')
    .option('--slurm-tasks <list>', 'submit only these array tasks (e.g. the failed ones: 3,7) and the merge job (default: every task)')
    .option('--k8s-indexed-job', 'write a Kubernetes Indexed Job (one pod per shard) and a merge Job into <out>/k8s; submit nothing')
    .addOption(new Option('--k8s-image <image>', 'container image of the Kubernetes pods (needs node 20)').default(undefined, 'node:20-bookworm'))
    .addOption(new Option('--k8s-claim <name>', 'PersistentVolumeClaim holding the checkout, the output and the cache').default(undefined, 'cclab-work'));
}

/** Whether the command runs through a cluster (after {@link checkClusterFlags}). */
export const wantsCluster = (o: ClusterFlags) => Boolean(o.slurm || o.slurmDryRun || o.k8sIndexedJob);

/** Conflicts between the cluster flags and the others, checked before any work (exit 2). */
export function checkClusterFlags(o: ClusterFlags & { shard?: string; dryRun?: boolean }): void {
  const slurm = Boolean(o.slurm || o.slurmDryRun);
  if (!slurm) {
    for (const [set, flag] of [[o.wait, '--wait'], [o.slurmArraySize, '--slurm-array-size'], [o.slurmOpt, '--slurm-opt'], [o.slurmTasks, '--slurm-tasks']] as const) {
      if (set !== undefined && !(o.k8sIndexedJob && flag === '--slurm-array-size')) throw new InputError(flag, 'needs --slurm');
    }
  }
  if (!wantsCluster(o)) {
    if (o.k8sImage !== undefined || o.k8sClaim !== undefined) throw new InputError(o.k8sImage !== undefined ? '--k8s-image' : '--k8s-claim', 'needs --k8s-indexed-job');
    return;
  }
  const mode = slurm ? '--slurm' : '--k8s-indexed-job';
  if (slurm && o.k8sIndexedJob) throw new InputError('--k8s-indexed-job', 'conflicts with --slurm: write one kind of job at a time');
  if (o.shard !== undefined) throw new InputError('--shard', `conflicts with ${mode}: the job array runs every shard (set their number with --slurm-array-size)`);
  if (o.dryRun) throw new InputError('--dry-run', `conflicts with ${mode}${slurm ? ' (use --slurm-dry-run to write the scripts without submitting)' : ''}`);
  if (o.slurmDryRun && o.wait) throw new InputError('--wait', 'conflicts with --slurm-dry-run (nothing is submitted)');
}

/** `--slurm-array-size`, or undefined for the default. */
export const arraySizeFlag = (o: ClusterFlags) => (o.slurmArraySize === undefined ? undefined : parseInteger(o.slurmArraySize, '--slurm-array-size'));

/** `--slurm-tasks 3,7` within 1..n. */
export function parseTasks(text: string | undefined, n: number): number[] | undefined {
  if (text === undefined) return undefined;
  const tasks = text.split(',').map((t) => t.trim());
  const out = [...new Set(tasks.map((t) => (/^\d+$/.test(t) ? Number(t) : NaN)))];
  if (out.length === 0 || out.some((t) => !Number.isInteger(t) || t < 1 || t > n)) {
    throw new InputError('--slurm-tasks', `expects a comma list of array tasks in [1, ${n}] (e.g. 3,7), got "${text}"`);
  }
  return out.sort((a, b) => a - b);
}

/**
 * The arguments the user gave on the command line, rebuilt from commander's parsed values (so
 * `--x=v`, `--x v` and repeats all come out the same), minus `drop` and the cluster flags. Options
 * left at their defaults are not repeated: the tasks get the same defaults.
 */
export function userArgs(cmd: Command, drop: readonly string[]): string[] {
  const skip = new Set([...drop, ...CLUSTER_FLAGS]);
  const out: string[] = [];
  for (const opt of cmd.options) {
    const long = opt.long;
    if (long === undefined || skip.has(long)) continue;
    const key = opt.attributeName();
    if (cmd.getOptionValueSource(key) !== 'cli') continue;
    const v: unknown = cmd.getOptionValue(key);
    if (opt.negate) {
      if (v === false) out.push(long);
    } else if (typeof v === 'boolean') {
      if (v) out.push(long);
    } else if (Array.isArray(v)) {
      for (const x of v) out.push(long, String(x));
    } else if (v !== undefined) {
      out.push(long, String(v));
    }
  }
  return out;
}

/** This checkout's bin/cclab.js: the scripts run the same cclab that wrote them. */
export const cliPath = () => fileURLToPath(new URL('../../bin/cclab.js', import.meta.url));

/** The node binary running this process. */
export const nodePath = () => process.execPath;

export interface ClusterRun {
  command: 'sweep' | 'validate';
  /** Absolute output folder: scripts in <out>/slurm, manifests in <out>/k8s. */
  out: string;
  /** Tasks (shards). */
  tasks: number;
  workers: number;
  taskArgs: string[];
  mergeArgs: string[];
  /** Folders the pods need (output, cache) besides the checkout and the working folder. */
  paths: string[];
  /** What to say when the merge job succeeded. */
  merged: string;
}

/** What {@link preflight} checked: the sbatch options and the tasks to submit. */
export interface Preflight {
  opts: readonly string[];
  tasks?: number[];
}

/**
 * Everything that can be refused before a file is written: the --slurm-opt values, --slurm-tasks
 * against the array size, and (unless a dry run or a manifest) the Slurm client commands on PATH.
 */
export async function preflight(o: ClusterFlags, tasks: number): Promise<Preflight> {
  const { requireSlurmClients, checkSlurmOpts } = await import('../cluster/index.js');
  const opts = checkSlurmOpts(o.slurmOpt ?? []);
  const chosen = parseTasks(o.slurmTasks, tasks);
  if (o.slurm && !o.slurmDryRun) requireSlurmClients(Boolean(o.wait));
  return { opts, tasks: chosen };
}

/**
 * Writes and (for --slurm) submits the job; prints the job ids, each task's end and the outcome.
 * A failed task (or merge) sets exit code 3 and lists the failures with their log paths.
 */
export async function runClusterJob(o: ClusterFlags, checked: Preflight, r: ClusterRun): Promise<void> {
  const { writeK8sManifests, runOnSlurm, DEFAULT_K8S_CLAIM, DEFAULT_K8S_IMAGE } = await import('../cluster/index.js');
  const job = {
    name: `cclab-${r.command}`,
    workDir: process.cwd(),
    node: nodePath(),
    cli: cliPath(),
    tasks: r.tasks,
    cpusPerTask: Math.max(1, r.workers),
    taskArgs: r.taskArgs,
    mergeArgs: r.mergeArgs,
    dir: join(r.out, 'slurm'),
  };
  const say = (line: string) => process.stdout.write(`${line}\n`);
  if (o.k8sIndexedJob) {
    const k = writeK8sManifests(job, { image: o.k8sImage ?? DEFAULT_K8S_IMAGE, claim: o.k8sClaim ?? DEFAULT_K8S_CLAIM, paths: r.paths }, join(r.out, 'k8s'));
    say(`wrote ${k.paths.join(', ')} (${r.tasks} shards); run them with:`);
    for (const c of k.commands) say(`  ${c}`);
    return;
  }
  // Ctrl-C while waiting stops cclab, not the jobs: say so and where their ids are.
  const onInterrupt = () => {
    process.stderr.write(`\ncclab: stopped waiting; the jobs keep running (ids in ${join(job.dir, 'jobs.json')}; scancel them to stop)\n`);
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  const res = await runOnSlurm(job, { opts: checked.opts, tasks: checked.tasks, dryRun: o.slurmDryRun, wait: o.wait, say }).finally(() => process.off('SIGINT', onInterrupt));
  if (o.slurmDryRun) {
    say(`wrote ${res.paths.array} (${r.tasks} tasks) and ${res.paths.merge}; nothing submitted`);
    return;
  }
  if (!o.wait) {
    say(`follow with: squeue -j ${res.submission!.arrayJobId},${res.submission!.mergeJobId}; logs in ${res.paths.logs}`);
    return;
  }
  if (res.failed.length > 0) {
    process.stderr.write(
      `cclab: ${res.failed.length} of ${res.waited!.tasks.length} array tasks failed; merge job ${res.submission!.mergeJobId} cancelled:\n` +
        res.failed.map((t) => `  task ${t.task}: ${t.state}, log ${t.log}\n`).join('') +
        `resubmit them with the same command and --slurm-tasks ${res.failed.map((t) => t.task).join(',')}\n`,
    );
    process.exitCode = EXIT_RUN_FAILED;
    return;
  }
  const merge = res.waited!.merge!;
  const log = res.paths.mergeLog;
  if (merge.outcome === 'failed') {
    process.stderr.write(`cclab: merge job ${res.submission!.mergeJobId} ended ${merge.state}; log ${log}\n`);
    process.exitCode = EXIT_RUN_FAILED;
    return;
  }
  // The merge step's own summary line(s), then where the result is.
  const text = existsSync(log) ? readFileSync(log, 'utf8').trim() : '';
  if (text) say(text);
  say(`merge job ${res.submission!.mergeJobId}: COMPLETED; ${r.merged}`);
}

/** `--cache` as the tasks get it: absolute (they may start elsewhere), or --no-cache. */
export const cacheArgs = (cache: string | false): string[] => (cache === false ? ['--no-cache'] : ['--cache', resolve(cache)]);
