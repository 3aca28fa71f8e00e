import type { Variant } from '../variants.js';
import type { ProfileName } from './profiles.js';
import { applyProfile } from './resolveProfile.js';
import type { FlowSpec, Scenario, TcpSpec } from './types.js';

/**
 * The seed study's three lines (its Table 1), each on two setups:
 * - `normal`, `lfn`, `lossy`: the lines as the study describes them, each line its own bottleneck:
 *   the sender's access link runs 10x faster than the line with 0.1 ms of delay (what ns-3's example
 *   runs with `--access_bandwidth` and `--access_delay` set so), everything else as in the example;
 * - `ns3-normal`, `ns3-lfn`, `ns3-lossy`: the literal setup of ns-3's `tcp-variants-comparison`
 *   example (see ../shared/reference/ns3/README.md), which the study ran and ns-3's reference data
 *   use: one 10 Mbps / 45 ms access link in front of every line, so on normal and lfn the access link,
 *   not the line, is the bottleneck.
 * Common to both (the example's choices):
 * - no receiver access link; MTU 400 B: MSS 340 B, 54 B of headers on the wire (TCP 20 + timestamps
 *   12, IP 20, PPP 2);
 * - every device queue holds floor(BDP / MTU) packets (ns-3's PfifoFast limit) plus the 100-packet
 *   device queue behind it, BDP = min(access, bottleneck rate) x 2 x (access + bottleneck delay);
 * - Bernoulli loss `error_p` on the bottleneck in both directions (data at the sink, ACKs at the gateway;
 *   on the study's normal and lfn the ACKs from a loss stream of their own, the same law: OWN_ACK_STREAM_MAX_LOSS);
 * - the application starts at 0.1 s and stops 3 s before the end; goodput is measured over [0, duration];
 * - TCP behaves as ns-3's does: every preset is resolved under the `ns3` behaviour profile
 *   (PRESET_PROFILE; src/scenario/profiles.ts), since a preset is an ns-3 setup and its results are
 *   read against ns-3's. The generic dumbbell (src/scenario/defaults.ts) keeps cclab's own mix.
 */
export const LINE_NAMES = ['normal', 'lfn', 'lossy'] as const;
export type LineName = (typeof LINE_NAMES)[number];
export const PRESET_NAMES = ['normal', 'lfn', 'lossy', 'ns3-normal', 'ns3-lfn', 'ns3-lossy'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export function isPresetName(x: unknown): x is PresetName {
  return typeof x === 'string' && (PRESET_NAMES as readonly string[]).includes(x);
}

/** Which setup a preset runs its line on: the study's own bottleneck, or ns-3's example. */
export type PresetSetup = 'study' | 'ns3-example';

export function presetSetup(name: PresetName): PresetSetup {
  return name.startsWith('ns3-') ? 'ns3-example' : 'study';
}

/** The study's line a preset runs (`ns3-lfn` -> `lfn`). */
export function presetLine(name: PresetName): LineName {
  return (name.startsWith('ns3-') ? name.slice(4) : name) as LineName;
}

/** The preset of a line on a setup (`lfn`, 'ns3-example' -> `ns3-lfn`). */
export function presetOf(line: LineName, setup: PresetSetup): PresetName {
  return setup === 'ns3-example' ? `ns3-${line}` : line;
}

interface PresetLine {
  title: string;
  bottleneckBps: number;
  bottleneckDelayS: number;
  lossRate: number;
}

export const PRESET_LINES: Readonly<Record<LineName, PresetLine>> = {
  normal: { title: 'Normal line: 1 Gbps, 1 ms, p = 1e-4', bottleneckBps: 1e9, bottleneckDelayS: 0.001, lossRate: 1e-4 },
  lfn: { title: 'Long fat network: 100 Mbps, 100 ms, p = 1e-3', bottleneckBps: 100e6, bottleneckDelayS: 0.1, lossRate: 1e-3 },
  lossy: { title: 'Lossy line: 1 Mbps, 10 ms, p = 0.1', bottleneckBps: 1e6, bottleneckDelayS: 0.01, lossRate: 0.1 },
};

/** A preset's title: its line, and the setup when it is ns-3's example. */
export function presetTitle(name: PresetName): string {
  const t = PRESET_LINES[presetLine(name)].title;
  return presetSetup(name) === 'ns3-example' ? `${t}, behind ns-3's example 10 Mbps / 45 ms access link` : t;
}

/** The study's setup: every access link this many times the line's rate, with STUDY_ACCESS_DELAY_S. */
export const STUDY_ACCESS_SPEEDUP = 10;
export const STUDY_ACCESS_DELAY_S = 0.0001;
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
  /**
   * Behaviour profile the preset is resolved under (default PRESET_PROFILE). Another profile replaces
   * it (`--profile linux` on a preset is Linux's behaviour on ns-3's links, not a mix of the two);
   * null keeps cclab's own mix (no profile), which the library offers for measuring the difference.
   */
  profile?: ProfileName | null;
}

/**
 * The profile every preset is resolved under: a preset is ns-3's example (literally, or with the line
 * as its own bottleneck), so it behaves as ns-3's TCP does, and its numbers are read against ns-3's.
 * An explicit field, flag or `--cc-param` still wins (they are laid over the resolved preset).
 */
export const PRESET_PROFILE: ProfileName = 'ns3';

/**
 * ns-3's example draws both loss directions from one error model (ackStream 'shared', the default),
 * which the ns3-* presets keep: they are read against ns-3's runs. The study's own lines have no ns-3
 * reference; where a lone flow's fluid run reads the packet run's loss stream (p <= 0.01, the fluid's
 * COUPLED_MAX_LOSS in src/fluid/run/runFluid.ts: normal and lfn) their ACKs draw from a stream of their
 * own, the same law, so that fluid run reads its seed's data losses exactly (lossThresholds.ts). On
 * lossy (p = 0.1, not coupled) it would only re-draw the packet runs.
 */
export const OWN_ACK_STREAM_MAX_LOSS = 0.01;

/** ns-3's example starts its first application at 0.1 s and the next ones 0.1 s apart. */
export const PRESET_FIRST_START_S = 0.1;
export const PRESET_START_STAGGER_S = 0.1;

/**
 * A preset as a full Scenario. Flow i (0-based) starts at 0.1 + i x stagger s (ns-3's example: 0.1 (i + 1) s).
 * On the study's setup the access link follows an overridden line rate (10x it) unless given.
 */
export function presetScenario(name: PresetName, variant: Variant, opts: PresetOptions = {}): Scenario {
  const line = {
    ...PRESET_LINES[presetLine(name)],
    ...(opts.bottleneckBps !== undefined && { bottleneckBps: opts.bottleneckBps }),
    ...(opts.bottleneckDelayS !== undefined && { bottleneckDelayS: opts.bottleneckDelayS }),
    ...(opts.lossRate !== undefined && { lossRate: opts.lossRate }),
  };
  const durationS = opts.durationS ?? DEFAULT_DURATION_S;
  const study = presetSetup(name) === 'study';
  const accessBps = opts.accessBps ?? (study ? STUDY_ACCESS_SPEEDUP * line.bottleneckBps : NS3_ACCESS_BPS);
  const accessDelayS = opts.accessDelayS ?? (study ? STUDY_ACCESS_DELAY_S : NS3_ACCESS_DELAY_S);
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
  const s: Scenario = {
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
      loss: { rate: line.lossRate, direction: 'both', ...(study && line.lossRate <= OWN_ACK_STREAM_MAX_LOSS && { ackStream: 'own' as const }) },
    },
    flows,
    tcp: defaultTcp(),
    ccParams: {},
    trace: { maxPoints: 4000 },
  };
  const profile = opts.profile === undefined ? PRESET_PROFILE : opts.profile;
  return profile === null ? s : applyProfile(s, profile);
}
