import { readFileSync } from 'node:fs';
import { presetScenario, type PresetName } from '../../src/scenario/presets.js';
import type { Variant } from '../../src/variants.js';
import { median, simulate } from './helpers.js';

/**
 * The ns-3 agreement check (issue 2): median goodput of cclab over 10 seeds of 500 s runs against
 * the median of ns-3's `tcp-variants-comparison` (SACK off, 10 runs) in
 * ../shared/reference/ns3/goodput-500s-summary.csv. Tolerance: 10% on normal and lfn, 20% on lossy.
 */
export const NS3_SUMMARY = '/work/shared/reference/ns3/goodput-500s-summary.csv';

export const NS3_NAME: Readonly<Record<'newreno' | 'reno' | 'westwood' | 'cubic', string>> = {
  newreno: 'TcpNewReno',
  reno: 'TcpLinuxReno',
  westwood: 'TcpWestwoodPlus',
  cubic: 'TcpCubic',
};

export const TOLERANCE: Readonly<Record<PresetName, number>> = { normal: 0.1, lfn: 0.1, lossy: 0.2 };

/**
 * Cells where cclab does not agree, with the mechanism found. Asserted as gaps: if one of them
 * starts to agree, the test says so and the entry must be removed (nothing is loosened silently).
 */
export const KNOWN_GAPS: Readonly<Record<string, string>> = {
  'normal/newreno':
    'ns-3 is bimodal here: 8 of 10 runs fall into a retransmission storm after the first slow-start ' +
    'overshoot of the 387-packet access queue (~600k retransmissions, ~45% of all transmissions ' +
    'duplicates, 3.2-4.1 Mbit/s) and 2 runs stay clear (47 retransmissions, 2.50-2.65 Mbit/s). ' +
    'cclab never enters the storm: it recovers from the overshoot with 1-2 timeouts and then matches ' +
    "ns-3's clear mode (seed 4: 46 retransmissions, 2.62 Mbit/s). Median -39%. What we see in cclab: " +
    'the first timeout episode also overflows the access queue (an ACK jumps over data the receiver ' +
    'holds, pipe falls to 0 and a cwnd-sized go-back-N burst leaves), but the next slow start stays ' +
    'below the overflow point and the sender settles. Not the cause (tried, no storm either way): ' +
    "ns-3's ssthresh cut on every timeout, a 287-packet instead of 387-packet access queue, an " +
    'advertised window of the whole buffer, HyStart, and ns-3 TcpNewReno\'s slow start of one MSS per ' +
    'ACK (src/internet/model/tcp-congestion-ops.cc; cclab\'s newreno adds segmentsAcked x MSS).',
  'normal/cubic':
    'Same ns-3 storm (all 10 ns-3 runs, ~620k retransmissions, 4.25-4.41 Mbit/s); cclab stays out of ' +
    'it and CUBIC keeps the 10 Mbit/s access link busier (about +21%).',
  // normal/reno agrees (-1%) but partly by coincidence: ns-3's TcpLinuxReno is in the storm in all
  // 10 runs (~640k retransmissions) while cclab's reno is not.
  'lossy/reno':
    "Recovery differs: cclab's reno leaves fast recovery on the first new ACK (RFC 5681, recovery " +
    "'reno'), while ns-3's TcpLinuxReno runs under TcpSocketBase's NewReno-style partial-ACK handling " +
    'with TcpClassicRecovery. At p = 0.1 windows often lose several segments, so cclab needs more ' +
    "timeouts (-23%). With recovery 'newreno' cclab gives 38368 bit/s (-7.3%) here, and -2.6% / -1.5% " +
    'on lfn / normal.',
};

export interface CellResult {
  preset: PresetName;
  variant: Variant;
  cclabMedianBps: number;
  ns3MedianBps: number;
  diff: number;
  medianRetransmits: number;
}

export function ns3Median(preset: PresetName, ns3Variant: string): number {
  const lines = readFileSync(NS3_SUMMARY, 'utf8').trim().split('\n');
  const head = lines[0]!.split(',');
  const col = (name: string): number => head.indexOf(name);
  for (const l of lines.slice(1)) {
    const f = l.split(',');
    if (f[col('scenario')] === preset && f[col('variant')] === ns3Variant && f[col('sack')] === 'false') {
      return Number(f[col('median_bps')]);
    }
  }
  throw new Error(`no ns-3 row for ${preset}/${ns3Variant}`);
}

/** Runs one cell: 10 seeds x 500 s (conservation is checked at the end of every run). */
export function runCell(
  preset: PresetName,
  variant: keyof typeof NS3_NAME,
  ccParams: Record<string, number> = {},
  seeds = 10,
): CellResult {
  const goodput: number[] = [];
  const retx: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const scenario = presetScenario(preset, variant, { durationS: 500, seed });
    scenario.ccParams = ccParams;
    const { result: r } = simulate(scenario);
    goodput.push(r.summary.goodputBps);
    retx.push(r.summary.retransmits);
  }
  const ns3 = ns3Median(preset, NS3_NAME[variant]);
  const m = median(goodput);
  return { preset, variant, cclabMedianBps: m, ns3MedianBps: ns3, diff: m / ns3 - 1, medianRetransmits: median(retx) };
}
