import type { RunResult } from '../result/types.js';
import type { Scenario } from '../scenario/types.js';
import type { ClosedFormPrediction } from './types.js';

/** The engines a comparison needs. Injected so that tests (and the sweep) can substitute their own. */
export interface EngineSet {
  runPacket(s: Scenario): RunResult | Promise<RunResult>;
  runFluid(s: Scenario): RunResult | Promise<RunResult>;
  closedForms(s: Scenario): readonly ClosedFormPrediction[];
}

/** The real engines, loaded on first use (keeps `cclab --help` fast: mathjs and the models load here). */
export async function loadEngines(): Promise<EngineSet> {
  const [p, f, t] = await Promise.all([import('../packet/run.js'), import('../fluid/run.js'), import('../theory/closedForms.js')]);
  return { runPacket: (s) => p.runPacket(s), runFluid: (s) => f.runFluid(s), closedForms: (s) => t.closedForms(s) };
}
