import type { RunResult } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import type { ClosedFormLike } from './types.js';

/** The engines a comparison needs. Injected so that tests (and the sweep) can substitute their own. */
export interface EngineSet {
  runPacket(s: Scenario): RunResult | Promise<RunResult>;
  runFluid(s: Scenario): RunResult | Promise<RunResult>;
  closedForms(s: Scenario): readonly ClosedFormLike[];
}

/** The real engines, loaded on first use (keeps `cclab report --help` fast). */
export async function loadEngines(): Promise<EngineSet> {
  // Module paths as variables until the engines land; then these become static imports.
  const packetPath = '../packet/run.js';
  const fluidPath = '../fluid/run.js';
  const theoryPath = '../theory/closedForms.js';
  const [p, f, t] = (await Promise.all([import(packetPath), import(fluidPath), import(theoryPath)])) as [
    { runPacket: EngineSet['runPacket'] },
    { runFluid: EngineSet['runFluid'] },
    { closedForms: EngineSet['closedForms'] },
  ];
  return { runPacket: p.runPacket, runFluid: f.runFluid, closedForms: t.closedForms };
}
