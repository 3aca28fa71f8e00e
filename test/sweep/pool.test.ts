import { describe, expect, it } from 'vitest';
import { runPacket } from '../../src/packet/run.js';
import { estimatedCost } from '../../src/runs/pool.js';
import { baseRttS } from '../../src/scenario/path.js';
import { presetScenario } from '../../src/scenario/presets.js';
import type { RunResult } from '../../src/result/types.js';
import type { Scenario } from '../../src/scenario/types.js';
import { builtOrSource } from '../helpers/childModule.js';
import { FAKE_ENGINE_MODULE } from './helpers.js';

// The pool and the engine module from dist/ when fresh, so that the threads load dist/ instead of tsx
// and the engines through it (builtOrSource says why); the fake engine is plain JavaScript.
const { RunPool } = await builtOrSource('runs/pool', () => import('../../src/runs/pool.js'));
const { DEFAULT_ENGINE_MODULE } = await builtOrSource('runs/execute', () => import('../../src/runs/execute.js'));
const { prestart } = await builtOrSource('cli/prestart', () => import('../../src/cli/prestart.js'));

const withDuration = (s: Scenario, durationS: number): Scenario => ({ ...s, durationS });

describe('RunPool', () => {
  it('runs the queued tasks longest first, ties in submission order, one thread', async () => {
    const pool = new RunPool(1);
    const base = presetScenario('ns3-normal', 'reno');
    const order: string[] = [];
    const costs = [3, 9, 1, 9, 5];
    try {
      await Promise.all(
        costs.map(async (cost, i) => {
          const r = await pool.run({ engineModule: FAKE_ENGINE_MODULE, engine: 'packet', scenario: { ...base, name: `s${i}` } }, cost);
          expect(r.status).toBe('ok');
          order.push(`s${i}`);
        }),
      );
    } finally {
      await pool.destroy();
    }
    expect(order).toEqual(['s1', 's3', 's4', 's0', 's2']);
  });

  it('hands each thread one run at a time, and while this thread is busy (whileBusy) three, so it goes on without waiting for this one', async () => {
    const pool = new RunPool(1);
    const base = presetScenario('ns3-normal', 'reno');
    const task = (name: string) => ({ engineModule: FAKE_ENGINE_MODULE, engine: 'packet' as const, scenario: { ...base, name } });
    const turn = () => new Promise((r) => setImmediate(r));
    try {
      const outside = [pool.run(task('a'), 1), pool.run(task('b'), 1)];
      await turn();
      expect(pool.handedOut).toBe(1);
      await Promise.all(outside);
      const inside = await pool.whileBusy(async () => {
        const runs = [1, 2, 3, 4, 5].map((i) => pool.run(task(`c${i}`), 1));
        await turn();
        const handed = pool.handedOut;
        await Promise.all(runs);
        return handed;
      });
      expect(inside).toBe(3);
    } finally {
      await pool.destroy();
    }
  });

  it('runs the whole-result runs (a report\'s charted ones) before every compact run, longest first among themselves', async () => {
    const pool = new RunPool(1);
    const base = presetScenario('ns3-normal', 'reno');
    const order: string[] = [];
    const task = (name: string) => ({ engineModule: FAKE_ENGINE_MODULE, engine: 'packet' as const, scenario: { ...base, name } });
    try {
      await Promise.all([
        pool.run(task('c9'), 9).then(() => order.push('c9')),
        pool.runFull(task('f1'), 1).then(() => order.push('f1')),
        pool.run(task('c5'), 5).then(() => order.push('c5')),
        pool.runFull(task('f3'), 3).then(() => order.push('f3')),
      ]);
    } finally {
      await pool.destroy();
    }
    expect(order).toEqual(['f3', 'f1', 'c9', 'c5']);
  });
});

describe('RunPool on two threads', () => {
  it("gives each variant a home thread, which runs that variant's runs first; a thread without runs of its own left takes the longest of the others", async () => {
    const pool = new RunPool(2);
    const base = presetScenario('ns3-normal', 'reno');
    const engineModule = new URL('./fixtures/threadEngine.js', import.meta.url).href;
    const ran: { name: string; thread: number }[] = [];
    // reno: 12 runs (estimated cost 120, home: the first thread), cubic: 2 (cost 20, the other); each run sleeps 150 ms
    // (threadEngine.js): reno's 1.8 s against cubic's 0.3 s, so the cubic thread steals unless it starts over 1.5 s late (a loaded CI machine).
    const runs = [
      ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => ({ variant: 'reno' as const, name: `r${i}` })),
      { variant: 'cubic' as const, name: 'c0' },
      { variant: 'cubic' as const, name: 'c1' },
    ];
    try {
      await Promise.all(
        runs.map(async ({ variant, name }) => {
          const r = (await pool.runFull({ engineModule, engine: 'packet', scenario: { ...base, variant, name } }, 10)) as RunResult & { threadId: number };
          ran.push({ name, thread: r.threadId });
        }),
      );
    } finally {
      await pool.destroy();
    }
    const threadOf = (name: string) => ran.find((r) => r.name === name)!.thread;
    // The first runs handed out: reno's first to its home, cubic's to the other thread (the old pool: r0 and r1, c0 and c1 last on both).
    expect(threadOf('r0')).not.toBe(threadOf('c0'));
    expect(threadOf('c1')).toBe(threadOf('c0'));
    // The cubic thread, its own runs done, took reno runs while the reno thread ran its own, so both end together
    // (how many depends on the threads' start-up).
    const names = ran.map((r) => r.name);
    const stolen = ran.filter((r) => r.thread === threadOf('c0') && r.name.startsWith('r')).map((r) => r.name);
    expect(stolen.length).toBeGreaterThan(0);
    expect(names.indexOf('c1')).toBeLessThan(names.indexOf(stolen[0]!));
    expect(names).toHaveLength(14);
  });
});

describe('RunPool.runFull (a report\'s charted runs on the workers)', () => {
  it('returns the whole result, traces included, as the engine gives it in this thread; an InputError stays one', async () => {
    const pool = new RunPool(1);
    const s = { ...presetScenario('ns3-lossy', 'reno'), durationS: 3 };
    try {
      const there = await pool.runFull({ engineModule: DEFAULT_ENGINE_MODULE, engine: 'packet', scenario: s }, 1);
      const here = runPacket(s);
      // wallS is the one field two runs of a scenario may differ in (RunResult contract).
      const json = (r: typeof here) => JSON.stringify({ ...r, stats: { ...r.stats, wallS: 0 } });
      expect(there.flows[0]!.trace.cwndBytes.t.length).toBeGreaterThan(10);
      expect(json(there)).toBe(json(here));
      // Structured cloning would make it a plain Error; compare/run.ts lets InputErrors through (bad input, exit 2).
      await expect(pool.runFull({ engineModule: DEFAULT_ENGINE_MODULE, engine: 'fluid', scenario: s, modelsDir: '/nonexistent-models' }, 1)).rejects.toMatchObject({ name: 'InputError', message: expect.stringContaining('/nonexistent-models') });
    } finally {
      await pool.destroy();
    }
  });
});

describe('prestarted threads (cli/prestart.ts: the binary starts `cclab report`\'s threads before its modules load)', () => {
  const PRELOAD_ENGINE = new URL('./fixtures/preloadEngine.js', import.meta.url).href;
  const base = presetScenario('ns3-normal', 'reno');
  /** What the thread that ran a run of a new RunPool(1) had preloaded (fixtures/preloadEngine.js): 'packet', or null when it loaded the module at that run. */
  const preloadedBy = async (): Promise<string | null> => {
    const pool = new RunPool(1);
    try {
      const r = (await pool.runFull({ engineModule: PRELOAD_ENGINE, engine: 'packet', scenario: base }, 1)) as RunResult & { preloaded: string | null };
      return r.preloaded;
    } finally {
      await pool.destroy();
    }
  };

  it('a RunPool of as many threads takes them: they loaded the engine module and its packet engine before the first run', async () => {
    const release = prestart(['node', 'cclab', 'report', '--name', 'seed-study', '--workers', '1'], PRELOAD_ENGINE);
    expect(await preloadedBy()).toBe('packet');
    await release();
    // Taken once: the next pool starts its own thread, which loads the module at its first run.
    expect(await preloadedBy()).toBeNull();
  });

  it('starts none for another command, for help, for --workers 0 or a --workers the report refuses; a pool of another size starts its own', async () => {
    const none = [['simulate', '--workers', '1'], ['report', '--help'], ['report', '--workers', '0'], ['report', '--workers=abc'], ['report', '--workers', '1', '--workers', '300'], ['report', '--workers=2']];
    for (const args of none) {
      const release = prestart(['node', 'cclab', ...args], PRELOAD_ENGINE);
      expect(await preloadedBy(), args.join(' ')).toBeNull();
      await release();
    }
    // The last --workers counts, as commander reads it.
    const release = prestart(['node', 'cclab', 'report', '--workers', '3', '--workers=1'], PRELOAD_ENGINE);
    expect(await preloadedBy()).toBe('packet');
    await release();
  });
});

describe('estimatedCost', () => {
  it("a packet run costs the packets its tightest link carries in its simulated time; a fluid run the round trips in it", () => {
    const normal = presetScenario('normal', 'reno');
    const ns3 = presetScenario('ns3-normal', 'reno');
    // normal: 1 Gbit/s of 394-byte packets (340 + 54) for 10 s; ns3-normal: its 10 Mbit/s access link, 100 s.
    expect(estimatedCost({ engine: 'packet', scenario: withDuration(normal, 10) })).toBeCloseTo((1e9 / (8 * 394)) * 10, 0);
    expect(estimatedCost({ engine: 'packet', scenario: ns3 })).toBeCloseTo((10e6 / (8 * 394)) * 100, 0);
    // ns3-normal: 100 s of a 92.36 ms base RTT; normal: 10 s of 2.20 ms, the longer fluid run of the two.
    expect(estimatedCost({ engine: 'fluid', scenario: ns3 })).toBeCloseTo((300 * 100) / baseRttS(ns3), 6);
    expect(baseRttS(ns3)).toBeCloseTo(0.09236, 4);
    expect(estimatedCost({ engine: 'fluid', scenario: withDuration(normal, 10) })).toBeGreaterThan(4 * estimatedCost({ engine: 'fluid', scenario: ns3 }));
  });
});
