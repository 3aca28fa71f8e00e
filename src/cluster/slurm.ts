import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import { InputError } from '../errors.js';

/**
 * Talking to Slurm through its client commands (sbatch, squeue, sacct, scancel), as a user on a
 * login node would. Injected as {@link SlurmShell} so the logic is testable without a cluster.
 */
export interface SlurmShell {
  run(cmd: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** The real client commands, each bounded by a timeout (a controller that hangs must not hang cclab). */
export const systemShell: SlurmShell = {
  run: (cmd, args) =>
    new Promise((done) => {
      execFile(cmd, [...args], { timeout: 60_000, encoding: 'utf8' }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0;
        done({ code, stdout, stderr: stderr || (err && !stderr ? err.message : '') });
      });
    }),
};

/** The executable `name` on PATH, or undefined. */
export function onPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      /* next */
    }
  }
  return undefined;
}

/** Fails (exit 2) unless the Slurm client commands this needs are on PATH. */
export function requireSlurmClients(wait: boolean): void {
  if (onPath('sbatch') === undefined) throw new InputError('sbatch', 'not found: is this a Slurm login node?');
  if (wait && onPath('squeue') === undefined) throw new InputError('squeue', 'not found (needed by --wait): is this a Slurm login node?');
}

/** sbatch's message in one line (its stderr may span several). */
const oneLine = (s: string) => s.trim().split('\n').map((l) => l.trim()).filter((l) => l !== '').join('; ');

/**
 * Submits a batch script; returns the job id (`sbatch --parsable` prints `id` or `id;cluster`).
 * A rejection is the user's to fix (a partition that does not exist, an option sbatch does not
 * know): sbatch's own message, exit 2.
 */
export async function sbatch(shell: SlurmShell, script: string, args: readonly string[] = []): Promise<string> {
  const r = await shell.run('sbatch', ['--parsable', ...args, script]);
  const id = r.stdout.trim().split(';')[0] ?? '';
  if (r.code !== 0 || !/^\d+$/.test(id)) {
    throw new InputError('sbatch', `rejected ${basename(script)}: ${oneLine(r.stderr) || oneLine(r.stdout) || `exit code ${r.code}`}`);
  }
  return id;
}

export async function scancel(shell: SlurmShell, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await shell.run('scancel', [...ids]);
}

/** Job ids of one submission: the array job and the merge job that depends on it. */
export interface Submission {
  arrayJobId: string;
  mergeJobId: string;
  /** The array indices submitted (all tasks, or the ones resubmitted). */
  tasks: number[];
}

/** `1-4` or `2,5,7`: sbatch's --array syntax for the given indices. */
export function arraySpec(tasks: readonly number[]): string {
  const sorted = [...tasks].sort((a, b) => a - b);
  const contiguous = sorted.every((t, i) => i === 0 || t === sorted[i - 1]! + 1);
  return contiguous && sorted.length > 1 ? `${sorted[0]}-${sorted.at(-1)}` : sorted.join(',');
}

/** The two sbatch command lines of a submission, as a user would type them (for --slurm-dry-run and the docs). */
export function sbatchLines(arrayPath: string, mergePath: string, tasks: readonly number[] | undefined): string[] {
  const array = tasks ? `--array=${arraySpec(tasks)} ` : '';
  return [`sbatch --parsable ${array}${arrayPath}`, `sbatch --parsable --dependency=afterok:<array job id> ${mergePath}`];
}

/**
 * Submits the array (all tasks, or only `tasks`: a resubmission) and the merge job after it. If the
 * merge job is refused, the array is cancelled: it would run for nothing.
 */
export async function submitArrayAndMerge(shell: SlurmShell, arrayPath: string, mergePath: string, tasks: readonly number[]): Promise<Submission> {
  const arrayJobId = await sbatch(shell, arrayPath, [`--array=${arraySpec(tasks)}`]);
  try {
    const mergeJobId = await sbatch(shell, mergePath, [`--dependency=afterok:${arrayJobId}`]);
    return { arrayJobId, mergeJobId, tasks: [...tasks] };
  } catch (e) {
    await scancel(shell, [arrayJobId]);
    throw e;
  }
}
