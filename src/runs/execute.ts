import { availableParallelism } from 'node:os';
import type { Engine } from '../variants.js';
import { cacheKey, RunCache, type CacheKeyParts } from './cache.js';
import { engineCodeVersion } from './codeVersion.js';
import { compactResult, emptySummary, type CompactRun } from './compact.js';
import { DETERMINISTIC_ENGINES, type RunSpec } from './spec.js';
import type { EngineFn } from '../engines.js';
import { DEFAULT_ENGINE_MODULE, estimatedCost, RunPool } from './pool.js';
import { loadEngine, type WorkerTask } from './worker.js';

/** A finished run: its spec and result. */
export interface RunRecord {
  spec: RunSpec;
  result: CompactRun;
  /** True when the result came from the cache. */
  cached: boolean;
}

export interface Progress {
  done: number;
  total: number;
  cached: number;
  failed: number;
}

export interface ExecuteOptions {
  /** Cache directory; null disables the cache. */
  cacheDir: string | null;
  /** Worker threads; 0 runs in this thread (tests, debugging). Default: available cores. */
  workers?: number;
  /** URL of a module exporting `runEngine` (default: src/engines.ts). Used by workers and in-process. */
  engineModule?: string;
  /** In-process engine; overrides engineModule and forces in-process execution (a function cannot cross to a worker). */
  engine?: EngineFn;
  /** Directory of fluid model files (default: the repository's models/). */
  modelsDir?: string;
  /** Model/code version per engine, part of the cache key (default: engineCodeVersion of the models used). */
  codeVersion?: (engine: Engine) => string;
  onProgress?: (p: Progress) => void;
  /** Worker threads shared with other batches (src/runs/pool.ts); default: a pool of `workers` threads for this batch. */
  pool?: RunPool;
}

/**
 * Trace points per series the engines keep during a sweep: the smallest the scenario schema allows.
 * A sweep stores summaries only, and recording and decimating full traces costs the engines up to
 * half their run time on short runs.
 */
export const SWEEP_TRACE_POINTS = 10;

/** The scenario an engine runs for a sweep: the run's scenario with minimal tracing. */
export function sweepScenario(spec: RunSpec): RunSpec['scenario'] {
  return { ...spec.scenario, trace: { maxPoints: SWEEP_TRACE_POINTS } };
}

export { DEFAULT_ENGINE_MODULE };

export function defaultWorkers(): number {
  return availableParallelism();
}

/**
 * Cache-key inputs of a run. A deterministic engine's result does not depend on the seed, so its key
 * uses seed 0: the same fluid scenario is computed once across replications, sweep seeds and
 * points that differ only in a parameter the variant ignores.
 */
export function keyParts(spec: RunSpec, codeVersion: string): CacheKeyParts {
  // With Poisson loss events the fluid engine depends on the seed.
  if (spec.lossProcess === 'poisson') return { scenario: spec.scenario, engine: spec.engine, seed: spec.seed, codeVersion, lossProcess: 'poisson' };
  if (DETERMINISTIC_ENGINES.includes(spec.engine)) {
    return { scenario: { ...spec.scenario, seed: 0 }, engine: spec.engine, seed: 0, codeVersion };
  }
  return { scenario: spec.scenario, engine: spec.engine, seed: spec.seed, codeVersion };
}

/** A run's loss-process option for the engine, when it has one. */
const lossOf = (spec: RunSpec): { lossProcess?: 'poisson' } => (spec.lossProcess ? { lossProcess: spec.lossProcess } : {});

/** Turns an exception into a failed result (not cached: it may be transient, e.g. out of memory). */
function failedRun(e: unknown): CompactRun {
  return { status: 'failed', failure: `threw: ${(e as Error)?.message ?? String(e)}`, summary: emptySummary(), flowGoodputBps: [], wallS: 0 };
}

/**
 * Runs `runs`, reusing cached results and storing new ones as each finishes (so a kill -9 loses at
 * most the runs in flight). Runs with the same cache key are computed once. Results come back in the
 * order of `runs` whatever the worker count or completion order, and are identical for any worker
 * count: each run is a pure function of its scenario.
 */
export async function executeRuns(runs: readonly RunSpec[], opts: ExecuteOptions): Promise<RunRecord[]> {
  const cache = opts.cacheDir === null ? null : new RunCache(opts.cacheDir);
  const codeVersion = opts.codeVersion ?? ((e: Engine) => engineCodeVersion(e, undefined, { modelsDir: opts.modelsDir }));
  const out: (RunRecord | undefined)[] = new Array(runs.length);
  const progress: Progress = { done: 0, total: runs.length, cached: 0, failed: 0 };
  const report = () => opts.onProgress?.({ ...progress });
  const pending = cachedOrPending(runs, cache, codeVersion, out, progress);
  report();

  const finish: Finish = (key, g, result, cacheable) => {
    if (cache && cacheable) cache.put(g.parts, key, result);
    for (const i of g.idx) {
      out[i] = { spec: runs[i]!, result, cached: false };
      progress.done++;
      if (result.status === 'failed') progress.failed++;
    }
    report();
  };

  const workers = opts.workers ?? defaultWorkers();
  const engineModule = opts.engineModule ?? DEFAULT_ENGINE_MODULE;
  const engineOpts = opts.modelsDir === undefined ? {} : { modelsDir: opts.modelsDir };
  if (opts.engine || pending.size === 0 || (!opts.pool && workers <= 0)) {
    const run = opts.engine ?? (pending.size > 0 ? await loadEngine(engineModule) : undefined);
    for (const [key, g] of pending) {
      const { result, ok } = await caught(async () => compactResult(await run!(g.spec.engine, sweepScenario(g.spec), { ...engineOpts, ...lossOf(g.spec), record: 'summary' })));
      finish(key, g, result, ok);
    }
  } else {
    await runOnWorkers(pending, opts.pool ?? Math.min(workers, pending.size), (g) => ({ engineModule, engine: g.spec.engine, scenario: sweepScenario(g.spec), ...engineOpts, ...lossOf(g.spec) }), finish);
  }
  return out as RunRecord[];
}

/** Runs sharing one cache key (duplicates, e.g. a swept value equal to the base, are computed once). */
interface PendingRun {
  idx: number[];
  spec: RunSpec;
  parts: CacheKeyParts;
}

/** Records a finished run (cached unless it threw) for every index that asked for it, and reports progress. */
type Finish = (key: string, g: PendingRun, result: CompactRun, cacheable: boolean) => void;

/** Fills `out` from the cache (counting hits); returns what is left to run, grouped by cache key. */
function cachedOrPending(runs: readonly RunSpec[], cache: RunCache | null, codeVersion: (e: Engine) => string, out: (RunRecord | undefined)[], progress: Progress): Map<string, PendingRun> {
  const pending = new Map<string, PendingRun>();
  runs.forEach((spec, i) => {
    const parts = keyParts(spec, codeVersion(spec.engine));
    const key = cacheKey(parts);
    const hit = cache?.get(key);
    if (hit) {
      out[i] = { spec, result: hit, cached: true };
      progress.done++;
      progress.cached++;
      if (hit.status === 'failed') progress.failed++;
      return;
    }
    const g = pending.get(key);
    if (g) g.idx.push(i);
    else pending.set(key, { idx: [i], spec, parts });
  });
  return pending;
}

/** A run's result, or the failed run its exception becomes (not cached: `ok` false). */
async function caught(run: () => Promise<CompactRun>): Promise<{ result: CompactRun; ok: boolean }> {
  try {
    return { result: await run(), ok: true };
  } catch (e) {
    return { result: failedRun(e), ok: false };
  }
}

/** The pending runs on worker threads (a shared pool, or one of `threads` for this batch), each finished as it comes back. */
async function runOnWorkers(pending: Map<string, PendingRun>, pool: RunPool | number, task: (g: PendingRun) => WorkerTask, finish: Finish): Promise<void> {
  const own = typeof pool === 'number' ? new RunPool(pool) : null;
  const p = own ?? (pool as RunPool);
  try {
    await Promise.all(
      [...pending].map(async ([key, g]) => {
        const { result, ok } = await caught(() => p.run(task(g) satisfies WorkerTask, estimatedCost(g.spec)));
        finish(key, g, result, ok);
      }),
    );
  } finally {
    await own?.destroy();
  }
}
