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

/**
 * Runs `cclab <args>` in this process: `main(argv)` with stdout and stderr captured, as the binary
 * would run it but without a process start (and tsx's transpiling) per case.
 */
export async function cli(args: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  let code: number;
  try {
    code = await main(['node', 'cclab', ...args]);
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** Runs the real `cclab` binary as a user would, in a child process (the end-to-end tests). */
export function cclabProcess(args: string[], cwd?: string): CliRun {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, timeout: 300_000, env: { ...process.env, CCLAB_QUIET_STALE: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
