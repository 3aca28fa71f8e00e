import type { Scenario } from '../scenario/types.js';
import { formatRate } from '../units.js';

/**
 * Warnings when the link called the bottleneck is not the tightest one on a flow's path: presets give
 * every sender a 10 Mbit/s access link (as ns-3's example does), so `--bandwidth 1Gbps` on `normal`
 * would otherwise look like a 1 Gbit/s run while it is capped at 8.6 Mbit/s of goodput.
 */
export function bottleneckWarnings(s: Scenario): string[] {
  const nominal = s.bottleneck.bandwidthBps;
  const payload = s.mssBytes / (s.mssBytes + s.headerBytes);
  const slower = s.flows
    .map((f, i) => {
      const links = [
        { name: 'access link', fix: '--access-bandwidth', bps: f.access.bandwidthBps },
        ...(f.receiverAccess ? [{ name: 'receiver access link', fix: 'flows[].receiverAccess in a scenario file', bps: f.receiverAccess.bandwidthBps }] : []),
      ];
      return { i, ...links.reduce((a, b) => (b.bps < a.bps ? b : a)) };
    })
    .filter((l) => l.bps < nominal);
  if (slower.length === 0) return [];
  const first = slower[0]!;
  const all = slower.length === s.flows.length;
  const who = all ? (s.flows.length === 1 ? 'the' : "every flow's") : `flow ${slower.map((l) => l.i).join(', ')}'s`;
  const cap = all && s.flows.length === 1 ? `goodput is capped near ${formatRate(first.bps * payload)}` : `each such flow is capped near ${formatRate(first.bps * payload)}`;
  return [
    `the bottleneck link (${formatRate(nominal)}) is not the tightest link on ${s.name}: ${who} ${first.name} runs at ${formatRate(first.bps)}, so ${cap}; raise it with ${first.fix}`,
  ];
}

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
