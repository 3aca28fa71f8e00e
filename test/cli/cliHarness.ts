import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/cclab.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `cclab` binary as a user would, in a child process. */
export function cclab(args: string[], cwd?: string): CliRun {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, timeout: 300_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
