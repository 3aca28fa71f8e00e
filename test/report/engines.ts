import { loadEngines, type EngineSet } from '../../src/compare/engines.js';
import { fakeEngines } from './fakeEngines.js';

/**
 * The real engines when all three have landed (packet, fluid, closed forms), else the synthetic ones,
 * so report tests run during development and test the real thing once it exists.
 */
export async function testEngines(): Promise<{ engines: EngineSet; real: boolean }> {
  try {
    return { engines: await loadEngines(), real: true };
  } catch {
    return { engines: fakeEngines, real: false };
  }
}
