import type { Variant } from '../variants.js';
import { bdpPackets } from './path.js';
import { defaultTcp } from './presets.js';
import type { FlowSpec, LinkSpec, Scenario } from './types.js';

/**
 * The generic dumbbell used when a scenario file names no preset: a 100 Mbps / 10 ms bottleneck,
 * 1 Gbps / 1 ms access links on both sides, Ethernet-sized segments (MSS 1448, 40 B IP+TCP headers),
 * a drop-tail queue of one bandwidth-delay product, no random loss.
 */
export const DUMBBELL_DEFAULTS = {
  bottleneckBps: 100e6,
  bottleneckDelayS: 0.01,
  accessBps: 1e9,
  accessDelayS: 0.001,
  mssBytes: 1448,
  headerBytes: 40,
  durationS: 100,
} as const;

export function dumbbellScenario(variant: Variant, flowCount = 1): Scenario {
  const d = DUMBBELL_DEFAULTS;
  // Queues are sized below, once the path exists: one BDP (at least one packet).
  const access: LinkSpec = { bandwidthBps: d.accessBps, delayS: d.accessDelayS, queuePackets: 1 };
  const flows: FlowSpec[] = Array.from({ length: flowCount }, () => ({
    access: { ...access },
    receiverAccess: { ...access },
    startS: 0,
    stopS: null,
    bytes: null,
  }));
  const s: Scenario = {
    name: 'dumbbell',
    variant,
    durationS: d.durationS,
    measureFromS: 0,
    seed: 1,
    mssBytes: d.mssBytes,
    headerBytes: d.headerBytes,
    bottleneck: {
      bandwidthBps: d.bottleneckBps,
      delayS: d.bottleneckDelayS,
      queue: { kind: 'droptail', limitPackets: 1 },
      loss: { rate: 0, direction: 'data' },
    },
    flows,
    tcp: defaultTcp(),
    ccParams: {},
    trace: { maxPoints: 4000 },
  };
  const queuePackets = Math.max(1, Math.ceil(bdpPackets(s)));
  s.bottleneck.queue.limitPackets = queuePackets;
  for (const f of flows) {
    f.access.queuePackets = queuePackets;
    f.receiverAccess!.queuePackets = queuePackets;
  }
  return s;
}
