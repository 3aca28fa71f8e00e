import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { presetScenario } from '../../src/scenario/presets.js';
import { cacheKey, RunCache } from '../../src/runs/cache.js';
import { engineCodeVersion } from '../../src/runs/codeVersion.js';
import { compactResult } from '../../src/runs/compact.js';
import { canonicalJson } from '../../src/runs/hash.js';
import { fakeResult } from './fixtures/fakeEngine.js';
import { tmp } from './helpers.js';

/** Every leaf path of a JSON value. */
function leaves(v: unknown, path: string[] = []): string[][] {
  if (v !== null && typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => leaves(x, [...path, k]));
  }
  return [path];
}

function perturb(root: unknown, path: string[]): void {
  let o = root as Record<string, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  const k = path[path.length - 1]!;
  const v = o[k];
  o[k] = typeof v === 'number' ? v + 1 : typeof v === 'string' ? `${v}x` : typeof v === 'boolean' ? !v : v === null ? 1 : v;
}

const parts = () => ({ scenario: presetScenario('ns3-lfn', 'reno'), engine: 'packet' as const, seed: 1, codeVersion: 'v1' });

describe('cacheKey', () => {
  it('canonicalJson sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"e":1,"f":2}]},"b":1}');
    expect(canonicalJson({ x: Infinity, u: undefined })).toBe('{"x":"Infinity"}');
  });
  it('does not depend on key order', () => {
    const a = parts();
    const b = { ...a, scenario: JSON.parse(JSON.stringify(a.scenario, Object.keys(a.scenario).reverse())) };
    b.scenario = { ...structuredClone(a.scenario) };
    expect(cacheKey(b)).toBe(cacheKey(a));
  });
  it('changes when any scenario field changes (every leaf of the lfn preset but trace)', () => {
    const k0 = cacheKey(parts());
    const paths = leaves(parts().scenario).filter((p) => p[0] !== 'trace');
    expect(paths.length).toBeGreaterThanOrEqual(29);
    for (const p of paths) {
      const q = parts();
      perturb(q.scenario, p);
      expect(cacheKey(q), p.join('.')).not.toBe(k0);
    }
  });
  it('ignores trace settings (sweeps keep no traces)', () => {
    const q = parts();
    q.scenario.trace.maxPoints = 10;
    expect(cacheKey(q)).toBe(cacheKey(parts()));
  });
  it('changes with the engine, the seed and the code version', () => {
    const k0 = cacheKey(parts());
    expect(cacheKey({ ...parts(), engine: 'fluid' })).not.toBe(k0);
    expect(cacheKey({ ...parts(), seed: 2 })).not.toBe(k0);
    expect(cacheKey({ ...parts(), codeVersion: 'v2' })).not.toBe(k0);
  });
  it('engineCodeVersion is stable and differs between engines', () => {
    expect(engineCodeVersion('packet')).toBe(engineCodeVersion('packet'));
    expect(engineCodeVersion('packet')).not.toBe(engineCodeVersion('fluid'));
    expect(engineCodeVersion('fluid')).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('RunCache', () => {
  it('misses, then hits after put, under <dir>/<aa>/<key>.json', () => {
    const dir = tmp();
    const cache = new RunCache(dir);
    const p = parts();
    const key = cacheKey(p);
    expect(cache.get(key)).toBeUndefined();
    const r = compactResult(fakeResult('packet', p.scenario));
    cache.put(p, key, r);
    expect(cache.get(key)).toEqual(r);
    expect(readdirSync(join(dir, key.slice(0, 2)))).toEqual([`${key}.json`]);
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
  });
  it('ignores a leftover temp file and treats a torn or foreign file as a miss', () => {
    const dir = tmp();
    const cache = new RunCache(dir);
    const p = parts();
    const key = cacheKey(p);
    mkdirSync(join(dir, key.slice(0, 2)), { recursive: true });
    // What a writer killed between write and rename leaves behind.
    writeFileSync(join(dir, key.slice(0, 2), `.${key}.json.123.456.tmp`), '{"key":');
    expect(cache.get(key)).toBeUndefined();
    writeFileSync(cache.pathOf(key), '{"key": "trunc');
    expect(cache.get(key)).toBeUndefined();
    writeFileSync(cache.pathOf(key), JSON.stringify({ key: 'other', result: {} }));
    expect(cache.get(key)).toBeUndefined();
    const r = compactResult(fakeResult('packet', p.scenario));
    cache.put(p, key, r);
    expect(cache.get(key)).toEqual(r);
  });
});

describe('sourceClosure', () => {
  it('follows relative imports from the engine entry (packet reaches src/cc, fluid reaches src/solver)', async () => {
    const { sourceClosure, REPO_ROOT } = await import('../../src/runs/codeVersion.js');
    const rel = (fs: string[]) => fs.map((f) => f.slice(REPO_ROOT.length + 1));
    const packet = rel(sourceClosure(join(REPO_ROOT, 'src/packet/run.ts')));
    expect(packet).toContain('src/packet/run.ts');
    expect(packet.some((f) => f.startsWith('src/cc/'))).toBe(true);
    expect(packet.some((f) => f.startsWith('src/fluid/'))).toBe(false);
    const fluid = rel(sourceClosure(join(REPO_ROOT, 'src/fluid/run/runFluid.ts')));
    expect(fluid.some((f) => f.startsWith('src/solver/'))).toBe(true);
  });
  it('follows a chain of imports in a synthetic tree', async () => {
    const { sourceClosure } = await import('../../src/runs/codeVersion.js');
    const d = tmp();
    writeFileSync(join(d, 'a.ts'), "import { b } from './b.js';\nexport const a = b;\n");
    writeFileSync(join(d, 'b.ts'), "export { c as b } from './sub/c.js';\nconst x = await import('./d.js');\n");
    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'sub', 'c.ts'), 'export const c = 1;\n');
    writeFileSync(join(d, 'd.ts'), 'export {};\n');
    writeFileSync(join(d, 'unused.ts'), 'export {};\n');
    expect(sourceClosure(join(d, 'a.ts')).map((f) => f.slice(d.length + 1)).sort()).toEqual(['a.ts', 'b.ts', 'd.ts', 'sub/c.ts']);
  });
});
