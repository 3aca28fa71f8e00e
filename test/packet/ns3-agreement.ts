import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { presetScenario, type LineName } from '../../src/scenario/presets.js';
import { applyProfile } from '../../src/scenario/resolveProfile.js';
import type { Variant } from '../../src/variants.js';
import type { AckSample, TcpState } from '../../src/cc/types.js';
import { congAvoidPerAck, inSlowStart, slowStart } from '../../src/cc/common.js';
import { WestwoodPlus } from '../../src/cc/westwood.js';
import type { RunOptions } from '../../src/packet/run.js';
import { median, simulate } from './helpers.js';

/**
 * The ns-3 agreement check (issue 8): median goodput of cclab over 10 seeds (30 on `lfn` with SACK, see
 * {@link SEEDS}) against the median of ns-3's `tcp-variants-comparison` over its 10 runs, on the same
 * setup. Two modes:
 * - `sack`: the seed's setup (SACK on, TcpClassicRecovery), 100 s runs, against the sack=true rows of
 *   reference/ns3/goodput-summary.csv (retransmissions: medians of goodput.csv's sack=true runs);
 * - `nosack`: `--sack=false`, 500 s runs, against reference/ns3/goodput-500s-summary.csv.
 * Every cell runs under the `ns3` behaviour profile (src/scenario/profiles.ts: ns-3's choices wherever
 * ns-3, Linux and the RFCs differ), with SACK set by the mode over it.
 * Tolerance: 10% on normal and lfn, 20% on lossy. Copies of shared/reference/ns3/ live in reference/ns3 (one home, read by the reports too).
 */
export const NS3_SUMMARY_500S = fileURLToPath(new URL('../../reference/ns3/goodput-500s-summary.csv', import.meta.url));
export const NS3_SUMMARY_100S = fileURLToPath(new URL('../../reference/ns3/goodput-summary.csv', import.meta.url));
export const NS3_RUNS_100S = fileURLToPath(new URL('../../reference/ns3/goodput.csv', import.meta.url));
export const NS3_RUNS_500S = fileURLToPath(new URL('../../reference/ns3/goodput-500s.csv', import.meta.url));
/**
 * More runs of a cell (SACK on, 100 s, runs 10..): measured here with ns-3 at the reference commit and
 * the same command line (reference/ns3/README.md). A cell with more runs is compared with the median of
 * all of them: for lossy Westwood+ ns-3's runs 0-9 (median 424.6 kbit/s) are a low draw of ns-3's own
 * spread (runs 10-59: median 580.3; all 60: 537.1); lfn Westwood+, bimodal, has runs 10-49 too (all 50:
 * median 3937 kbit/s, runs 0-9 3606).
 */
export const NS3_MORE_RUNS_100S = fileURLToPath(new URL('../../reference/ns3/goodput-more-runs.csv', import.meta.url));

export const NS3_NAME: Readonly<Record<'newreno' | 'reno' | 'westwood' | 'cubic', string>> = {
  newreno: 'TcpNewReno',
  reno: 'TcpLinuxReno',
  westwood: 'TcpWestwoodPlus',
  cubic: 'TcpCubic',
};

export const TOLERANCE: Readonly<Record<LineName, number>> = { normal: 0.1, lfn: 0.1, lossy: 0.2 };

export type Mode = 'sack' | 'nosack';

export const MODE_DURATION_S: Readonly<Record<Mode, number>> = { sack: 100, nosack: 500 };

/**
 * cclab seeds per cell. 10, as ns-3's runs, except `lfn` with SACK: a 100 s run there sees few random
 * loss events (NewReno ~12 in the whole run; Westwood+'s run-away is set by its first few), so a run's
 * goodput depends on when they fall and the median of 10 runs moves by tens of percent from one set of 10 seeds to the next (lfn
 * NewReno: +13.2% on seeds 1-10, -3.6% on seeds 1-30; Westwood+, whose runs spread 1.2-7.9 Mbit/s in
 * both simulators: +40.1% on seeds 1-10, +1.7% on seeds 1-30). ns-3's median of 10 carries that
 * sampling error too and cannot be re-drawn; cclab's side at least does not add its own. The SACK-off
 * runs are 500 s (5x the events), `normal` and `lossy` see hundreds to thousands of events per run.
 */
export const SEEDS: Readonly<Record<Mode, Readonly<Record<LineName, number>>>> = {
  sack: { normal: 10, lfn: 30, lossy: 10 },
  nosack: { normal: 10, lfn: 10, lossy: 10 },
};

/**
 * Cells where cclab does not agree, with the mechanism found. Asserted as gaps: if one of them
 * starts to agree, the test says so and the entry must be removed (nothing is loosened silently).
 */
export const KNOWN_GAPS: Readonly<Record<Mode, Readonly<Record<string, string>>>> = {
  sack: {},
  nosack: {
    'normal/newreno': "ns-3 without SACK falls into a retransmission storm on `normal`: it counts each duplicate ACK as a 'SACK' mark on the segment after the head (TcpTxBuffer::AddRenoSack); after a multi-hole recovery the marks outlive it, the new head is marked lost and resent although in flight, its duplicate brings a duplicate ACK, which adds a mark: ~550k-640k retransmissions in 500 s. cclab's SACK-less TCP is RFC 5681/6582 and does not do this (the same inferred-marks bookkeeping was behind cclab's own spurious-recovery loop, issue 8). " +
      'ns-3 is bimodal (8 runs storm at 3.7-4.1 Mbit/s, 2 stay clear at 2.5-2.65); cclab matches the clear mode: -35.1%.',
    'normal/cubic': "ns-3 without SACK falls into a retransmission storm on `normal`: it counts each duplicate ACK as a 'SACK' mark on the segment after the head (TcpTxBuffer::AddRenoSack); after a multi-hole recovery the marks outlive it, the new head is marked lost and resent although in flight, its duplicate brings a duplicate ACK, which adds a mark: ~550k-640k retransmissions in 500 s. cclab's SACK-less TCP is RFC 5681/6582 and does not do this (the same inferred-marks bookkeeping was behind cclab's own spurious-recovery loop, issue 8). " + 'All 10 ns-3 runs storm (622k retransmissions, 4.35 Mbit/s); cclab keeps the access link busier: +23.6%.',
  },
};

/**
 * Retransmission counts are compared on `lfn` only (elsewhere ns-3's counts are dominated by its
 * storms or by timeouts at p = 0.1): cclab's median over its seeds within this fraction of ns-3's median.
 */
export const RETX_TOLERANCE_LFN = 0.25;

/** lfn cells whose retransmission count does not agree (goodput does), with the mechanism found. */
export const KNOWN_RETX_GAPS: Readonly<Record<Mode, Readonly<Record<string, string>>>> = {
  sack: {},
  nosack: {
    'lfn/westwood':
      'goodput agrees (-4.2%) but cclab resends 13.0k segments in 500 s against ns-3\'s 37.8k (36 timeouts): the old engine matched (30.6k) only ' +
      "while it inferred ns-3's dupACK 'SACK' marks, whose pipe let the sender keep sending through multi-hole recoveries and " +
      'then resend what the go-back-N sweep found; with RFC 5681 FlightSize and inflation it sends less in recovery. ' +
      'Open: not checked run for run against ns-3.',
  },
};

export interface CellResult {
  preset: LineName;
  variant: Variant;
  cclabMedianBps: number;
  ns3MedianBps: number;
  diff: number;
  medianRetransmits: number;
  ns3MedianRetransmits: number;
  /** medianRetransmits / ns3MedianRetransmits - 1. */
  retxDiff: number;
  /** cclab's goodput of each seed (1..n), bit/s. */
  goodputsBps: number[];
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

function csvRows(file: string): Record<string, string>[] {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const head = lines[0]!.split(',');
  return lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, k) => [head[k]!, v])));
}

export function ns3Median(preset: LineName, ns3Variant: string, mode: Mode): number {
  const sack = String(mode === 'sack');
  if (mode === 'sack' && moreRuns(preset, ns3Variant).length > 0) return median(ns3RunsBps(preset, ns3Variant, mode));
  const file = mode === 'sack' ? NS3_SUMMARY_100S : NS3_SUMMARY_500S;
  const row = csvRows(file).find((r) => r.scenario === preset && r.variant === ns3Variant && r.sack === sack);
  if (!row) throw new Error(`no ns-3 row for ${preset}/${ns3Variant} sack=${sack}`);
  return Number(row.median_bps);
}

export function ns3MedianRetx(preset: LineName, ns3Variant: string, mode: Mode): number {
  if (mode === 'nosack') {
    const row = csvRows(NS3_SUMMARY_500S).find((r) => r.scenario === preset && r.variant === ns3Variant && r.sack === 'false');
    return Number(row!.median_retx);
  }
  const runs = csvRows(NS3_RUNS_100S).filter((r) => r.scenario === preset && r.variant === ns3Variant && r.sack === 'true');
  return median([...runs, ...moreRuns(preset, ns3Variant)].map((r) => Number(r.retx)));
}

/** The extra SACK-on runs of a cell ({@link NS3_MORE_RUNS_100S}), if any. */
function moreRuns(preset: LineName, ns3Variant: string): Record<string, string>[] {
  return csvRows(NS3_MORE_RUNS_100S).filter((r) => r.scenario === preset && r.variant === ns3Variant && r.sack === 'true');
}

/** ns-3's goodput of each of its runs of a cell (goodput.csv and goodput-more-runs.csv with SACK, goodput-500s.csv without), bit/s. */
export function ns3RunsBps(preset: LineName, ns3Variant: string, mode: Mode): number[] {
  const file = mode === 'sack' ? NS3_RUNS_100S : NS3_RUNS_500S;
  const sack = String(mode === 'sack');
  const runs = csvRows(file).filter((r) => r.scenario === preset && r.variant === ns3Variant && r.sack === sack);
  if (mode === 'sack') runs.push(...moreRuns(preset, ns3Variant));
  return runs.map((r) => Number(r.goodput_bps));
}

/** Runs one cell: {@link SEEDS} seeds (1..n) of the mode's duration (conservation and invariants are checked on every run). */
export function runCell(
  preset: LineName,
  variant: keyof typeof NS3_NAME,
  mode: Mode,
  ccParams: Record<string, number> = {},
  seeds = SEEDS[mode][preset],
  options: Pick<RunOptions, 'makeCc'> = {},
): CellResult {
  const goodput: number[] = [];
  const retx: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    // ns-3's reference data are the example's literal setup (the ns3-* presets), under ns-3's behaviour profile.
    const scenario = applyProfile(presetScenario(`ns3-${preset}`, variant, { durationS: MODE_DURATION_S[mode], seed }), 'ns3');
    scenario.tcp.sack = mode === 'sack';
    scenario.ccParams = ccParams;
    const { result: r } = simulate(scenario, options);
    goodput.push(r.summary.goodputBps);
    retx.push(r.summary.retransmits);
  }
  const ns3 = ns3Median(preset, NS3_NAME[variant], mode);
  const m = median(goodput);
  const r = median(retx);
  const ns3Retx = ns3MedianRetx(preset, NS3_NAME[variant], mode);
  return {
    preset,
    variant,
    cclabMedianBps: m,
    ns3MedianBps: ns3,
    diff: m / ns3 - 1,
    medianRetransmits: r,
    ns3MedianRetransmits: ns3Retx,
    retxDiff: r / ns3Retx - 1,
    goodputsBps: goodput,
  };
}

/**
 * The agreement tests of one preset in both modes (one file per preset so that vitest's workers
 * share the load). Retransmissions are compared on `lfn` only.
 */
export function agreementSuite(preset: LineName, describe: (name: string, fn: () => void) => void, it: (name: string, fn: () => void, timeout?: number) => void, expect: typeof import('vitest').expect): void {
  for (const mode of ['sack', 'nosack'] as Mode[]) {
    describe(`ns-3 agreement on ${preset}, ${mode === 'sack' ? 'SACK on' : 'SACK off'} (median of ${SEEDS[mode][preset]} seeds x ${MODE_DURATION_S[mode]} s vs ns-3)`, () => {
      for (const variant of ['newreno', 'reno', 'westwood', 'cubic'] as const) {
        const key = `${preset}/${variant}`;
        const gap = KNOWN_GAPS[mode][key];
        const retxGap = KNOWN_RETX_GAPS[mode][key];
        const tol = TOLERANCE[preset];
        it(`${key}: ${gap ? 'known gap, documented' : `within ${tol * 100}% of ns-3`}`, () => {
          const c = runCell(preset, variant, mode);
          console.log(`[${mode}] ${key}: cclab ${c.cclabMedianBps.toFixed(0)} bit/s, ns-3 ${c.ns3MedianBps} bit/s, ${(c.diff * 100).toFixed(1)}%, median retransmits ${c.medianRetransmits} (ns-3 ${c.ns3MedianRetransmits}, ${(c.retxDiff * 100).toFixed(1)}%)`);
          if (gap) {
            // Still a gap: if this starts to hold, remove the entry from KNOWN_GAPS.
            expect(Math.abs(c.diff), `${key} (${mode}) now agrees with ns-3: remove it from KNOWN_GAPS`).toBeGreaterThan(tol);
          } else {
            expect(Math.abs(c.diff)).toBeLessThanOrEqual(tol);
          }
          if (preset !== 'lfn') return;
          if (retxGap) {
            expect(Math.abs(c.retxDiff), `${key} (${mode}) retransmissions now agree: remove it from KNOWN_RETX_GAPS`).toBeGreaterThan(RETX_TOLERANCE_LFN);
          } else {
            expect(Math.abs(c.retxDiff)).toBeLessThanOrEqual(RETX_TOLERANCE_LFN);
          }
        }, 600_000);
      }
    });
  }
}
