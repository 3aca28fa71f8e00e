import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, rmdirSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { InputError } from '../errors.js';

/**
 * Checks, before any work, that `dir` can be an output directory: it is a writable directory, or
 * it does not exist yet and its nearest existing ancestor is a writable directory. Nothing is left
 * behind. A file where the directory should be, or a path the user may not write, is the user's
 * to fix: an InputError naming the flag and the path (exit 2), not an internal error at the end.
 */
export function checkOutDir(dir: string, flag: string): void {
  const target = resolve(dir);
  let p = target;
  for (;;) {
    const st = statOrNull(p, flag, dir);
    if (st) {
      // Where it fails: the folder itself when it exists, else the ancestor it would be made in.
      const cannot = (code = 'error') => (p === target ? `cannot write '${dir}' (${code})` : `cannot create '${dir}' (in '${asTyped(dir, p)}': ${code})`);
      if (!st.isDirectory()) {
        throw new InputError(flag, p === target ? `'${dir}' exists and is not a folder` : `cannot create '${dir}': '${asTyped(dir, p)}' is not a folder`);
      }
      try {
        accessSync(p, constants.W_OK | constants.X_OK);
      } catch (e) {
        throw new InputError(flag, cannot((e as NodeJS.ErrnoException).code));
      }
      probeMkdir(p, flag, cannot);
      return;
    }
    const up = dirname(p);
    if (up === p) throw new InputError(flag, `cannot create '${dir}': no existing parent folder`);
    p = up;
  }
}

/**
 * Permission bits do not tell whether a folder can be made: as root, /proc and /sys pass
 * access(W_OK), yet mkdir there fails (ENOENT, EPERM). So make one and remove it at once.
 */
function probeMkdir(parent: string, flag: string, problem: (code?: string) => string): void {
  const probe = join(parent, `.cclab-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(probe);
  } catch (e) {
    throw new InputError(flag, problem((e as NodeJS.ErrnoException).code));
  }
  rmdirSync(probe);
}

/** An ancestor `p` of the path the user typed, absolute or relative as they typed it. */
function asTyped(typed: string, p: string): string {
  return isAbsolute(typed) ? p : relative(process.cwd(), p) || '.';
}

/**
 * `mkdir -p` one level at a time. Node 20's `mkdirSync(..., { recursive: true })` loops forever
 * where mkdir answers ENOENT under an existing parent (/proc/x as root); here every mkdir error but
 * "already a directory" is thrown (with syscall and path, for {@link asUserIo}).
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); !isDirectory(p); p = dirname(p)) {
    missing.push(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !isDirectory(p)) throw e;
    }
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function statOrNull(p: string, flag: string, dir: string): Stats | null {
  try {
    return statSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Only "not there (yet)" moves on to the parent (ENOTDIR: a file on the way, which the parent
    // check then names); anything else (EACCES, ELOOP...) is the answer.
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new InputError(flag, `cannot use '${dir}' (${code ?? 'error'} on '${p}')`);
  }
}

/**
 * Runs `io` (which reads or writes files under a path the user gave) and turns a file-system error
 * into an InputError naming the flag, the operation and the path: a disk that fills up or a folder
 * removed mid-run is an environment problem the user fixes, not a bug. Other errors pass through.
 */
export function asUserIo<T>(flag: string, io: () => T): T {
  const convert = (e: unknown): never => {
    const err = e as NodeJS.ErrnoException;
    if (typeof err?.code === 'string' && typeof err.syscall === 'string') {
      throw new InputError(flag, `cannot ${err.syscall} '${err.path ?? '?'}' (${err.code})`);
    }
    throw e;
  };
  try {
    const out = io();
    return (out instanceof Promise ? out.catch(convert) : out) as T;
  } catch (e) {
    return convert(e);
  }
}
