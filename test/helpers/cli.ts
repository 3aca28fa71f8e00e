import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

const BIN = fileURLToPath(new URL('../../bin/cclab.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI's entry, `main(argv)`: src/cli/main.ts's, or its compiled copy (helpers/childModule.ts's builtOrSource). */
export type CliMain = (argv: string[]) => Promise<number>;

/**
 * Runs `cclab <args>` in this process: `main(argv)` with stdout and stderr captured, as the binary
 * would run it but without a process start (and tsx's transpiling) per case.
 */
export async function cli(args: string[], run: CliMain = main): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  let code: number;
  try {
    code = await run(['node', 'cclab', ...args]);
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** Runs `cclab <args>` in this process and returns its stdout; a non-zero exit throws with its stderr. */
export async function cliOk(args: string[], run?: CliMain): Promise<string> {
  const r = await cli(args, run);
  if (r.code !== 0) throw new Error(`cclab ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  return r.stdout;
}

/**
 * Runs `cclab <args>` in this process where it must refuse its input: exit 2 and one error line,
 * returned without the `cclab: error: ` prefix, with the field it names (its first word).
 */
export async function cliInputError(args: string[]): Promise<{ message: string; field: string }> {
  const r = await cli(args);
  const errors = r.stderr.split('\n').filter((l) => l.startsWith('cclab: error: '));
  if (r.code !== 2 || errors.length !== 1) throw new Error(`cclab ${args.join(' ')}: expected exit 2 and one error line, got ${r.code}: ${r.stderr.trim()}`);
  const message = errors[0]!.slice('cclab: error: '.length);
  return { message, field: message.split(' ')[0]! };
}

/** Runs the real `cclab` binary as a user would, in a child process (the end-to-end tests). */
export function cclabProcess(args: string[], cwd?: string): CliRun {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, timeout: 300_000, env: { ...process.env, CCLAB_QUIET_STALE: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
