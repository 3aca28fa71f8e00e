import { presetScenario } from '../../src/scenario/presets.js';
import type { Scenario } from '../../src/scenario/types.js';
import type { Variant } from '../../src/variants.js';

/**
 * A fat pipe with random loss: one flow, 1 Gbps everywhere (access and bottleneck), buffers far
 * larger than any window, propagation RTT about 0.1 s. The queue stays empty, so R = Tp and the
 * window is loss-limited: the regime where the closed forms and the mean-field models should hold.
 */
export function fatPipe(variant: Variant, p: number, durationS = 100): Scenario {
  // A generic fat pipe, not ns-3's setup: cclab's own mix, as the generic dumbbell (no profile).
  const s = presetScenario('ns3-lfn', variant, { durationS, accessBps: 1e9, accessDelayS: 0.005, profile: null });
  s.name = `fatpipe-p${p}`;
  s.bottleneck.bandwidthBps = 1e9;
  s.bottleneck.delayS = 0.045;
  s.bottleneck.loss.rate = p;
  return s;
}
