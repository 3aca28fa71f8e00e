import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSweep } from '../../src/sweep/sweep.js';
import { runEngine as fakeEngine } from './fixtures/fakeEngine.js';
import { childModule } from '../helpers/childModule.js';
import { read, smallPlan, tmp } from './helpers.js';

const CHILD = new URL('./fixtures/sweepChild.mjs', import.meta.url).pathname;

/**
 * Cached runs in the cache's two-hex-digit shard folders. The writer's transient entries (e.g. the
 * `.cclab-probe-*` folder it makes and removes to check the disk) are skipped: listing them while the
 * child removes them raced into ENOENT.
 */
function countCached(dir: string): number {
  if (!existsSync(dir)) return 0;
  const shards = readdirSync(dir).filter((sub) => /^[0-9a-f]{2}$/.test(sub));
  return shards.reduce((n, sub) => n + readdirSync(join(dir, sub)).filter((f) => f.endsWith('.json')).length, 0);
}

/** The sweep in a child process: from dist/ when fresh (no tsx in the child or its two worker threads, ~1.3 CPU-s each time), else through tsx. */
function startChild(cfgPath: string, delayMs: number) {
  const sweep = childModule('sweep/sweep');
  return spawn(process.execPath, [...sweep.execArgv, CHILD, cfgPath, sweep.url], {
    env: { ...process.env, FAKE_ENGINE_DELAY_MS: String(delayMs) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

describe('crash safety', () => {
  it('kill -9 mid-sweep, then resume: finished runs are kept and runs.csv equals an uninterrupted run', async () => {
    const plan = smallPlan();
    const cacheDir = tmp();
    const outDir = tmp();
    const cfg = join(tmp(), 'cfg.json');
    writeFileSync(cfg, JSON.stringify({ plan, cacheDir, outDir, workers: 2 }));

    const child = startChild(cfg, 100);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((res) => child.on('exit', (code, sig) => res(sig === 'SIGKILL' ? -9 : code)));
    // Wait until some, not all, runs are cached, then kill without warning.
    const deadline = Date.now() + 60_000;
    while (countCached(cacheDir) < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    process.kill(child.pid!, 'SIGKILL');
    expect(await exited, stderr).toBe(-9);
    const before = countCached(cacheDir);
    expect(before).toBeGreaterThanOrEqual(8);
    expect(before).toBeLessThan(48);
    expect(existsSync(join(outDir, 'sweep.json'))).toBe(false);

    // Resume in a fresh process: only the missing runs are computed.
    const resumed = startChild(cfg, 0);
    const code = await new Promise<number | null>((res) => resumed.on('exit', res));
    expect(code).toBe(0);
    expect(countCached(cacheDir)).toBe(48);

    const refOut = tmp();
    await runSweep(plan, { cacheDir: null, outDir: refOut, workers: 0, engine: fakeEngine, codeVersion: () => 'crash-test' });
    expect(read(join(outDir, 'runs.csv'))).toBe(read(join(refOut, 'runs.csv')));
    expect(read(join(outDir, 'points.csv'))).toBe(read(join(refOut, 'points.csv')));
  });
});
