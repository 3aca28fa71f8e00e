import type { Variant } from '../variants.js';
import type { FlowSpec, Scenario, TcpSpec } from './types.js';

/**
 * The seed study's three lines (its Table 1), on the setup of ns-3's `tcp-variants-comparison`
 * example (see ../shared/reference/ns3/README.md), so that cclab's numbers can be checked against ns-3:
 * - one sender access link of 10 Mbps / 45 ms, then the "bottleneck" link, no receiver access link;
 * - MTU 400 B: MSS 340 B, 54 B of headers on the wire (TCP 20 + timestamps 12, IP 20, PPP 2);
 * - every device queue holds floor(BDP / MTU) packets (ns-3's PfifoFast limit) plus the 100-packet
 *   device queue behind it, BDP = min(access, bottleneck rate) x 2 x (access + bottleneck delay);
 * - Bernoulli loss `error_p` on the bottleneck in both directions (data at the sink, ACKs at the gateway);
 * - the application starts at 0.1 s and stops 3 s before the end; goodput is measured over [0, duration].
 */
export const PRESET_NAMES = ['normal', 'lfn', 'lossy'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export function isPresetName(x: unknown): x is PresetName {
  return typeof x === 'string' && (PRESET_NAMES as readonly string[]).includes(x);
}

interface PresetLine {
  title: string;
  bottleneckBps: number;
  bottleneckDelayS: number;
  lossRate: number;
}

export const PRESET_LINES: Readonly<Record<PresetName, PresetLine>> = {
  normal: { title: 'Normal line: 1 Gbps, 1 ms, p = 1e-4', bottleneckBps: 1e9, bottleneckDelayS: 0.001, lossRate: 1e-4 },
  lfn: { title: 'Long fat network: 100 Mbps, 100 ms, p = 1e-3', bottleneckBps: 100e6, bottleneckDelayS: 0.1, lossRate: 1e-3 },
  lossy: { title: 'Lossy line: 1 Mbps, 10 ms, p = 0.1', bottleneckBps: 1e6, bottleneckDelayS: 0.01, lossRate: 0.1 },
};

export const NS3_ACCESS_BPS = 10e6;
export const NS3_ACCESS_DELAY_S = 0.045;
export const NS3_MTU_BYTES = 400;
/** ns-3's point-to-point device queue, behind the queue disc. */
export const NS3_DEVICE_QUEUE_PACKETS = 100;
export const DEFAULT_DURATION_S = 100;

/** ns-3 defaults in force in the example (TcpSocket/TcpSocketBase attributes). */
export function defaultTcp(): TcpSpec {
  return {
    initialCwndSegments: 10,
    initialSsthreshBytes: null,
    minRtoS: 1,
    maxRtoS: 60,
    clockGranularityS: 0.001,
    delAckCount: 2,
    delAckTimeoutS: 0.2,
    rcvBufBytes: 2 * 1024 * 1024,
    dupAckThreshold: 3,
    sack: true,
    recovery: 'classic',
  };
}

/** Queue limit of ns-3's example: floor(BDP / MTU) packets in the queue disc, plus the device queue. */
export function ns3QueuePackets(accessBps: number, accessDelayS: number, bottleneckBps: number, bottleneckDelayS: number): number {
  const bdpBytes = (Math.min(accessBps, bottleneckBps) / 8) * 2 * (accessDelayS + bottleneckDelayS);
  return Math.floor(bdpBytes / NS3_MTU_BYTES) + NS3_DEVICE_QUEUE_PACKETS;
}

export interface PresetOptions {
  durationS?: number;
  seed?: number;
  flows?: number;
  accessBps?: number;
  accessDelayS?: number;
  /** Overrides of the preset's bottleneck line; the queue limits follow them by the preset's BDP rule. */
  bottleneckBps?: number;
  bottleneckDelayS?: number;
  lossRate?: number;
  /** Gap between consecutive flows' starts (default 0.1 s, as ns-3's example). */
  startStaggerS?: number;
}

/** ns-3's example starts its first application at 0.1 s and the next ones 0.1 s apart. */
export const PRESET_FIRST_START_S = 0.1;
export const PRESET_START_STAGGER_S = 0.1;

/** A preset as a full Scenario. Flow i (0-based) starts at 0.1 + i x stagger s (ns-3's example: 0.1 (i + 1) s). */
export function presetScenario(name: PresetName, variant: Variant, opts: PresetOptions = {}): Scenario {
  const line = {
    ...PRESET_LINES[name],
    ...(opts.bottleneckBps !== undefined && { bottleneckBps: opts.bottleneckBps }),
    ...(opts.bottleneckDelayS !== undefined && { bottleneckDelayS: opts.bottleneckDelayS }),
    ...(opts.lossRate !== undefined && { lossRate: opts.lossRate }),
  };
  const durationS = opts.durationS ?? DEFAULT_DURATION_S;
  const accessBps = opts.accessBps ?? NS3_ACCESS_BPS;
  const accessDelayS = opts.accessDelayS ?? NS3_ACCESS_DELAY_S;
  const queuePackets = ns3QueuePackets(accessBps, accessDelayS, line.bottleneckBps, line.bottleneckDelayS);
  const flowCount = opts.flows ?? 1;
  const flows: FlowSpec[] = [];
  for (let i = 0; i < flowCount; i++) {
    // The default keeps ns-3's exact starts (0.1 (i + 1), not 0.1 + 0.1 i, which rounds differently).
    const startS = opts.startStaggerS === undefined ? PRESET_START_STAGGER_S * (i + 1) : PRESET_FIRST_START_S + i * opts.startStaggerS;
    flows.push({
      access: { bandwidthBps: accessBps, delayS: accessDelayS, queuePackets },
      receiverAccess: null,
      startS,
      stopS: Math.max(startS, durationS - 2.9),
      bytes: null,
    });
  }
  return {
    name,
    variant,
    durationS,
    measureFromS: 0,
    seed: opts.seed ?? 1,
    mssBytes: NS3_MTU_BYTES - 60,
    headerBytes: 54,
    bottleneck: {
      bandwidthBps: line.bottleneckBps,
      delayS: line.bottleneckDelayS,
      queue: { kind: 'droptail', limitPackets: queuePackets },
      loss: { rate: line.lossRate, direction: 'both' },
    },
    flows,
    tcp: defaultTcp(),
    ccParams: {},
    trace: { maxPoints: 4000 },
  };
}
