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
  sack: {
    'lossy/westwood':
      "+40.0% (+54.1% before tcp.handshakeRtt). Mechanism found: ns-3 takes its first RTT sample from the SYN-ACK (111 ms: no payload " +
      "serialised), and Westwood+'s RTTmin is ns-3's m_minRtt = the smallest SRTT, which keeps it; cclab's smallest data SRTT was " +
      "117-124 ms, so every ssthresh = BWE x RTTmin was 6-12% higher and the climb out of the first loss (a product of ~100 such " +
      "cuts) ran away faster. With the handshake sample the steady state agrees (mean cwnd 40-100 s: ns-3 run 0 13454 B, cclab seeds " +
      "1-6 13671-14088 B; 14731-15663 B without) and the first 10 s look like ns-3's run 0 (median 42 kbit/s over seeds 1-10, ns-3 37.8), " +
      "but cclab still climbs faster: from 2000 to 8000 B of ssthresh ln(ssthresh/previous) averages 0.029-0.051 per loss event " +
      "over seeds 1-10 against 0.027 in ns-3's run 0, so cclab's runs reach the 1 Mbit/s line's window in 12-33 s (goodput 537-695 " +
      "kbit/s) while ns-3's goodputs (209-579 kbit/s; run 0, its second best, climbs in ~28 s) imply 25-85 s. Ruled out (no change " +
      "over seeds 1-10): ns-3's missing rescue retransmission and Impatient timer (in the ns3 profile), its retransmission on every " +
      'partial ACK (TcpSocketBase::ProcessAck DoRetransmit: the window always had room for that segment), timestamp RTT samples of ' +
      "retransmitted segments, ns-3's dupACK count and timer handling of ACKs that advance SND.UNA and SACK new data (they stay in " +
      'CA_DISORDER without NewAck), NextSeg rule (1.b) after a timeout (lost segments above the highest SACK wait for new data), ' +
      'a new recovery entered only on the ACK after the one that ends the last. ' +
      "Not ns-3's sampling error (scripts/ns3-seeds.ts, 100 seeds): cclab's quartiles 461/599/642 kbit/s against ns-3's 10 runs " +
      "294/425/522; P(a cclab run > an ns-3 run) 0.77; 56% of cclab's runs beat ns-3's fastest (579); a median of 10 cclab runs " +
      "lands within 20% of ns-3's median in 10.7% of resamples. Both have the same two modes (a climb out in 12-35 s, or tens of " +
      'RTOs at 1-3 segment windows: cclab seed 19 30 RTOs, 43 kbit/s), but cclab falls into the slow one less often (20% of runs ' +
      "below 400 kbit/s, ns-3 5 of 10). Per loss event the climb is alike (mean ln(ssthresh/previous) over 0-30 s: cclab seeds 1-4 " +
      "0.033-0.043, ns-3 run 0 0.039); what differs is how often a small window times out (cclab, 30 seeds: 27% of loss events at " +
      "3 segments, 13% at 4, 1% at 5-7; ns-3 run 0 timed out at 4.6 and 6.2 segments, 2 of ~17 events at 4-7). Also checked against " +
      "ns-3's code and alike: the error model on both bottleneck devices (ACKs lost too), the receiver's immediate ACK for " +
      'out-of-order, gap-filling and duplicate data and the delayed-ACK count cleared by any ACK, 3 SACK blocks beside timestamps, ' +
      "the silly-window rule at non-integral windows, FACK off, RFC 6675 pipe in disorder, PktsAcked's count in every state, " +
      'windows of m_srtt, 2 MB buffers, initial window 10, lost retransmissions detected by SACK (ns-3 5ada3ae, in the reference ' +
      "build). Tried without effect (100 seeds): 1 ms timestamps (median 594.6), ns-3's PktsAcked(1) for ACKs with no new SACK " +
      '(598.9), recovery entered only on an ACK that SACKs new data (592.7), lost SYN/SYN-ACK with ns-3\'s 3 s SYN timer (14 of 100 ' +
      "runs start late; median 598.4). Open: why ns-3's small windows time out more (only run 0 is traced).",
  },
  nosack: {
    'normal/newreno': "ns-3 without SACK falls into a retransmission storm on `normal`: it counts each duplicate ACK as a 'SACK' mark on the segment after the head (TcpTxBuffer::AddRenoSack); after a multi-hole recovery the marks outlive it, the new head is marked lost and resent although in flight, its duplicate brings a duplicate ACK, which adds a mark: ~550k-640k retransmissions in 500 s. cclab's SACK-less TCP is RFC 5681/6582 and does not do this (the same inferred-marks bookkeeping was behind cclab's own spurious-recovery loop, issue 8). " +
      'ns-3 is bimodal (8 runs storm at 3.7-4.1 Mbit/s, 2 stay clear at 2.5-2.65); cclab matches the clear mode: -35.1%.',
    'normal/cubic': "ns-3 without SACK falls into a retransmission storm on `normal`: it counts each duplicate ACK as a 'SACK' mark on the segment after the head (TcpTxBuffer::AddRenoSack); after a multi-hole recovery the marks outlive it, the new head is marked lost and resent although in flight, its duplicate brings a duplicate ACK, which adds a mark: ~550k-640k retransmissions in 500 s. cclab's SACK-less TCP is RFC 5681/6582 and does not do this (the same inferred-marks bookkeeping was behind cclab's own spurious-recovery loop, issue 8). " + 'All 10 ns-3 runs storm (622k retransmissions, 4.35 Mbit/s); cclab keeps the access link busier: +23.6%.',
    'lossy/westwood':
      "-29.1% on seeds 1-10 (seeds 1-20: 35.4 kbit/s, ns-3 50.7). It was +16.8% while cclab's Westwood+ took RTTmin from the data " +
      "(117-124 ms); with ns-3's handshake sample (111 ms, tcp.handshakeRtt, which also brings the SACK-on steady state to ns-3's) " +
      'every ssthresh is 6-12% lower, and at 1-3 segment windows, where timeouts set the pace, that costs a third of the goodput: ' +
      "the earlier agreement was that compensation. What in ns-3's SACK-less recovery makes up for it is open (ns-3 resends " +
      "1421 segments in 500 s against cclab's 966; its duplicate-ACK 'SACK' marks, TcpTxBuffer::AddRenoSack, which cclab declines, " +
      'keep it sending through recoveries). Not sampling error (scripts/ns3-seeds.ts, 40 seeds): cclab\'s quartiles 29.2/33.2/40.5 kbit/s ' +
      "against ns-3's 47.8/50.7/55.7; P(a cclab run > an ns-3 run) 0.085; 57% of cclab's runs are below ns-3's slowest (34.4); " +
      'per delivered segment both resend alike (cclab 13-16%, ns-3 14-16%).',
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
      'goodput agrees (-1.5%) but cclab resends 11.2k segments in 500 s against ns-3\'s 37.8k (36 timeouts): the old engine matched (30.6k) only ' +
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

/** ns-3's goodput of each of its 10 runs of a cell (goodput.csv with SACK, goodput-500s.csv without), bit/s. */
export function ns3RunsBps(preset: LineName, ns3Variant: string, mode: Mode): number[] {
  const file = mode === 'sack' ? NS3_RUNS_100S : NS3_RUNS_500S;
  const sack = String(mode === 'sack');
  return csvRows(file)
    .filter((r) => r.scenario === preset && r.variant === ns3Variant && r.sack === sack)
    .map((r) => Number(r.goodput_bps));
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
