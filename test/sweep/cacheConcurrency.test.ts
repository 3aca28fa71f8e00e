import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunCache } from '../../src/runs/cache.js';
import { executeRuns } from '../../src/runs/execute.js';
import { expandPlan } from '../../src/sweep/grid.js';
import { cacheEntries } from './fixtures/cacheEntries.js';
import { runEngine as fakeEngine } from './fixtures/fakeEngine.js';
import { childModule } from '../helpers/childModule.js';
import { smallPlan, tmp } from './helpers.js';

const WRITER = new URL('./fixtures/cacheWriter.mjs', import.meta.url).pathname;

interface WriterReport {
  reads: number;
  hits: number;
  corrupted: number;
  wrong: number;
  startMs: number;
  endMs: number;
}

function writer(dir: string, id: number, rounds: number, entriesFile: string): Promise<WriterReport> {
  const cache = childModule('runs/cache');
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...cache.execArgv, WRITER, dir, String(id), String(rounds), cache.url, entriesFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (code === 0 ? done(JSON.parse(out) as WriterReport) : fail(new Error(`writer ${id} exited ${code}: ${err}`))));
  });
}

describe('the run cache under concurrent writers (shards of a job array on a shared folder)', () => {
  it('4 processes writing and reading the same 50 keys at once: 0 partial reads, 0 lost entries, no temp file left', { timeout: 300_000 }, async () => {
    const dir = tmp();
    const rounds = 4;
    const entries = cacheEntries();
    const entriesFile = join(tmp(), 'entries.json');
    writeFileSync(entriesFile, JSON.stringify(entries));
    const reports = await Promise.all([0, 1, 2, 3].map((id) => writer(dir, id, rounds, entriesFile)));
    // They did overlap: every writer was still running when the last one started.
    const lastStart = Math.max(...reports.map((r) => r.startMs));
    expect(reports.every((r) => r.endMs > lastStart)).toBe(true);
    for (const r of reports) {
      expect(r.reads).toBe(50 * rounds);
      expect(r.corrupted).toBe(0); // a torn or partial file would be unparsable or another record
      expect(r.wrong).toBe(0);
      expect(r.hits).toBeGreaterThan(0);
    }
    let corrupted = 0;
    const fresh = new RunCache(dir, () => corrupted++);
    for (const e of entries) expect(JSON.stringify(fresh.get(e.key))).toBe(e.json);
    expect([fresh.hits, corrupted]).toEqual([50, 0]);
    const files = readdirSync(dir).flatMap((sub) => readdirSync(join(dir, sub)));
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(files).toHaveLength(50);
  });

  it('a corrupted entry is recomputed, not trusted, with one line saying so, and replaced', async () => {
    const dir = tmp();
    const runs = expandPlan(smallPlan({ variants: ['reno'], engines: ['packet'], reps: 1 })).slice(0, 3);
    const first = await executeRuns(runs, { cacheDir: dir, engine: fakeEngine, codeVersion: () => 'v' });
    const paths = readdirSync(dir).flatMap((sub) => readdirSync(join(dir, sub)).map((f) => join(dir, sub, f)));
    expect(paths).toHaveLength(3);
    writeFileSync(paths[0]!, '{"key": "trunc'); // a torn file, e.g. a full disk under a non-atomic copy
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((s: string) => (lines.push(String(s)), true)) as typeof process.stderr.write;
    let again;
    try {
      again = await executeRuns(runs, { cacheDir: dir, engine: fakeEngine, codeVersion: () => 'v' });
    } finally {
      process.stderr.write = write;
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^cclab: warning: cache entry ${paths[0]} is corrupted \\(not JSON: Unterminated string in JSON.*\\); recomputing it\n$`));
    expect(again.map((r) => r.cached).sort()).toEqual([false, true, true]);
    expect(again.map((r) => r.result)).toEqual(first.map((r) => r.result));
    const key = paths[0]!.split('/').at(-1)!.replace(/\.json$/, '');
    expect(new RunCache(dir).get(key)).toEqual(again.find((r) => !r.cached)!.result);
  });
});
