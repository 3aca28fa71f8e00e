import { InputError } from '../errors.js';

/**
 * A sharded job: N array tasks, each running `cclab <command> ... --shard i/N`, then one merge
 * step. The same description renders as Slurm batch scripts (slurmScript.ts) and as a Kubernetes
 * Indexed Job (k8s.ts), so both run exactly the same command lines.
 */
export interface ShardedJob {
  /** Job name shown by squeue / kubectl, e.g. `cclab-sweep`. */
  name: string;
  /** Absolute folder the commands run in (the submitting shell's, so relative paths mean the same). */
  workDir: string;
  /** Absolute path of the node binary and of this checkout's bin/cclab.js. */
  node: string;
  cli: string;
  /** Number of array tasks (shards), >= 1. */
  tasks: number;
  /** CPUs each task asks for (its worker threads). */
  cpusPerTask: number;
  /** Arguments of task i after `cclab`; {@link TASK} and {@link CPUS} stand for its index and CPUs. */
  taskArgs: readonly string[];
  /** Arguments of the merge step after `cclab`. */
  mergeArgs: readonly string[];
  /** Folder for the scripts, the job ids and the logs (`<out>/slurm`). */
  dir: string;
}

/** Placeholder for the task's 1-based index in {@link ShardedJob.taskArgs}. */
export const TASK = '{task}';
/** Placeholder for the task's CPU count. */
export const CPUS = '{cpus}';

/** Most array tasks accepted (Slurm's default MaxArraySize is 1001, indices 0..1000). */
export const MAX_ARRAY_SIZE = 1000;
/** Runs each worker of a task should get by default, so that a task's start-up is a small part of it. */
export const RUNS_PER_WORKER = 16;

/**
 * Default array size: enough tasks that each worker of each task gets about {@link RUNS_PER_WORKER}
 * runs, at least 1, at most one per run and {@link MAX_ARRAY_SIZE}.
 */
export function defaultArraySize(runs: number, workersPerTask: number): number {
  const perTask = RUNS_PER_WORKER * Math.max(1, workersPerTask);
  return Math.max(1, Math.min(runs, MAX_ARRAY_SIZE, Math.ceil(runs / perTask)));
}

/** Checks `--slurm-array-size` against the grid (no empty shard: every task must have a run). */
export function checkArraySize(n: number, runs: number, flag = '--slurm-array-size'): number {
  const top = Math.min(runs, MAX_ARRAY_SIZE);
  if (!Number.isInteger(n) || n < 1 || n > top) throw new InputError(flag, `must be a whole number in [1, ${top}] (at most one task per run, ${MAX_ARRAY_SIZE} tasks), got ${n}`);
  return n;
}

/** Single-quotes a word for sh/bash (the only safe form for arbitrary text). */
export function shQuote(s: string): string {
  return /^[A-Za-z0-9_./:=,+@%-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * A word with placeholders as one double-quoted shell word: the placeholders become the given shell
 * expansions, everything else is escaped for double quotes. Words without placeholders are single-quoted.
 */
export function shWord(s: string, expansions: Readonly<Record<string, string>>): string {
  const keys = Object.keys(expansions).filter((k) => s.includes(k));
  if (keys.length === 0) return shQuote(s);
  const parts = s.split(new RegExp(`(${keys.map((k) => k.replace(/[{}]/g, '\\$&')).join('|')})`));
  return `"${parts.map((p) => expansions[p] ?? p.replace(/[$`"\\]/g, '\\$&')).join('')}"`;
}

/** `node cli args...` as one shell command line, placeholders expanded. */
export function commandLine(node: string, cli: string, args: readonly string[], expansions: Readonly<Record<string, string>>): string {
  return [node, cli, ...args].map((a) => shWord(a, expansions)).join(' ');
}
