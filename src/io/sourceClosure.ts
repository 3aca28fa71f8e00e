import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/**
 * The entry file and every source file it reaches through relative imports, static or `import('./x.js')`
 * with a literal path (`./x.js` → `./x.ts` next to TypeScript sources, `./x.js` itself in compiled
 * output). What decides a result's code, for cache keys.
 */
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

