import { runFluid } from '../fluid/run.js';
import { runPacket } from '../packet/run.js';
import type { RunResult } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import type { Engine } from '../variants.js';

/** Signature every engine module used by a sweep exports as `runEngine` (tests inject fakes). */
export type EngineFn = (engine: Engine, scenario: Scenario) => RunResult | Promise<RunResult>;

/**
 * The one dispatch from an engine id to its implementation. Static imports on purpose: in a worker
 * thread on Node 20 only tsx's CommonJS hook is active (see worker.ts), and it compiles static
 * imports but not dynamic `import()` of TypeScript files.
 */
export function runEngine(engine: Engine, scenario: Scenario): RunResult {
  switch (engine) {
    case 'packet':
      return runPacket(scenario);
    case 'fluid':
      return runFluid(scenario);
  }
}
