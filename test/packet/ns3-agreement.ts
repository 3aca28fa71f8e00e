import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { presetScenario, type LineName } from '../../src/scenario/presets.js';
import type { Variant } from '../../src/variants.js';
import type { AckSample, TcpState } from '../../src/cc/types.js';
import { congAvoidPerAck, inSlowStart, slowStart } from '../../src/cc/common.js';
import { WestwoodPlus } from '../../src/cc/westwood.js';
import type { RunOptions } from '../../src/packet/run.js';
import { median, simulate } from './helpers.js';

/**
 * The ns-3 agreement check (issue 8): median goodput of cclab over 10 seeds against the median of
 * ns-3's `tcp-variants-comparison` over its 10 runs, on the same setup. Two modes:
 * - `sack`: the seed's setup (SACK on, TcpClassicRecovery), 100 s runs, against the sack=true rows of
 *   reference/ns3/goodput-summary.csv (retransmissions: medians of goodput.csv's sack=true runs);
 * - `nosack`: `--sack=false`, 500 s runs, against reference/ns3/goodput-500s-summary.csv.
 * Tolerance: 10% on normal and lfn, 20% on lossy. Copies of shared/reference/ns3/ live in reference/ns3 (one home, read by the reports too).
 */
export const NS3_SUMMARY_500S = fileURLToPath(new URL('../../reference/ns3/goodput-500s-summary.csv', import.meta.url));
export const NS3_SUMMARY_100S = fileURLToPath(new URL('../../reference/ns3/goodput-summary.csv', import.meta.url));
export const NS3_RUNS_100S = fileURLToPath(new URL('../../reference/ns3/goodput.csv', import.meta.url));

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
 * Cells where cclab does not agree, with the mechanism found. Asserted as gaps: if one of them
 * starts to agree, the test says so and the entry must be removed (nothing is loosened silently).
 */
export const KNOWN_GAPS: Readonly<Record<Mode, Readonly<Record<string, string>>>> = {
  sack: {
    'lfn/newreno':
      '+13.2% on seeds 1-10, seed noise: at ~1 loss event per 7 s of a 100 s run the median of 10 runs ' +
      "moves by +-15%; over seeds 1-30 cclab's median is -3.6% (312.5 kbit/s vs 324.3).",
    'lfn/westwood':
      "+45% on seeds 1-10: both simulators are bimodal here (ns-3's 10 runs span 1.23-6.48 Mbit/s, cclab's " +
      '1.79-7.77: whether the first slow-start loss leaves Westwood+ below or above the access link rate); ' +
      "over seeds 1-30 cclab's median is +13%.",
    'lossy/cubic':
      "+68%, mechanism found: CUBIC's growth arithmetic at windows of 2-4 segments. With ns-3 TcpCubic's whole-segment " +
      "cnt arithmetic (ccParams.cntArithmetic = 1) the cell is +15.1% (retransmissions 203.5 vs ns-3's 184); the default " +
      "stays RFC 9438's real-valued curve, which the theory and the fluid model follow (see src/cc/cubic.ts).",
    'lossy/westwood':
      '+54%, open. With SACK both find lost retransmissions without the timer (cclab: 1 timeout in 100 s, ' +
      'ns-3 resends ~0.12 segments per delivered one in every run); cclab runs 625-714 kbit/s, ns-3 209-578. ' +
      "Candidates read in ns-3's source, not yet confirmed (goodput.csv has no timeout counts): ns-3's Westwood+ " +
      'counts every ACK equal to SND.UNA as one delivered segment even when it SACKs nothing new; after a ' +
      'timeout ns-3 resends only lost segments below the highest SACK and sends new data first.',
  },
  nosack: {
    'normal/newreno': "ns-3 without SACK falls into a retransmission storm on `normal`: it counts each duplicate ACK as a 'SACK' mark on the segment after the head (TcpTxBuffer::AddRenoSack); after a multi-hole recovery the marks outlive it, the new head is marked lost and resent although in flight, its duplicate brings a duplicate ACK, which adds a mark: ~550k-640k retransmissions in 500 s. cclab's SACK-less TCP is RFC 5681/6582 and does not do this (the same inferred-marks bookkeeping was behind cclab's own spurious-recovery loop, issue 8). " +
      'ns-3 is bimodal (8 runs storm at 3.7-4.1 Mbit/s, 2 stay clear at 2.5-2.65); cclab matches the clear mode: -31.8%.',
    'normal/cubic': "ns-3 without SACK falls into a retransmission storm on `normal`: it counts each duplicate ACK as a 'SACK' mark on the segment after the head (TcpTxBuffer::AddRenoSack); after a multi-hole recovery the marks outlive it, the new head is marked lost and resent although in flight, its duplicate brings a duplicate ACK, which adds a mark: ~550k-640k retransmissions in 500 s. cclab's SACK-less TCP is RFC 5681/6582 and does not do this (the same inferred-marks bookkeeping was behind cclab's own spurious-recovery loop, issue 8). " + 'All 10 ns-3 runs storm (622k retransmissions, 4.35 Mbit/s); cclab keeps the access link busier: +33.6%.',
    'lossy/reno':
      '-21.0%: the RFC 6582 `recover` check. cclab reads "covers more than recover" strictly (as Linux: an ACK equal to SND.MAX at the ' +
      'last loss event does not qualify, since go-back-N copies bring exactly such duplicate ACKs); ns-3 accepts equality ' +
      '(m_highRxAckMark >= m_recover). At p = 0.1 the first segment after a repaired timeout is often lost, and the strict reading waits ' +
      'for the timer: 202 timeouts in 500 s. With equality cclab gives -10.3%.',
    'lossy/westwood': '-32.8%: the same `recover` reading as lossy/reno (202 timeouts); with equality +16.8%.',
  },
};

/**
 * Retransmission counts are compared on `lfn` only (elsewhere ns-3's counts are dominated by its
 * storms or by timeouts at p = 0.1): median over 10 seeds within this fraction of ns-3's median.
 */
export const RETX_TOLERANCE_LFN = 0.25;

/** lfn cells whose retransmission count does not agree (goodput does), with the mechanism found. */
export const KNOWN_RETX_GAPS: Readonly<Record<Mode, Readonly<Record<string, string>>>> = {
  sack: {
    'lfn/westwood': 'bimodal like its goodput (see KNOWN_GAPS): +27% on seeds 1-10 against the median of ns-3\'s sack=true runs.',
  },
  nosack: {
    'lfn/westwood':
      'goodput agrees (-9.5%) but cclab resends 4.8k segments in 500 s against ns-3\'s 37.8k: the old engine matched (30.6k) only ' +
      "while it inferred ns-3's dupACK 'SACK' marks, whose pipe let the sender keep sending through multi-hole recoveries and " +
      'then resend what the go-back-N sweep found; with RFC 5681 FlightSize and inflation it sends less in recovery and times out ' +
      '23.5 times instead of ~55. Open: not checked run for run against ns-3.',
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
  return median(runs.map((r) => Number(r.retx)));
}

/** Runs one cell: 10 seeds of the mode's duration (conservation and invariants are checked on every run). */
export function runCell(
  preset: LineName,
  variant: keyof typeof NS3_NAME,
  mode: Mode,
  ccParams: Record<string, number> = {},
  seeds = 10,
  options: Pick<RunOptions, 'makeCc'> = {},
): CellResult {
  const goodput: number[] = [];
  const retx: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    // ns-3's reference data are the example's literal setup: the ns3-* presets.
    const scenario = presetScenario(`ns3-${preset}`, variant, { durationS: MODE_DURATION_S[mode], seed });
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
  };
}

/**
 * The agreement tests of one preset in both modes (one file per preset so that vitest's workers
 * share the load). Retransmissions are compared on `lfn` only.
 */
export function agreementSuite(preset: LineName, describe: (name: string, fn: () => void) => void, it: (name: string, fn: () => void, timeout?: number) => void, expect: typeof import('vitest').expect): void {
  for (const mode of ['sack', 'nosack'] as Mode[]) {
    describe(`ns-3 agreement on ${preset}, ${mode === 'sack' ? 'SACK on' : 'SACK off'} (median of 10 seeds x ${MODE_DURATION_S[mode]} s vs ns-3)`, () => {
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
