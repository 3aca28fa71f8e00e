import type { SlurmShell, Submission } from './slurm.js';
import { scancel } from './slurm.js';

/**
 * Following a submission until its array tasks and its merge job end. `sbatch --wait` polls at 2,
 * 10, 42 s then every 32 s: too coarse for a test and for a user watching a short sweep. This polls
 * `squeue` (which lists finished jobs for MinJobAge, 300 s by default) every second for the first
 * minute, then every 10 s, then every 30 s after ten minutes, and asks `sacct` about jobs squeue no
 * longer lists (where accounting is on).
 */

/** Slurm job states that end a job successfully / unsuccessfully (squeue %T, sacct State). */
const DONE = new Set(['COMPLETED']);
const FAILED = new Set(['FAILED', 'CANCELLED', 'TIMEOUT', 'NODE_FAIL', 'OUT_OF_MEMORY', 'BOOT_FAIL', 'DEADLINE', 'PREEMPTED', 'REVOKED', 'SPECIAL_EXIT']);

export type Outcome = 'completed' | 'failed';

export interface TaskEnd {
  task: number;
  state: string;
  outcome: Outcome;
}

export interface WaitResult {
  tasks: TaskEnd[];
  /** The merge job's end, or undefined when it was cancelled because a task failed. */
  merge?: { state: string; outcome: Outcome };
}

export interface WaitOptions {
  /** Called once per array task as it ends. */
  onTask?: (t: TaskEnd) => void;
  /** Poll interval at elapsed time t (ms). */
  intervalMs?: (elapsedMs: number) => number;
  sleep?: (ms: number) => Promise<void>;
}

export const defaultInterval = (elapsedMs: number) => (elapsedMs < 60_000 ? 1_000 : elapsedMs < 600_000 ? 10_000 : 30_000);

/** `CANCELLED by 0` -> `CANCELLED`; `COMPLETED` -> `COMPLETED`. */
const baseState = (s: string) => s.trim().split(/\s+/)[0]!.replace(/\+$/, '');

/** State of a job that left squeue's list where there is no accounting: counted as failed. */
const UNKNOWN = 'UNKNOWN (no longer listed by squeue; no sacct)';

const outcomeOf = (state: string): Outcome | undefined => (DONE.has(state) ? 'completed' : FAILED.has(state) || state === UNKNOWN ? 'failed' : undefined);

/**
 * States of the given jobs, keyed `<array>_<task>` for array tasks and `<id>` otherwise. squeue
 * first; when it does not list one of `wanted` (purged), sacct is asked too.
 */
export async function jobStates(shell: SlurmShell, ids: readonly string[], wanted: readonly string[] = []): Promise<Map<string, string>> {
  const states = new Map<string, string>();
  const q = await shell.run('squeue', ['-h', '-r', '--states=all', '-j', ids.join(','), '-o', '%i|%T']);
  // squeue exits 1 with "Invalid job id specified" once every listed job is purged: not an error here.
  for (const line of q.stdout.split('\n')) {
    const [id, state] = line.trim().split('|');
    if (id && state) states.set(id, baseState(state));
  }
  // sacct asks the accounting database: only when squeue left out a job we follow.
  if (wanted.length > 0 && wanted.every((k) => states.has(k))) return states;
  const a = await shell.run('sacct', ['-n', '-X', '-P', '-j', ids.join(','), '-o', 'JobID,State']);
  if (a.code === 0) {
    for (const line of a.stdout.split('\n')) {
      const [id, state] = line.trim().split('|');
      if (id && state && !states.has(id)) states.set(id, baseState(state));
    }
  }
  return states;
}

/**
 * Polls until every submitted task has ended, then (if all succeeded) the merge job. A failed task
 * means the merge job can never start (afterok): it is cancelled and not waited for.
 */
export async function waitForSubmission(shell: SlurmShell, sub: Submission, opts: WaitOptions = {}): Promise<WaitResult> {
  const interval = opts.intervalMs ?? defaultInterval;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const ended = new Map<number, TaskEnd>();
  const seen = new Set<string>();
  // Elapsed time for the polling schedule only (a monotonic clock; no result depends on it).
  const t0 = performance.now();
  for (;;) {
    const wanted = [...sub.tasks.filter((t) => !ended.has(t)).map((t) => `${sub.arrayJobId}_${t}`), sub.mergeJobId];
    const states = await jobStates(shell, [sub.arrayJobId, sub.mergeJobId], wanted);
    // A job squeue listed and then forgot, with no sacct to ask, ended in an unknown state.
    for (const id of seen) if (!states.has(id)) states.set(id, UNKNOWN);
    for (const id of states.keys()) seen.add(id);
    for (const task of sub.tasks) {
      if (ended.has(task)) continue;
      const state = states.get(`${sub.arrayJobId}_${task}`);
      const outcome = state === undefined ? undefined : outcomeOf(state);
      if (state !== undefined && outcome !== undefined) {
        const end = { task, state, outcome };
        ended.set(task, end);
        opts.onTask?.(end);
      }
    }
    const tasks = sub.tasks.flatMap((t) => (ended.has(t) ? [ended.get(t)!] : []));
    if (tasks.length === sub.tasks.length && tasks.some((t) => t.outcome === 'failed')) {
      await scancel(shell, [sub.mergeJobId]);
      return { tasks };
    }
    const mergeState = states.get(sub.mergeJobId);
    const mergeOutcome = mergeState === undefined ? undefined : outcomeOf(mergeState);
    if (tasks.length === sub.tasks.length && mergeState !== undefined && mergeOutcome !== undefined) {
      return { tasks, merge: { state: mergeState, outcome: mergeOutcome } };
    }
    await sleep(interval(performance.now() - t0));
  }
}
