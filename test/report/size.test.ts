

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRecipe } from '../../src/report/recipe.js';
import { writeReport } from '../../src/report/write.js';
import { fakeEngines } from './fakeEngines.js';
import { tempDir } from '../helpers/tmp.js';

describe('page size', () => {
  it('should keep the full seed study (15 cwnd charts of 20 000-point traces) under 5 MB', async () => {
    const recipe = loadRecipe('reports/recipes/seed-study.yaml');
    const progress: [number, number][] = [];
    const out = await writeReport(recipe, join(tempDir('cclab-size-'), 'seed'), {
      engines: fakeEngines,
      onProgress: (d, t) => progress.push([d, t]),
    });
    expect(out.cases).toHaveLength(15);
    expect(out.pageBytes).toBeLessThan(5e6);
    // progress: 30 engine runs + 15 x 9 more packet replications + the contrast's 3 lines x 5 variants x 6
    // packet runs + 17 charts + writing, monotone, ending at total
    const total = progress[0]![1];
    expect(recipe.reps).toBe(10);
    expect(recipe.contrast?.reps).toBe(6);
    expect(total).toBe(30 + 15 * 9 + 3 * 5 * 6 + 17 + 1);
    expect(out.files).toContain('contrast.csv');
    expect(progress.at(-1)).toEqual([total, total]);
    expect(progress.every(([d], i) => i === 0 || d >= progress[i - 1]![0])).toBe(true);
  });
});
