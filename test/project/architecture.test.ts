import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The import layers of ARCHITECTURE.md, checked against the code: the table there is the one copy
 * (this test reads it), so the document cannot drift from what the test enforces.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

interface Layer {
  rank: number;
  units: string[];
}

/** The rows of the `## Layers` table: `| rank | `unit`, `unit` | what |`, lowest first. */
function readLayers(): Layer[] {
  const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const section = text.split(/^## /m).find((s) => s.startsWith('Layers'));
  if (!section) throw new Error('ARCHITECTURE.md has no "## Layers" section');
  return section
    .split('\n')
    .map((line) => /^\|\s*(\d+)\s*\|([^|]*)\|/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ rank: Number(m[1]), units: [...m[2]!.matchAll(/`([^`]+)`/g)].map((u) => u[1]!) }));
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Relative imports of a file (static, re-exports, dynamic `import('...')` with a literal), resolved to .ts paths under src/. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
}

const layers = readLayers();
const rankOf = new Map(layers.flatMap((l) => l.units.map((u) => [u, l.rank] as const)));
/** Longest unit first, so `scenario/check` wins over `scenario` for the files below it. */
const units = [...rankOf.keys()].sort((a, b) => b.length - a.length);

/** The unit a file belongs to: a root file by its name (`variants.ts`), else the longest listed folder holding it. */
function unitOf(file: string): string | undefined {
  const rel = relative(SRC, file).split('\\').join('/');
  return units.find((u) => rel === u || rel.startsWith(`${u}/`));
}

const files = tsFiles(SRC);
const edges = files.flatMap((from) => importsOf(from).map((to) => ({ from, to, a: unitOf(from), b: unitOf(to) })));

describe('ARCHITECTURE.md: import layers (src/)', () => {
  it('lists its layers in rank order, each unit once, and every unit exists', () => {
    expect(layers.length).toBeGreaterThan(10);
    expect(layers.map((l) => l.rank)).toEqual(layers.map((_, i) => i));
    const all = layers.flatMap((l) => l.units);
    expect(new Set(all).size).toBe(all.length);
    const missing = all.filter((u) => !files.some((f) => unitOf(f) === u));
    expect(missing, 'units in the table with no source file').toEqual([]);
  });

  it('places every source file in a layer (a new top-level folder or root file needs a row)', () => {
    const unplaced = files.filter((f) => unitOf(f) === undefined).map((f) => relative(SRC, f));
    expect(unplaced).toEqual([]);
  });

  it('has no import from a unit to one in the same or a higher layer', () => {
    const wrong = edges
      .filter((e) => e.a !== undefined && e.b !== undefined && e.a !== e.b && rankOf.get(e.b)! >= rankOf.get(e.a)!)
      .map((e) => `${relative(SRC, e.from)} -> ${relative(SRC, e.to)} (${e.a}, layer ${rankOf.get(e.a!)}, may not import ${e.b}, layer ${rankOf.get(e.b!)})`);
    expect(wrong).toEqual([]);
  });

  it('has no cycle between units (strongly connected components of the unit graph are single units)', () => {
    const adj = new Map<string, Set<string>>();
    for (const e of edges) if (e.a && e.b && e.a !== e.b) (adj.get(e.a) ?? adj.set(e.a, new Set()).get(e.a)!).add(e.b);
    // Tarjan's algorithm.
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const visit = (v: string): void => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of adj.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1) cycles.push(scc.sort());
      }
    };
    for (const v of adj.keys()) if (!index.has(v)) visit(v);
    expect(cycles).toEqual([]);
  });

  it('keeps report, sweep and validate apart: none imports another', () => {
    const apart = new Set(['report', 'sweep', 'validate']);
    const crossing = edges.filter((e) => e.a && e.b && e.a !== e.b && apart.has(e.a) && apart.has(e.b)).map((e) => `${relative(SRC, e.from)} -> ${relative(SRC, e.to)}`);
    expect(crossing).toEqual([]);
  });

  it('sees the imports it checks (the parser finds static, re-exported and dynamic imports)', () => {
    // engines.ts loads the engines with import(); runs/index.ts re-exports; cli/commands.ts loads commands lazily.
    const of = (f: string): string[] => importsOf(join(SRC, f)).map((t) => relative(SRC, t));
    expect(of('engines.ts')).toEqual(expect.arrayContaining(['packet/run.ts', 'fluid/run/runFluid.ts']));
    expect(of('runs/index.ts')).toEqual(expect.arrayContaining(['runs/execute.ts', 'runs/cache.ts']));
    expect(of('cli/commands.ts')).toEqual(expect.arrayContaining(['cli/report.ts', 'cli/sweep.ts']));
    expect(unitOf(join(SRC, 'scenario/check/validate.ts'))).toBe('scenario/check');
    expect(unitOf(join(SRC, 'scenario/types.ts'))).toBe('scenario');
  });
});
