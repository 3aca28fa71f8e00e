import { flowPath, payloadFraction, type LinkRole } from './path.js';
import type { Scenario } from './types.js';
import { formatRate } from '../units.js';
import { isPresetName, presetScenario, presetSetup } from './presets.js';

const LINK: Record<LinkRole, { name: string; fix: string }> = {
  access: { name: 'access link', fix: '--access-bandwidth' },
  receiverAccess: { name: 'receiver access link', fix: 'flows[].receiverAccess in a scenario file' },
  bottleneck: { name: 'bottleneck', fix: '--bandwidth' },
};

/**
 * Warnings when the link called the bottleneck is not the tightest one on a flow's path: the ns3-*
 * presets give every sender a 10 Mbit/s access link (as ns-3's example does), so `--bandwidth 1Gbps`
 * on `ns3-lfn` would otherwise look like a 1 Gbit/s run while it is capped at 8.6 Mbit/s of goodput.
 * Pages state it whatever the scenario; the command line is quiet about an ns3-* preset with its own
 * links (see {@link isNs3ExampleLinks}).
 */
export function bottleneckWarnings(s: Scenario): string[] {
  const slower = s.flows.map((_, i) => flowPath(s, i)).filter((p) => p.tightest.role !== 'bottleneck' && p.tightest.bandwidthBps < s.bottleneck.bandwidthBps);
  if (slower.length === 0) return [];
  const first = slower[0]!;
  const link = LINK[first.tightest.role];
  const all = slower.length === s.flows.length;
  const one = all && s.flows.length === 1;
  const who = one ? 'the' : all ? "every flow's" : `flow ${slower.map((p) => p.flow).join(', ')}'s`;
  const capBps = first.tightest.bandwidthBps * payloadFraction(s);
  const cap = one ? `goodput is capped near ${formatRate(capBps)}` : `each such flow is capped near ${formatRate(capBps)}`;
  return [
    `the bottleneck link (${formatRate(s.bottleneck.bandwidthBps)}) is not the tightest link on ${s.name}: ${who} ${link.name} runs at ${formatRate(first.tightest.bandwidthBps)}, so ${cap}; raise it with ${link.fix}`,
  ];
}


/**
 * An ns3-* preset whose bottleneck and access links are the preset's own (by name and rates): its slow
 * access link is what the preset is for (ns-3's example), so the command line does not warn about it.
 */
export function isNs3ExampleLinks(s: Scenario): boolean {
  if (!isPresetName(s.name) || presetSetup(s.name) !== 'ns3-example') return false;
  const p = presetScenario(s.name, s.variant);
  const a = p.flows[0]!.access;
  return (
    s.bottleneck.bandwidthBps === p.bottleneck.bandwidthBps &&
    s.flows.every((f) => f.access.bandwidthBps === a.bandwidthBps && f.receiverAccess === null)
  );
}
