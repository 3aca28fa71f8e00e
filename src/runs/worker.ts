/**
 * Piscina worker: runs one sweep run and returns its compact result (never the traces: structured
 * cloning megabytes of trace per run back to the main thread would cost more than some runs).
 * Loaded under tsx (see pool.ts), so it can import the TypeScript engines directly.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isMainThread, workerData } from 'node:worker_threads';
import type { RunResult } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import type { Engine } from '../variants.js';
import { compactResult, type CompactRun } from './compact.js';
import type { EngineFn } from '../engines.js';

export interface WorkerTask {
  /** URL of a module exporting `runEngine: EngineFn`. */
  engineModule: string;
  engine: Engine;
  scenario: Scenario;
  /** Directory of fluid model files (default: the repository's models/). */
  modelsDir?: string;
  /** Fluid runs: hybrid models' loss events as a seeded Poisson process. */
  lossProcess?: 'poisson';
  /** Fluid runs: model parameters over the variant's (EngineOptions.params). */
  params?: Record<string, number>;
  /** Return the whole RunResult, traces included (a report's charted runs), instead of the compact one. */
  full?: boolean;
}

/**
 * What a `full` task returns: the result, or what the engine threw as its name and message (structured
 * cloning keeps the name of built-in errors only, and an InputError must stay one: compare/run.ts
 * lets bad input through instead of turning it into a failed run).
 */
export type FullReply = { result: RunResult } | { thrown: { name: string; message: string } };

/** What piscina hands a thread at its start (RunPool's prestarted threads): an engine module to load before the first run. */
export interface WorkerData {
  preload?: string;
}

/** An engine module: its dispatch, and optionally what loads an engine's own modules ahead of a run (src/engines.ts). */
interface EngineModule {
  runEngine?: EngineFn;
  preloadEngine?: (engine: Engine) => Promise<unknown>;
}

const modules = new Map<string, Promise<EngineModule>>();

const requireHere = createRequire(import.meta.url);

/**
 * Loads an engine module by URL. In a worker thread on Node 20, tsx's ESM hooks (registered by
 * `--import tsx`) do not reach dynamic `import()`, but its CommonJS hook does: so `require` first
 * (tsx compiles the TypeScript), and `import()` for what require cannot load (ESM-only modules, or
 * the main thread under vitest).
 */
export async function loadEngine(url: string): Promise<EngineFn> {
  return (await engineModule(url)).runEngine!;
}

/** The engine module at `url`, loaded once per thread (see loadEngine). */
function engineModule(url: string): Promise<EngineModule> {
  let p = modules.get(url);
  if (!p) {
    p = (async () => {
      let m: EngineModule;
      try {
        m = requireHere(fileURLToPath(url)) as EngineModule;
      } catch {
        m = (await import(url)) as EngineModule;
      }
      if (typeof m.runEngine !== 'function') throw new Error(`engine module ${url} does not export runEngine`);
      return m;
    })();
    modules.set(url, p);
  }
  return p;
}

// A prestarted thread (runs/pool.ts prestartRunPool) loads its engine module and the packet engine
// now, while the main thread is still starting; its first run then awaits the same (cached)
// promises, and so throws what failed here, as it would have loading them itself.
const preload = (workerData as WorkerData | null)?.preload;
if (!isMainThread && preload !== undefined) {
  engineModule(preload)
    .then((m) => m.preloadEngine?.('packet'))
    .catch(() => {});
}

export default async function runTask(task: WorkerTask): Promise<CompactRun | FullReply> {
  const run = await loadEngine(task.engineModule);
  const go = async (record: 'all' | 'summary') =>
    run(task.engine, task.scenario, { ...(task.modelsDir === undefined ? {} : { modelsDir: task.modelsDir }), ...(task.lossProcess ? { lossProcess: task.lossProcess } : {}), ...(task.params ? { params: task.params } : {}), record });
  // The compact result reads no series: the packet engine need not record them (EngineOptions.record).
  if (!task.full) return compactResult(await go('summary'));
  try {
    return { result: await go('all') };
  } catch (e) {
    return { thrown: e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) } };
  }
}
