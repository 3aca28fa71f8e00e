import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { cli as inProcess, type CliRun as InProcessRun } from '../helpers/cli.js';

/**
 * In-process CLI runs for the fuzz suite: `main(argv)` with stdout and stderr captured, and the
 * contract every input must meet (test/fuzz/README.md): a valid run (exit 0), or exit 2 with one
 * line `cclab: error: <field> ...`, no stack trace, within a time bound.
 */

export interface CliRun extends InProcessRun {
  ms: number;
}

/** Runs `cclab <args>` in this process (test/helpers/cli.ts), timed. Give written paths under a sandbox. */
export async function cli(args: readonly string[]): Promise<CliRun> {
  const t0 = performance.now();
  const r = await inProcess([...args]);
  return { ...r, ms: performance.now() - t0 };
}

/** What went wrong with a run, or null when it kept the contract. `bad` inputs must not exit 0. */
export function violation(r: CliRun, opts: { maxMs: number; mustFail?: boolean; allowRunFailed?: boolean }): string | null {
  if (/\n\s+at \S/.test(r.stderr) || /\n\s+at \S/.test(r.stdout)) return 'stack trace';
  if (r.ms > opts.maxMs) return `took ${Math.round(r.ms)} ms (bound ${opts.maxMs} ms)`;
  if (r.code === 0) return opts.mustFail ? 'silently accepted' : null;
  const errors = r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('cclab: warning: '));
  if (r.code === 3 && opts.allowRunFailed) return errors.length === 1 && /^cclab: error: run failed: ./.test(errors[0]!) ? null : `exit 3 without one 'run failed' line: ${JSON.stringify(r.stderr)}`;
  if (r.code === 1) return `internal error: ${r.stderr.trim()}`;
  if (r.code !== 2) return `exit code ${r.code}: ${r.stderr.trim()}`;
  if (errors.length !== 1) return `exit 2 with ${errors.length} error lines: ${JSON.stringify(r.stderr)}`;
  if (!/^cclab: error: \S+ \S/.test(errors[0]!)) return `exit 2 without 'cclab: error: <field> ...': ${JSON.stringify(errors[0])}`;
  return null;
}

/** Temp folders: the tests' one helper (test/helpers/tmp.ts), under the name the fuzz suite uses. */
export { tempDir as sandbox } from '../helpers/tmp.js';

/** Path -> sha256 of every file under `dir` (directories as entries too), to prove nothing changed. */
export function treeDigest(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      // lstat: a link (to /dev/zero, say) is recorded as a link, never followed.
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.set(p, `link ${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.set(p, 'dir');
        walk(p);
      } else out.set(p, createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** The paths that differ between two digests (added, removed or changed). */
export function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}
