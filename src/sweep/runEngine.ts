import type { RunResult } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import type { Engine } from '../variants.js';

/** Signature every engine module used by a sweep exports as `runEngine` (tests inject fakes). */
export type EngineFn = (engine: Engine, scenario: Scenario) => RunResult | Promise<RunResult>;

// Module paths as variables while the engines are being written in parallel; they become static
// specifiers once src/packet/run.ts and src/fluid/run.ts exist.
const PACKET_MODULE = '../packet/run.js';
const FLUID_MODULE = '../fluid/run.js';

/**
 * The one dispatch from an engine id to its implementation. Engines are imported lazily so a
 * fluid-only sweep never loads the packet simulator (and a worker thread starts faster).
 */
export async function runEngine(engine: Engine, scenario: Scenario): Promise<RunResult> {
  switch (engine) {
    case 'packet': {
      const m = (await import(PACKET_MODULE)) as { runPacket: (s: Scenario) => RunResult };
      return m.runPacket(scenario);
    }
    case 'fluid': {
      const m = (await import(FLUID_MODULE)) as { runFluid: (s: Scenario) => RunResult };
      return m.runFluid(scenario);
    }
  }
}
