import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../errors.js';

/**
 * Checks, before any work, that `dir` can be an output directory: it is a writable directory, or
 * it does not exist yet and its nearest existing ancestor is a writable directory. Nothing is
 * created. A file where the directory should be, or a path the user may not write, is the user's
 * to fix: an InputError naming the flag and the path (exit 2), not an internal error at the end.
 */
export function checkOutDir(dir: string, flag: string): void {
  const target = resolve(dir);
  let p = target;
  for (;;) {
    const st = statOrNull(p, flag, dir);
    if (st) {
      if (!st.isDirectory()) {
        throw new InputError(flag, p === target ? `'${dir}' exists and is not a directory` : `cannot create '${dir}': '${p}' is not a directory`);
      }
      try {
        accessSync(p, constants.W_OK | constants.X_OK);
      } catch (e) {
        throw new InputError(flag, `cannot write ${p === target ? `'${dir}'` : `'${dir}' (in '${p}')`} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      return;
    }
    const up = dirname(p);
    if (up === p) throw new InputError(flag, `cannot create '${dir}': no existing parent directory`);
    p = up;
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
