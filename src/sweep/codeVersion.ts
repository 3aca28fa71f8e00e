import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../variants.js';

/**
 * Bump when a change alters results in a way the hashed sources below cannot see (e.g. a dependency's
 * numerics) or when the cached record format changes.
 */
export const CODE_VERSION = 'sweep-cache-1';

/** Repository root (this file is src/sweep/codeVersion.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

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
  fluid: { entry: 'src/fluid/run.ts', data: ['models'] },
};

function listFiles(abs: string): string[] {
  if (!existsSync(abs)) return [];
  if (statSync(abs).isFile()) return [abs];
  return readdirSync(abs, { withFileTypes: true })
    .filter((d) => !d.name.startsWith('.'))
    .flatMap((d) => listFiles(join(abs, d.name)));
}

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The entry file and every .ts file it reaches through relative imports (`./x.js` → `./x.ts`). */
export function sourceClosure(entryAbs: string): string[] {
  const seen = new Set<string>();
  const stack = [entryAbs];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f) || !existsSync(f)) continue;
    seen.add(f);
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(IMPORT_RE)) {
      const spec = (m[1] ?? m[2])!;
      const abs = resolve(dirname(f), spec);
      const candidates = [abs.replace(/\.js$/, '.ts'), abs, `${abs}.ts`, join(abs, 'index.ts')];
      const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile());
      if (hit) stack.push(hit);
    }
  }
  return [...seen];
}

const memo = new Map<string, string>();

/**
 * The model/code version of an engine's results: sha256 of the package version, {@link CODE_VERSION}
 * and every file of {@link ENGINE_SOURCES} (path and bytes, in sorted order). 16 hex digits.
 * Memoised per process: sources do not change under a running sweep.
 */
export function engineCodeVersion(engine: Engine, root: string = REPO_ROOT): string {
  const key = `${engine}\0${root}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const h = createHash('sha256');
  const pkgPath = join(root, 'package.json');
  const pkgVersion = existsSync(pkgPath) ? String((JSON.parse(readFileSync(pkgPath, 'utf8')) as { version?: unknown }).version) : '?';
  h.update(`${pkgVersion}\0${CODE_VERSION}\0${engine}\0`);
  const src = ENGINE_SOURCES[engine];
  const files = [...new Set([...sourceClosure(join(root, src.entry)), ...src.data.flatMap((p) => listFiles(join(root, p)))])].sort();
  for (const f of files) {
    h.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  }
  const v = h.digest('hex').slice(0, 16);
  memo.set(key, v);
  return v;
}
