import { closeSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, basename } from 'node:path';
import { makeDirs } from './outDir.js';

/**
 * Writes a file so that readers see either the old content or the new, never a torn file: write a
 * sibling temp file, then rename over the target (atomic within one file system on POSIX).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array | Iterable<string>): void {
  makeDirs(dirname(path));
  // Unique among concurrent writers of the same file, also on other machines sharing the folder
  // (shards of a job array: the same pid on two nodes), hence the random part.
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) writeFileSync(tmp, data);
    else writeChunks(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Writes text chunk by chunk, so that a large file (a 1000-flow trace CSV) is never one string in memory. */
function writeChunks(path: string, chunks: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    for (const c of chunks) writeSync(fd, c);
  } finally {
    closeSync(fd);
  }
}
