import { createRequire } from 'node:module';
import type { runFluid } from '../fluid/run.js';
import type { runPacket } from '../packet/run.js';
import type { RunResult } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import type { Engine } from '../variants.js';

/** Signature every engine module used by a sweep exports as `runEngine` (tests inject fakes). */
export type EngineFn = (engine: Engine, scenario: Scenario) => RunResult | Promise<RunResult>;

const requireHere = createRequire(import.meta.url);

/**
 * `require` when a CommonJS TypeScript hook is active (worker threads: see worker.ts), else
 * undefined. Engines load lazily: a packet-only sweep never loads the fluid engine, whose mathjs
 * import alone costs about 0.6 s per worker thread.
 */
function tryRequire<T>(path: string): T | undefined {
  try {
    return requireHere(path) as T;
  } catch (e) {
    // Only "cannot load a .ts file here" falls back to import(); a real error in the engine surfaces.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION' || code === 'MODULE_NOT_FOUND' || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

let packet: typeof runPacket | undefined;
let fluid: typeof runFluid | undefined;

/** The one dispatch from an engine id to its implementation. */
export async function runEngine(engine: Engine, scenario: Scenario): Promise<RunResult> {
  switch (engine) {
    case 'packet':
      packet ??= (tryRequire<{ runPacket: typeof runPacket }>('../packet/run.ts') ?? (await import('../packet/run.js'))).runPacket;
      return packet(scenario);
    case 'fluid':
      fluid ??= (tryRequire<{ runFluid: typeof runFluid }>('../fluid/run.ts') ?? (await import('../fluid/run.js'))).runFluid;
      return fluid(scenario);
  }
}
