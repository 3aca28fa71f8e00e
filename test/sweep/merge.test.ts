import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { mergeSweeps } from '../../src/sweep/merge.js';
import { runSweep } from '../../src/sweep/sweep.js';
import { runEngine as fakeEngine } from './fixtures/fakeEngine.js';
import { read, smallPlan, tmp } from './helpers.js';

const opts = { cacheDir: null, workers: 0, engine: fakeEngine, codeVersion: () => 'merge-test' } as const;
const report = async (_plan: unknown, records: readonly { spec: { runId: string } }[]) => ({ html: `<html>${records.map((r) => r.spec.runId).join(' ')}</html>`, files: [] });

describe('mergeSweeps', () => {
  it('merging 3 shards gives byte-identical runs.csv, points.csv and index.html to the unsharded sweep', async () => {
    const plan = smallPlan();
    const full = tmp();
    await runSweep(plan, { ...opts, outDir: full, report });
    const shardDirs: string[] = [];
    let total = 0;
    for (const i of [3, 1, 2]) {
      const d = tmp();
      const o = await runSweep(plan, { ...opts, outDir: d, shard: { index: i, count: 3 }, report });
      total += o.records.length;
      shardDirs.push(d);
    }
    expect(total).toBe(48);
    const merged = tmp();
    const summary = await mergeSweeps(shardDirs, merged, { report });
    expect(summary).toEqual({ runs: 48, shards: 3, missing: 0 });
    for (const f of ['runs.csv', 'points.csv', 'index.html']) expect(read(join(merged, f)), f).toBe(read(join(full, f)));
  });
  it('refuses a missing shard (unless allowPartial) and shards of another plan', async () => {
    const plan = smallPlan();
    const a = tmp();
    await runSweep(plan, { ...opts, outDir: a, shard: { index: 1, count: 2 } });
    await expect(mergeSweeps([a], tmp())).rejects.toThrow(/missing 24 of 48 runs/);
    expect((await mergeSweeps([a], tmp(), { allowPartial: true })).runs).toBe(24);
    const b = tmp();
    await runSweep(smallPlan({ seed: 7 }), { ...opts, outDir: b, shard: { index: 2, count: 2 } });
    await expect(mergeSweeps([a, b], tmp())).rejects.toThrow(InputError);
    await expect(mergeSweeps([tmp()], tmp())).rejects.toThrow(/not a finished sweep output/);
  });
});
