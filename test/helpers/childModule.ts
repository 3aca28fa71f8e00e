import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distIsFresh } from '../../bin/distFresh.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let distFresh: boolean | undefined;

/**
 * How a test's child process loads the module `src/<path>.ts`: its compiled copy in dist/ when dist/
 * is built and not older than any file under src/ (the rule bin/cclab.js follows; `npm ci` builds
 * dist/ through `prepare`), else the source through tsx. For children whose test is about what the
 * module does (a cache written by several processes, a writer killed mid-write), not about tsx: tsx's
 * start-up and transpiling cost a child about 0.5 CPU-s, more than such a child's own work.
 */
export function childModule(path: string): { url: string; execArgv: string[] } {
  distFresh ??= distIsFresh();
  const built = `${ROOT}dist/${path}.js`;
  if (distFresh && existsSync(built)) return { url: pathToFileURL(built).href, execArgv: [] };
  return { url: pathToFileURL(`${ROOT}src/${path}.ts`).href, execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] };
}

const requireHere = createRequire(import.meta.url);

/**
 * The module `src/<path>.ts` for a test whose runs go to worker threads: its compiled copy from dist/
 * when fresh (childModule's rule), loaded by Node itself (`require` of an ES module, Node >= 20.19),
 * else `source()`, the source through vitest. A pool started from dist/ loads dist/ in its threads;
 * one started from the source loads every engine module through tsx in each thread (about 1.7 CPU-s
 * a thread, more than the sweeps these tests run). Same sources, same results: only the load differs.
 */
export async function builtOrSource<T>(path: string, source: () => Promise<T>): Promise<T> {
  const m = childModule(path);
  if (m.execArgv.length === 0) {
    try {
      return requireHere(fileURLToPath(m.url)) as T;
    } catch {
      // A Node without require(esm): the source, as before.
    }
  }
  return source();
}
