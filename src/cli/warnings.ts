import { queueParams } from '../net/qdisc/registry.js';
import type { Scenario } from '../scenario/types.js';
import { bottleneckWarnings, isNs3ExampleLinks } from '../scenario/pathWarnings.js';
import { unitWarnings, type ScenarioFlags } from './scenarioOptions.js';

/**
 * The warnings the command line prints for a scenario: the path warnings, except about an ns3-*
 * preset's own 10 Mbit/s access link, which is what that preset is for (pages still state it).
 */
export function cliWarnings(s: Scenario): string[] {
  return [...(isNs3ExampleLinks(s) ? [] : bottleneckWarnings(s)), ...ecnWarnings(s)];
}

/**
 * ECN on (tcp.ecn) over a bottleneck that never marks CE (drop-tail, a policer, a discipline with
 * `ecn: false`): legal, as on a real path without an ECN-marking router, but ECN then changes nothing.
 */
export function ecnWarnings(s: Scenario): string[] {
  const q = s.bottleneck.queue;
  if (s.tcp.ecn !== true || queueParams(q).ecn === true) return [];
  return [`tcp.ecn is on but the bottleneck queue (${q.kind}) never marks CE, so ECN changes nothing; use a marking discipline (red, codel, fq_codel or pie with ecn: true, or step)`];
}

/** Prints the warnings of a scenario (or of several, each once) on stderr, the flags' unit warnings first. */
export function warnAbout(scenarios: readonly Scenario[], flags: ScenarioFlags = {}): void {
  const seen = new Set<string>();
  for (const w of unitWarnings(flags)) process.stderr.write(`cclab: warning: ${w}\n`);
  for (const s of scenarios) {
    for (const w of cliWarnings(s)) {
      if (!seen.has(w)) process.stderr.write(`cclab: warning: ${w}\n`);
      seen.add(w);
    }
  }
}
