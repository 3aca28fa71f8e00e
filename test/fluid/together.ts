import { mapScenario } from '../../src/fluid/run/scenarioMap.js';
import { presetScenario } from '../../src/scenario/presets.js';
import type { Scenario } from '../../src/scenario/types.js';
import type { Variant } from '../../src/variants.js';

/**
 * n flows starting together at t = 0 on a 100 Mbit/s bottleneck with 1 Gbit/s access links, no random
 * loss: a generic path, not ns-3's setup, so cclab's own mix as the generic dumbbell (no profile; under
 * the presets' ns3 profile CUBIC's share at 100 ms is 77.4% packet / 77.2% fluid, ns-3's HyStart
 * thresholds leaving its first slow start later, against 62.3% / 71.0% here).
 */
export function together(variants: Variant[], rttS: number, durationS: number): Scenario {
  const s = presetScenario('ns3-normal', variants[0]!, { flows: variants.length, durationS, accessBps: 1e9, accessDelayS: 0.001, bottleneckBps: 100e6, bottleneckDelayS: rttS / 2 - 0.001, lossRate: 0, profile: null });
  s.flows.forEach((f, i) => {
    f.startS = 0;
    f.stopS = durationS - 2.9;
    if (variants[i] !== s.variant) f.variant = variants[i];
  });
  return s;
}

/** The bottleneck's payload rate, bit/s. */
export const payloadBps = (s: Scenario): number => mapScenario(s).link.C * s.mssBytes * 8;
