import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT } from '../io/packageRoot.js';
import { sourceClosure } from '../io/sourceClosure.js';
import type { Engine } from '../variants.js';

export { sourceClosure };

/**
 * Bump when a change alters results in a way the hashed sources below cannot see (e.g. a dependency's
 * numerics) or when the cached record format changes.
 */
export const CODE_VERSION = 'sweep-cache-1';

/** Repository root. */
export const REPO_ROOT = PACKAGE_ROOT;

/**
 * What decides an engine's numbers: its entry module, every module it imports (followed
 * transitively through relative imports, so the list cannot go stale as the engines grow), and the
 * data directories it reads at run time. Hashing these, rather than trusting a version string
 * someone must remember to bump, means an edit to a model or to the simulator invalidates exactly
 * the cached runs it could change: editing `models/cubic.model.yaml` re-runs fluid runs, not packet
 * ones. Paths are relative to the repository root; missing ones are skipped.
 */
export const ENGINE_SOURCES: Readonly<Record<Engine, { entry: string; data: readonly string[] }>> = {
  packet: { entry: 'src/packet/run.ts', data: [] },
  fluid: { entry: 'src/fluid/run/runFluid.ts', data: ['models'] },
};

function listFiles(abs: string): string[] {
  if (!existsSync(abs)) return [];
  if (statSync(abs).isFile()) return [abs];
  return readdirSync(abs, { withFileTypes: true })
    .filter((d) => !d.name.startsWith('.'))
    .flatMap((d) => listFiles(join(abs, d.name)));
}

const memo = new Map<string, string>();

/**
 * The model/code version of an engine's results: sha256 of the package version, {@link CODE_VERSION}
 * and every file of {@link ENGINE_SOURCES} (path and bytes, in sorted order; a data directory's files
 * by their path inside it, so the same models copied elsewhere give the same version). `modelsDir`
 * replaces the repository's models/ (`--models DIR`). 16 hex digits. Memoised per process: sources
 * do not change under a running sweep.
 */
export function engineCodeVersion(engine: Engine, root: string = REPO_ROOT, opts: { modelsDir?: string } = {}): string {
  const key = `${engine}\0${root}\0${opts.modelsDir ?? ''}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const h = createHash('sha256');
  const pkgPath = join(root, 'package.json');
  const pkgVersion = existsSync(pkgPath) ? String((JSON.parse(readFileSync(pkgPath, 'utf8')) as { version?: unknown }).version) : '?';
  h.update(`${pkgVersion}\0${CODE_VERSION}\0${engine}\0`);
  const src = ENGINE_SOURCES[engine];
  const named = new Map<string, string>();
  for (const f of sourceClosure(join(root, src.entry))) named.set(relative(root, f), f);
  for (const d of src.data) {
    const dir = d === 'models' && opts.modelsDir !== undefined ? opts.modelsDir : join(root, d);
    for (const f of listFiles(dir)) named.set(join(d, relative(dir, f)), f);
  }
  for (const name of [...named.keys()].sort()) {
    h.update(name).update('\0').update(readFileSync(named.get(name)!)).update('\0');
  }
  const v = h.digest('hex').slice(0, 16);
  memo.set(key, v);
  return v;
}
