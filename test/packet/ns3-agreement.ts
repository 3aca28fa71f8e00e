import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { presetScenario, type PresetName } from '../../src/scenario/presets.js';
import type { Variant } from '../../src/variants.js';
import type { AckSample, TcpState } from '../../src/cc/types.js';
import { congAvoidPerAck, inSlowStart, slowStart } from '../../src/cc/common.js';
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
    'lossy/westwood':
      "Westwood+ runs ns-3's rules in every mechanism (estimator windows of one SRTT, Tustin filter, " +
      'one MSS per ACK in slow start): +21.2% over these 10 seeds, just outside 20%; over 40 seeds ' +
      "+17.6%, and ns-3's own 10 runs span 34-67 kbit/s (a noisy median at p = 0.1 with ~5-segment " +
      'windows). An earlier mix (raw-RTT windows, Linux filter, segment-counting slow start) gave +4.5% ' +
      'here by compensation but resent 5.6x ns-3 on lfn (src/packet/README.md).',
  },
  ns3Artefact: {
    'lossy/westwood': 'As in the default mode: +21.8% (the artefact barely moves this cell now).',
  },
};

/**
 * Retransmission counts are compared on `lfn` only (elsewhere ns-3's counts are dominated by its
 * storms or by timeouts at p = 0.1): median over 10 seeds within this fraction of ns-3's median_retx.
 */
export const RETX_TOLERANCE_LFN = 0.25;

/**
 * lfn cells whose retransmission count does not agree (goodput does), with the mechanism found.
 * Asserted as gaps, like KNOWN_GAPS. None at present: lfn/westwood was one (213k vs 37.8k) while its
 * slow start counted segments; with ns-3's one MSS per ACK it is 30.6k (-19%), 37.6k with the artefact.
 */
export const KNOWN_RETX_GAPS: Readonly<Record<Mode, Readonly<Record<string, string>>>> = { default: {}, ns3Artefact: {} };

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
 * Westwood+ with slow start by acknowledged SEGMENTS (cwnd += segmentsAcked x MSS) instead of ns-3's
 * one MSS per ACK: pins the mechanism behind the retransmission gap that rule caused on lfn.
 */
export class WestwoodSegmentSlowStart extends WestwoodPlus {
  override increaseWindow(tcb: TcpState, ack: AckSample): void {
    let segs = ack.segmentsAcked;
    if (inSlowStart(tcb)) segs = slowStart(tcb, segs);
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
    const { result: r } = simulate(scenario, options);
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
