import type { Scenario } from '../scenario/types.js';
import { bottleneckWarnings } from '../scenario/pathWarnings.js';

export { bottleneckWarnings };

/** Prints the warnings of a scenario (or of several, each once) on stderr. */
export function warnAbout(scenarios: readonly Scenario[]): void {
  const seen = new Set<string>();
  for (const s of scenarios) {
    for (const w of bottleneckWarnings(s)) {
      if (!seen.has(w)) process.stderr.write(`cclab: warning: ${w}\n`);
      seen.add(w);
    }
  }
}
