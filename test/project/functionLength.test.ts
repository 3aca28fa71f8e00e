import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The style rule "no function over ~80 lines" (issue 17), held from now on: every function, method,
 * arrow function and constructor body in src/ is at most MAX_LINES lines, from its first line to its
 * closing brace. ALLOWED is for generated or table-like code, each entry capped at its length so it cannot grow.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const MAX_LINES = 80;

/** `file:function` -> its length when listed (generated or table-like code only, with the reason). Empty: none needs it. */
const ALLOWED: Record<string, number> = {};

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Every function-like node with a body: its name (Class.method, the variable or property it is assigned to) and line count. */
function functionLengths(file: string): { name: string; lines: number }[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { name: string; lines: number }[] = [];
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const visit = (n: ts.Node, context: string | undefined): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      let name = n.name ? n.name.getText(sf) : (context ?? '<anonymous>');
      if ((ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n) || ts.isAccessor(n)) && ts.isClassLike(n.parent)) {
        name = `${n.parent.name?.getText(sf) ?? '<class>'}.${n.name ? n.name.getText(sf) : 'constructor'}`;
      }
      out.push({ name, lines: lineOf(n.end) - lineOf(n.getStart(sf)) + 1 });
    }
    const next = ts.isVariableDeclaration(n) || ts.isPropertyAssignment(n) || ts.isPropertyDeclaration(n) ? n.name.getText(sf) : context;
    ts.forEachChild(n, (c) => visit(c, next));
  };
  visit(sf, undefined);
  return out;
}

const all = tsFiles(SRC).flatMap((f) => functionLengths(f).map((x) => ({ ...x, key: `${relative(SRC, f).split('\\').join('/')}:${x.name}` })));

describe(`no function in src/ over ${MAX_LINES} lines`, () => {
  it('finds the functions it measures (a long one is caught)', () => {
    expect(all.length).toBeGreaterThan(500);
    expect(all.find((x) => x.key === 'report/build.ts:buildReport')!.lines).toBeGreaterThan(10);
    const probe = join(ROOT, 'test/project/functionLength.test.ts');
    expect(functionLengths(probe).find((x) => x.name === 'functionLengths')!.lines).toBeGreaterThan(15);
  });

  it(`has no function over ${MAX_LINES} lines but the allowed ones, and those no longer than listed`, () => {
    const over = all.filter((x) => x.lines > MAX_LINES && !(x.key in ALLOWED)).map((x) => `${x.key}: ${x.lines} lines`);
    expect(over, 'split these into named phases').toEqual([]);
    const grown = all.filter((x) => x.key in ALLOWED && x.lines > ALLOWED[x.key]!).map((x) => `${x.key}: ${x.lines} > ${ALLOWED[x.key]}`);
    expect(grown).toEqual([]);
  });

  it('lists no allowance that is no longer needed', () => {
    const stale = Object.keys(ALLOWED).filter((k) => !all.some((x) => x.key === k && x.lines > MAX_LINES));
    expect(stale, 'remove these from ALLOWED').toEqual([]);
  });
});
