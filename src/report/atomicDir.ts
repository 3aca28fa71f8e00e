import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { makeDirs } from '../io/outDir.js';

/** File in every report directory: says the directory is ours to replace as a whole. */
export const REPORT_MARKER = '.cclab-report';

export interface AtomicDirHooks {
  /** Called with the finished temp directory just before it replaces the target (tests crash here). */
  beforeCommit?: (tmpDir: string) => void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Leftovers of a writer that died: temp dirs of dead processes are removed; if the target is missing
 * but a displaced old copy exists (a crash between the two renames), the old copy is put back.
 */
function recover(parent: string, base: string, target: string): void {
  for (const e of readdirSync(parent)) {
    const m = new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(tmp|old)-(\\d+)-`).exec(e);
    if (!m || alive(Number(m[2]))) continue;
    const p = join(parent, e);
    if (m[1] === 'old' && !existsSync(target)) renameSync(p, target);
    else rmSync(p, { recursive: true, force: true });
  }
}

/** Throws InputError unless `outDir` is absent, empty, or a previous report (check before long work). */
export function assertReplaceable(outDir: string): void {
  const target = resolve(outDir);
  if (!existsSync(target)) return;
  const entries = readdirSync(target);
  if (entries.length > 0 && !entries.includes(REPORT_MARKER)) {
    throw new InputError('--out', `'${outDir}' exists and is not a cclab report folder (no ${REPORT_MARKER} in it); choose a new or empty folder`);
  }
}

/**
 * Replace directory `outDir` with exactly `files` (relative path -> content), atomically: everything is
 * written to a sibling temp directory, which is then renamed into place. Readers (and a crash at any
 * point) see the old report or the new one, never a mix. An existing `outDir` is replaced only if it is
 * empty or holds a previous report (REPORT_MARKER): never someone's unrelated directory.
 */
export function writeDirAtomic(outDir: string, files: ReadonlyMap<string, string | Uint8Array>, hooks: AtomicDirHooks = {}): void {
  const target = resolve(outDir);
  const parent = dirname(target);
  const base = basename(target);
  makeDirs(parent);
  recover(parent, base, target);
  assertReplaceable(outDir);
  const tag = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const tmp = join(parent, `.${base}.tmp-${tag}`);
  try {
    mkdirSync(tmp);
    for (const [rel, data] of files) {
      const p = join(tmp, rel);
      if (!p.startsWith(tmp + '/')) throw new Error(`report file escapes its directory: ${rel}`);
      makeDirs(dirname(p));
      writeFileSync(p, data);
    }
    writeFileSync(join(tmp, REPORT_MARKER), 'Written by cclab. This directory is replaced as a whole on the next run.\n');
    hooks.beforeCommit?.(tmp);
    if (!existsSync(target)) {
      renameSync(tmp, target);
      return;
    }
    // rename() cannot replace a non-empty directory: move the old one aside, move the new one in, then delete.
    const old = join(parent, `.${base}.old-${tag}`);
    renameSync(target, old);
    try {
      renameSync(tmp, target);
    } catch (e) {
      renameSync(old, target);
      throw e;
    }
    rmSync(old, { recursive: true, force: true });
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
