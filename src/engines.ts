import { existsSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { runFluid as RunFluid } from './fluid/run/runFluid.js';
import type { RunResult } from './result/types.js';
import type { Scenario } from './scenario/types.js';
import type { ClosedFormPrediction, closedForms as ClosedForms } from './theory/closedForms.js';
import type { runPacket as RunPacket } from './packet/run.js';
import { InputError } from './errors.js';
import { ruleModels } from './fluid/run/modelChoice.js';
import { hasEngine, isVariant, type Engine } from './variants.js';

/**
 * The one place the engines are loaded: lazily, so that `cclab --help` never loads the simulator and a
 * packet-only command never loads the fluid engine (or, through its compiler, mathjs). Every command,
 * the comparison, the report and the sweep workers get their engines here.
 */

/** The engines a comparison needs. Tests substitute their own. */
export interface EngineSet {
  runPacket(s: Scenario): RunResult | Promise<RunResult>;
  runFluid(s: Scenario): RunResult | Promise<RunResult>;
  closedForms(s: Scenario): readonly ClosedFormPrediction[];
}

export interface EngineOptions {
  /** Directory of fluid model files (default: the repository's models/). */
  modelsDir?: string;
  /**
   * Fluid engine: loss events of the hybrid models (discrete loss events) at their expected times
   * ('periodic', the default) or as a Poisson process seeded by the scenario's seed ('poisson').
   */
  lossProcess?: 'periodic' | 'poisson';
  /**
   * Packet engine: 'summary' leaves out the time series and queueing-delay distributions, for a
   * caller that keeps only the summaries (src/runs/compact.ts); the rest of the RunResult is the
   * same byte for byte (RunOptions.record, src/packet/run.ts).
   */
  record?: 'all' | 'summary';
  /** Fluid engine: model parameters over the variant's (RunFluidOptions.params; the stability example's MGT Reno). */
  params?: Record<string, number>;
}

/** The fluid engine's options among `opts`. */
function fluidOptions(opts: EngineOptions): { modelsDir?: string; lossProcess?: 'periodic' | 'poisson'; params?: Record<string, number> } {
  return { ...(opts.modelsDir === undefined ? {} : { modelsDir: opts.modelsDir }), ...(opts.lossProcess === undefined ? {} : { lossProcess: opts.lossProcess }), ...(opts.params === undefined ? {} : { params: opts.params }) };
}

const requireHere = createRequire(import.meta.url);
const TS = import.meta.url.endsWith('.ts');

/**
 * Loads a sibling module. In a sweep's worker thread running the TypeScript sources, tsx's CommonJS
 * hook is the only one that reaches the thread on Node 20 (see runs/execute.ts), so `require` the
 * .ts file there; everywhere else (compiled output, main threads, vitest) `import()` works.
 */
async function load<T>(tsPath: string, importIt: () => Promise<T>): Promise<T> {
  if (TS && !isMainThread) {
    try {
      return requireHere(tsPath) as T;
    } catch (e) {
      // Only "cannot load a .ts file here" falls back to import(); a real error in the engine surfaces.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ERR_UNKNOWN_FILE_EXTENSION' && code !== 'MODULE_NOT_FOUND' && !(e instanceof SyntaxError)) throw e;
    }
  }
  return importIt();
}

let packet: Promise<typeof RunPacket> | undefined;
let fluid: Promise<typeof RunFluid> | undefined;
let theory: Promise<typeof ClosedForms> | undefined;

/** What every run loaded here goes through; see {@link wrapPacketEngine}. */
let packetWrap: ((run: typeof RunPacket) => typeof RunPacket) | undefined;
let fluidWrap: ((run: typeof RunFluid) => typeof RunFluid) | undefined;

/** The packet engine's `runPacket`. */
export function loadPacket(): Promise<typeof RunPacket> {
  packet ??= load('./packet/run.ts', () => import('./packet/run.js')).then((m) => m.runPacket);
  const wrap = packetWrap;
  return wrap ? packet.then(wrap) : packet;
}

/**
 * Tests' seam: every command that loads the packet engine after this call gets `wrap(runPacket)`
 * (e.g. a memo, so that two commands run with the same flags share one 100 s run: same seed, same
 * result byte for byte); undefined restores the engine itself. In-process, unlike `vi.mock`, which
 * replaces a module only for files that import it afresh.
 */
export function wrapPacketEngine(wrap: ((run: typeof RunPacket) => typeof RunPacket) | undefined): void {
  packetWrap = wrap;
}

/** The same seam for the fluid engine (e.g. one that returns a failed run). */
export function wrapFluidEngine(wrap: ((run: typeof RunFluid) => typeof RunFluid) | undefined): void {
  fluidWrap = wrap;
}

/** The fluid engine's `runFluid`. */
export function loadFluid(): Promise<typeof RunFluid> {
  fluid ??= load('./fluid/run/runFluid.ts', () => import('./fluid/run/runFluid.js')).then((m) => m.runFluid);
  const wrap = fluidWrap;
  return wrap ? fluid.then(wrap) : fluid;
}

/** The closed forms of src/theory. */
export function loadClosedForms(): Promise<typeof ClosedForms> {
  theory ??= load('./theory/closedForms.ts', () => import('./theory/closedForms.js')).then((m) => m.closedForms);
  return theory;
}

/**
 * Compiles (in this process, asynchronously) the fluid models `variants` need that are not in the
 * model cache yet, so that runs never compile synchronously. Broken or missing model files throw
 * their InputError here, before anything runs.
 */
export async function prepareFluidModels(variants: readonly string[], opts: EngineOptions = {}): Promise<void> {
  requireFluidModels(variants);
  const { prepareSystems, DEFAULT_MODELS_DIR } = await load('./fluid/compiler/systemCache.ts', () => import('./fluid/compiler/systemCache.js'));
  const dir = opts.modelsDir ?? DEFAULT_MODELS_DIR;
  // With the models the rules may pick for each variant where the folder has them (src/fluid/run/modelChoice.ts).
  const lone = variants.flatMap((v) => ruleModels(v)).filter((id) => existsSync(join(dir, `${id}.model.yaml`)));
  await prepareSystems(dir, [...new Set([...variants, ...lone])]);
}

/**
 * Compiles (in this process, asynchronously) the systems the fluid runs of `scenarios` read and the
 * model cache lacks: each scenario's flow models on its own bottleneck model only
 * (prepareFluidModels compiles its variants on every bottleneck model of the folder: 24 systems for
 * the seed study's 6 models, of which its drop-tail runs read 6; ~0.9 CPU-s of compiling).
 */
export async function prepareScenarioModels(scenarios: readonly Scenario[], opts: EngineOptions = {}): Promise<void> {
  const [{ prepareSystems, DEFAULT_MODELS_DIR }, { fluidSystemsOf }] = await Promise.all([
    load('./fluid/compiler/systemCache.ts', () => import('./fluid/compiler/systemCache.js')),
    load('./fluid/run/runFluid.ts', () => import('./fluid/run/runFluid.js')),
  ]);
  const dir = opts.modelsDir ?? DEFAULT_MODELS_DIR;
  const byBottleneck = new Map<string, Set<string>>();
  for (const s of scenarios) {
    const sys = fluidSystemsOf(s, dir);
    if (!sys) continue;
    const ids = byBottleneck.get(sys.bottleneck) ?? new Set<string>();
    for (const id of sys.ids) ids.add(id);
    byBottleneck.set(sys.bottleneck, ids);
  }
  // One system per event-loop turn: a report compiles them while its worker threads run, and hands them their next runs between two.
  for (const [bottleneck, ids] of byBottleneck) {
    for (const id of ids) {
      await nextTurn();
      await prepareSystems(dir, [id], {}, [bottleneck]);
    }
  }
}

/**
 * A variant the registry runs in the packet engine only (no fluid model yet, VariantFacts.engines)
 * asked of the fluid engine: one line naming it, exit 2, before anything is compiled or run.
 */
export function requireFluidModels(variants: readonly string[]): void {
  const without = variants.filter((v) => isVariant(v) && !hasEngine(v, 'fluid'));
  if (without.length === 0) return;
  throw new InputError('variant', `${without.join(', ')}: no fluid model yet (packet engine only); sweep and validate need one for the fluid engine (compare, report and predict show "no model"): run it with cclab simulate or sweep --engines packet`);
}

/** All three, bound to the options (e.g. a models directory). */
export async function loadEngines(opts: EngineOptions = {}): Promise<EngineSet> {
  const [p, f, t] = await Promise.all([loadPacket(), loadFluid(), loadClosedForms()]);
  const fluidOpts = fluidOptions(opts);
  return { runPacket: (s) => p(s), runFluid: (s) => f(s, fluidOpts), closedForms: (s) => t(s) };
}

/** Loads an engine's modules ahead of its first run (a report's worker threads, started early: runs/worker.ts). */
export function preloadEngine(engine: Engine): Promise<unknown> {
  return engine === 'packet' ? loadPacket() : loadFluid();
}

/** Signature of a sweep's engine dispatch (tests inject fakes through a module exporting `runEngine`). */
export type EngineFn = (engine: Engine, scenario: Scenario, opts?: EngineOptions) => RunResult | Promise<RunResult>;

/** The one dispatch from an engine id to its implementation. */
export async function runEngine(engine: Engine, scenario: Scenario, opts: EngineOptions = {}): Promise<RunResult> {
  switch (engine) {
    case 'packet':
      return (await loadPacket())(scenario, opts.record === undefined ? {} : { record: opts.record });
    case 'fluid':
      return (await loadFluid())(scenario, fluidOptions(opts));
  }
}
