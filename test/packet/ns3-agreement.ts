import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { presetScenario, type PresetName } from '../../src/scenario/presets.js';
import type { Variant } from '../../src/variants.js';
import type { AckSample, TcpState } from '../../src/cc/types.js';
import { congAvoidPerAck, inSlowStart, slowStartPerAck } from '../../src/cc/common.js';
import { WestwoodPlus } from '../../src/cc/westwood.js';
import type { RunOptions } from '../../src/packet/run.js';
import { median, simulate } from './helpers.js';

/**
 * The ns-3 agreement check (issue 2): median goodput of cclab over 10 seeds of 500 s runs against
 * the median of ns-3's `tcp-variants-comparison` (SACK off, 10 runs) in
 * test/ref/ns3/goodput-500s-summary.csv (a copy of shared/reference/ns3/). Tolerance: 10% on normal and lfn, 20% on lossy.
 *
 * Two modes: cclab as it is (`default`), and with `ns3HeadSackArtefact`, which reproduces the ns-3
 * scoreboard artefact behind its retransmission storms (see src/packet/README.md). The artefact
 * explains three of the default gaps; it stays off by default because it is an ns-3 quirk, not TCP.
 */
export const NS3_SUMMARY = fileURLToPath(new URL('../ref/ns3/goodput-500s-summary.csv', import.meta.url));

export const NS3_NAME: Readonly<Record<'newreno' | 'reno' | 'westwood' | 'cubic', string>> = {
  newreno: 'TcpNewReno',
  reno: 'TcpLinuxReno',
  westwood: 'TcpWestwoodPlus',
  cubic: 'TcpCubic',
};

export const TOLERANCE: Readonly<Record<PresetName, number>> = { normal: 0.1, lfn: 0.1, lossy: 0.2 };

export type Mode = 'default' | 'ns3Artefact';

const STORM =
  'ns-3 falls into a retransmission storm on `normal`: after a recovery with several holes, the ' +
  'duplicate-ACK "sack" marks that ns-3 (SACK off) puts on the segments after the head outlive the ' +
  'recovery; TcpTxBuffer::DiscardUpTo then finds the new head marked, moves the mark on and marks the ' +
  'head lost, and SendPendingData retransmits it although it is in flight. Each such duplicate makes ' +
  'the receiver send a duplicate ACK, which adds a mark again: about half of all transmissions become ' +
  'duplicates (~620k retransmissions in 500 s, goodput ~4.1-4.4 Mbit/s instead of ~5-8). cclab does ' +
  'not do this by default. ';

/**
 * Cells where cclab does not agree, with the mechanism found. Asserted as gaps: if one of them
 * starts to agree, the test says so and the entry must be removed (nothing is loosened silently).
 */
export const KNOWN_GAPS: Readonly<Record<Mode, Readonly<Record<string, string>>>> = {
  default: {
    'normal/newreno':
      STORM +
      'ns-3 is bimodal here (8 runs storm, 2 stay clear at 2.50-2.65 Mbit/s with 47 retransmissions); ' +
      "cclab matches the clear mode (seed 4: 46 retransmissions, 2.62 Mbit/s). Median -37%. With the " +
      'artefact: 7 of 10 seeds storm at 3.98-4.15 Mbit/s with 589k-619k retransmissions (ns-3: 3.66-4.13, ' +
      '447k-620k), median -4.9% (per-ACK slow start).',
    'normal/cubic': STORM + 'All 10 ns-3 runs storm; cclab keeps the access link busier (+21%). With the artefact: about -4%, ~620k retransmissions (ns-3 622k).',
    'lossy/reno':
      "Recovery differs: cclab's reno leaves fast recovery on the first new ACK (RFC 5681), ns-3's " +
      'TcpLinuxReno runs under NewReno-style partial-ACK handling (-23%). With ccParams.partialAcks = 1 ' +
      'cclab gives -7.3%; with the ns-3 artefact (whose spurious head retransmissions act like partial-ACK ' +
      'retransmissions here) +0.9%.',
  },
  ns3Artefact: {
    'lossy/westwood':
      'With the artefact, a marked head makes any duplicate ACK start fast recovery (ns-3 IsLost(head)), ' +
      'and at p = 0.1 Westwood+ then recovers with ssthresh = BWE x RTTmin where it otherwise times out: ' +
      "+36.5%. cclab's Westwood+ estimator options were calibrated against the default engine " +
      '(src/cc/westwood.ts), which may be why only this cell moves; not resolved.',
  },
};

/**
 * Retransmission counts are compared on `lfn` only (elsewhere ns-3's counts are dominated by its
 * storms or by timeouts at p = 0.1): median over 10 seeds within this fraction of ns-3's median_retx.
 */
export const RETX_TOLERANCE_LFN = 0.25;

/**
 * lfn cells whose retransmission count does not agree (goodput does), with the mechanism found.
 * Asserted as gaps, like KNOWN_GAPS.
 */
export const KNOWN_RETX_GAPS: Readonly<Record<Mode, Readonly<Record<string, string>>>> = {
  default: {
    'lfn/westwood':
      "cclab's Westwood+ slow start counts acknowledged segments (src/cc/westwood.ts), ns-3's " +
      '(inherited TcpNewReno::SlowStart) adds one MSS per ACK. After a timeout (~4-5k segments ' +
      "outstanding, go-back-N in both) the receiver's cumulative ACKs jump over the segments it " +
      'holds: cclab grows cwnd by the whole jump, to ssthresh = BWE x RTTmin (~1200 segments) within ' +
      'a few ACKs, and resends ~2000 segments per timeout, mostly duplicates, whose burst overflows ' +
      'the access queue again (seed 1: 105 timeouts, 21.4k of 25.3k queue drops inside post-timeout ' +
      'slow starts). With one MSS per ACK cwnd stays at 3-280 segments until the ACKs pass the old ' +
      'SND.NXT: ~350 retransmissions per timeout, no queue drops in them, 55 timeouts. Median ' +
      '213k retransmissions vs ns-3 37.8k (5.6x); with per-ACK slow start 27.4k (-27%) at -2.0% ' +
      "goodput (test below). Not changed here: per-ACK slow start takes lossy/westwood from +4.5% to " +
      '-29% of ns-3 (see src/cc/westwood.ts).',
  },
  ns3Artefact: {
    'lfn/westwood': 'As in the default mode (segment-counting slow start after timeouts): median 227k vs 37.8k.',
  },
};

export interface CellResult {
  preset: PresetName;
  variant: Variant;
  cclabMedianBps: number;
  ns3MedianBps: number;
  diff: number;
  medianRetransmits: number;
  ns3MedianRetransmits: number;
  /** medianRetransmits / ns3MedianRetransmits - 1. */
  retxDiff: number;
}

/**
 * Westwood+ with ns-3's slow start (TcpNewReno::SlowStart: one MSS per ACK of new data, however
 * many segments it covers) instead of cclab's segment counting: used to pin the mechanism behind
 * the lfn/westwood retransmission gap (KNOWN_RETX_GAPS).
 */
export class WestwoodPerAckSlowStart extends WestwoodPlus {
  override increaseWindow(tcb: TcpState, ack: AckSample): void {
    let segs = ack.segmentsAcked;
    if (inSlowStart(tcb)) segs = slowStartPerAck(tcb, segs);
    if (!inSlowStart(tcb) && segs > 0) congAvoidPerAck(tcb);
  }
}

function ns3Row(preset: PresetName, ns3Variant: string, column: string): number {
  const lines = readFileSync(NS3_SUMMARY, 'utf8').trim().split('\n');
  const head = lines[0]!.split(',');
  const col = (name: string): number => head.indexOf(name);
  for (const l of lines.slice(1)) {
    const f = l.split(',');
    if (f[col('scenario')] === preset && f[col('variant')] === ns3Variant && f[col('sack')] === 'false') {
      return Number(f[col(column)]);
    }
  }
  throw new Error(`no ns-3 row for ${preset}/${ns3Variant}`);
}

export function ns3Median(preset: PresetName, ns3Variant: string): number {
  return ns3Row(preset, ns3Variant, 'median_bps');
}

export function ns3MedianRetx(preset: PresetName, ns3Variant: string): number {
  return ns3Row(preset, ns3Variant, 'median_retx');
}

/** Runs one cell: 10 seeds x 500 s (conservation is checked at the end of every run). */
export function runCell(
  preset: PresetName,
  variant: keyof typeof NS3_NAME,
  mode: Mode = 'default',
  ccParams: Record<string, number> = {},
  seeds = 10,
  options: Pick<RunOptions, 'makeCc'> = {},
): CellResult {
  const goodput: number[] = [];
  const retx: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const scenario = presetScenario(preset, variant, { durationS: 500, seed });
    scenario.ccParams = ccParams;
    const { result: r } = simulate(scenario, { ...options, ns3HeadSackArtefact: mode === 'ns3Artefact' });
    goodput.push(r.summary.goodputBps);
    retx.push(r.summary.retransmits);
  }
  const ns3 = ns3Median(preset, NS3_NAME[variant]);
  const m = median(goodput);
  const r = median(retx);
  const ns3Retx = ns3MedianRetx(preset, NS3_NAME[variant]);
  return {
    preset,
    variant,
    cclabMedianBps: m,
    ns3MedianBps: ns3,
    diff: m / ns3 - 1,
    medianRetransmits: r,
    ns3MedianRetransmits: ns3Retx,
    retxDiff: r / ns3Retx - 1,
  };
}
