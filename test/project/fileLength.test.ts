import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Small modules with one job (issue 17): no source file in src/ over MAX_LINES lines. A file that
 * grows past it is split by job (see how src/solver/integrator.ts, src/report/build.ts or
 * src/tcp/scoreboard.ts were), not cut in arbitrary halves. Only generated or table-like files may
 * be listed here, each with its reason and capped at its length today.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const MAX_LINES = 350;

/** `path under src/` -> its length when listed, with the reason in a comment. Empty: no file needs it. */
const ALLOWED: Record<string, number> = {};

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Lines as `wc -l` counts them (a last line without a newline counts too). */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const files = tsFiles(SRC).map((f) => ({ key: relative(SRC, f).split('\\').join('/'), lines: lineCount(readFileSync(f, 'utf8')) }));

describe(`no source file in src/ over ${MAX_LINES} lines`, () => {
  it('reads every source file and counts lines as wc -l does', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(files.find((x) => x.key === 'errors.ts')!.lines).toBeGreaterThan(3);
  });

  it(`has no file over ${MAX_LINES} lines but the allowed ones, and those no longer than listed`, () => {
    const over = files.filter((x) => x.lines > MAX_LINES && !(x.key in ALLOWED)).map((x) => `${x.key}: ${x.lines} lines`);
    expect(over, 'split these into modules with one job').toEqual([]);
    const grown = files.filter((x) => x.key in ALLOWED && x.lines > ALLOWED[x.key]!).map((x) => `${x.key}: ${x.lines} > ${ALLOWED[x.key]}`);
    expect(grown).toEqual([]);
  });

  it('lists no allowance that is no longer needed', () => {
    const stale = Object.keys(ALLOWED).filter((k) => !files.some((x) => x.key === k && x.lines > MAX_LINES));
    expect(stale, 'remove these from ALLOWED').toEqual([]);
  });
});
