import type { Variant } from '../variants.js';
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

/** Base round-trip propagation delay of flow 0's path (no queueing, no serialisation). */
export function baseRttS(s: Pick<Scenario, 'bottleneck' | 'flows'>, flow = 0): number {
  const f = s.flows[flow]!;
  return 2 * (f.access.delayS + s.bottleneck.delayS + (f.receiverAccess?.delayS ?? 0));
}

/** One bandwidth-delay product of the bottleneck, in full-size packets (at least 1). */
export function bdpPackets(bandwidthBps: number, rttS: number, packetBytes: number): number {
  return Math.max(1, Math.ceil((bandwidthBps * rttS) / 8 / packetBytes));
}

export function dumbbellScenario(variant: Variant, flowCount = 1): Scenario {
  const d = DUMBBELL_DEFAULTS;
  const rttS = 2 * (2 * d.accessDelayS + d.bottleneckDelayS);
  const queuePackets = bdpPackets(d.bottleneckBps, rttS, d.mssBytes + d.headerBytes);
  const access: LinkSpec = { bandwidthBps: d.accessBps, delayS: d.accessDelayS, queuePackets };
  const flows: FlowSpec[] = Array.from({ length: flowCount }, () => ({
    access: { ...access },
    receiverAccess: { ...access },
    startS: 0,
    stopS: null,
    bytes: null,
  }));
  return {
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
      queue: { kind: 'droptail', limitPackets: queuePackets },
      loss: { rate: 0, direction: 'data' },
    },
    flows,
    tcp: defaultTcp(),
    ccParams: {},
    trace: { maxPoints: 4000 },
  };
}
