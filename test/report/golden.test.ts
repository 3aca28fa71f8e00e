import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMPARISON_LOSS_PROCESS, runComparison, type ComparisonCase } from '../../src/compare/run.js';
import type { EngineSet } from '../../src/engines.js';
import { resolveScenarios, validateRecipe, type ReportRecipe } from '../../src/report/recipe.js';
import { FlagNotes, goodputRows, goodputTableHtml } from '../../src/report/tables.js';
import { fakeEngines } from './fakeEngines.js';
import { loadEngines } from '../../src/engines.js';

/**
 * Golden files of the goodput table (numbers rounded to 3 significant digits, as STYLE.md asks) to
 * catch unintended changes in engines, comparison or table. On a mismatch the new table is written
 * beside the golden as `<name>-changed.json`; after checking it, update with `UPDATE_GOLDEN=1`.
 */
const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), 'golden');

function round(x: unknown): unknown {
  if (typeof x === 'number') return Number.isFinite(x) && x !== 0 ? Number(x.toPrecision(3)) : x;
  if (Array.isArray(x)) return x.map(round);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, round(v)]));
  return x;
}

/** The table as a reader sees it: the text of each cell of the HTML table. */
function tableText(cases: ComparisonCase[], recipe: ReportRecipe): string[][] {
  const html = goodputTableHtml(cases, resolveScenarios(recipe).map((s) => s.name), recipe.variants, new FlagNotes());
  return [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, '').trim()));
}

async function goldenTable(name: string, recipe: ReportRecipe, engines: EngineSet): Promise<void> {
  const cases = await runComparison(resolveScenarios(recipe), recipe.variants, { engines });
  const actual = JSON.stringify({ rows: round(goodputRows(cases)), table: tableText(cases, recipe).map((r) => r.join(' | ')) }, null, 1) + '\n';
  const path = join(GOLDEN_DIR, `${name}.json`);
  const changed = join(GOLDEN_DIR, `${name}-changed.json`);
  if (process.env.UPDATE_GOLDEN || !existsSync(path)) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(path, actual);
    if (!process.env.UPDATE_GOLDEN) throw new Error(`golden file ${path} did not exist: written now, check it in`);
    return;
  }
  const expected = readFileSync(path, 'utf8');
  if (actual !== expected) writeFileSync(changed, actual);
  expect(actual, `goodput table changed: see ${changed}; if intended, rerun with UPDATE_GOLDEN=1`).toBe(expected);
}

describe('goodput table golden files', () => {
  it('should match the golden table of the synthetic engines (table layout and formatting)', async () => {
    const recipe = validateRecipe({ name: 'golden', scenarios: ['ns3-normal', 'ns3-lfn', 'ns3-lossy'], variants: ['tahoe', 'reno', 'cubic'], duration: 20, seed: 1 });
    await goldenTable('goodput-table.synthetic', recipe, fakeEngines);
  });

  it('should match the golden table of the real engines (lossy and lfn, 20 s, reno and cubic)', async () => {
    // The engines every comparison runs with: hybrid models' loss events Poisson, seeded by the packet run's seed.
    const engines = await loadEngines({ lossProcess: COMPARISON_LOSS_PROCESS });
    const recipe = validateRecipe({ name: 'golden', scenarios: ['ns3-lossy', 'ns3-lfn'], variants: ['reno', 'cubic'], duration: 20, seed: 1 });
    await goldenTable('goodput-table.engines', recipe, engines);
  });
});
