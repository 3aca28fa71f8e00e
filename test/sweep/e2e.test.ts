import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtOrSource } from '../helpers/childModule.js';
import { cliOk } from '../helpers/cli.js';
import { tmp } from './helpers.js';

describe('cclab sweep on the fluid engine', () => {
  it('runs a 2 x 2 loss x RTT grid for reno and cubic in a worker, writes the outputs, and re-runs from cache', async () => {
    const out = tmp();
    const cache = tmp();
    const args = ['sweep', '--variants', 'reno,cubic', '--engines', 'fluid', '--loss', '1e-3,1e-2', '--rtt', '20ms,100ms', '--scenario', 'ns3-lfn', '--duration', '10s', '--workers', '1', '--cache', cache, '--quiet', '--out', out];
    // The CLI from dist/ when fresh, so that its worker thread loads dist/ (builtOrSource says why).
    const { main } = await builtOrSource('cli/main', () => import('../../src/cli/main.js'));
    const first = await cliOk(args, main);
    expect(first).toMatch(/^sweep: 8 runs \(0 cached, 0 failed\)/);
    const runs = readFileSync(join(out, 'runs.csv'), 'utf8').trim().split('\n');
    expect(runs).toHaveLength(9);
    const header = runs[0]!.split(',');
    for (const line of runs.slice(1)) {
      const row = line.split(',');
      expect(row[header.indexOf('status')]).toBe('ok');
      const g = Number(row[header.indexOf('goodputBps')]);
      expect(g).toBeGreaterThan(0);
      expect(g).toBeLessThan(10e6); // the 10 Mbps access link
    }
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(existsSync(join(out, 'points.csv'))).toBe(true);
    // The re-run reads every run from the cache; its page (already checked above) is left out: --no-report.
    const second = await cliOk([...args, '--no-report'], main);
    expect(second).toMatch(/^sweep: 8 runs \(8 cached, 0 failed\)/);
  });
});

describe('packet engine determinism across workers', () => {
  it('a 2-worker sweep gives the same runs.csv as an in-process one (no engine state leaks between runs)', async () => {
    const { runSweep } = await builtOrSource('sweep/sweep', () => import('../../src/sweep/sweep.js'));
    const { headlineAxis } = await import('../../src/runs/axes.js');
    const { presetScenario } = await import('../../src/scenario/presets.js');
    const plan = {
      base: presetScenario('ns3-lossy', 'reno', { durationS: 5 }),
      axes: [headlineAxis('loss', '1e-2,5e-2'), headlineAxis('rtt', '20ms,60ms')],
      variants: ['reno' as const, 'cubic' as const],
      engines: ['packet' as const],
      reps: 2,
      seed: 3,
    };
    const a = tmp();
    const b = tmp();
    // Different orders too: in-process runs in plan order, the pool in completion order.
    await runSweep(plan, { cacheDir: null, workers: 0, outDir: a });
    await runSweep(plan, { cacheDir: null, workers: 2, outDir: b });
    expect(readFileSync(join(b, 'runs.csv'), 'utf8')).toBe(readFileSync(join(a, 'runs.csv'), 'utf8'));
    const rows = readFileSync(join(a, 'runs.csv'), 'utf8').trim().split('\n').slice(1);
    expect(rows).toHaveLength(16);
    // Replications differ (distinct seeds) at 5% loss.
    const g = rows.map((r) => r.split(',')[9]);
    expect(new Set(g).size).toBeGreaterThan(8);
  });
});

describe('trace settings do not change summaries', () => {
  it.each(['packet', 'fluid'] as const)('%s: the summary is the same with 10 and 4000 trace points (why the cache key skips trace)', async (engine) => {
    const { runEngine } = await import('../../src/engines.js');
    const { presetScenario } = await import('../../src/scenario/presets.js');
    const s = presetScenario('ns3-lossy', 'cubic', { durationS: 5 });
    s.bottleneck.loss.rate = 0.02;
    const full = await runEngine(engine, { ...s, trace: { maxPoints: 4000 } });
    const small = await runEngine(engine, { ...s, trace: { maxPoints: 10 } });
    expect(small.summary).toEqual(full.summary);
  });
});
