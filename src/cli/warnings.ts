import type { Scenario } from '../scenario/types.js';
import { bottleneckWarnings, isNs3ExampleLinks } from '../scenario/pathWarnings.js';

/**
 * The warnings the command line prints for a scenario: the path warnings, except about an ns3-*
 * preset's own 10 Mbit/s access link, which is what that preset is for (pages still state it).
 */
export function cliWarnings(s: Scenario): string[] {
  return isNs3ExampleLinks(s) ? [] : bottleneckWarnings(s);
}

/** Prints the warnings of a scenario (or of several, each once) on stderr. */
export function warnAbout(scenarios: readonly Scenario[]): void {
  const seen = new Set<string>();
  for (const s of scenarios) {
    for (const w of cliWarnings(s)) {
      if (!seen.has(w)) process.stderr.write(`cclab: warning: ${w}\n`);
      seen.add(w);
    }
  }
}
