import { BBR_CLOSED_FORMS } from '../variants.js';
import type { RunResult } from '../result/types.js';
import { pathPayloadCapacityBps } from '../scenario/path.js';
import type { ClosedFormPrediction, ValidityFlag } from './types.js';

/**
 * Thresholds of the validity checks. Fluid models of TCP assume a window of more than a couple of
 * packets, random losses at a rate the window does not control, and a window that neither the
 * receiver nor the link caps; the closed forms also assume losses repaired by fast recovery (their
 * own checks, src/theory/closedForms.ts). Outside that, a large error is expected and is reported as
 * a flag, not as a model error.
 */
export const VALIDITY = {
  /**
   * Below this mean window (segments) a loss is nearly always a timeout and a window of one or two
   * segments is no longer a fluid: the validate grid's Tahoe at p = 5e-2, RTT 10 ms (1.8 segments) is
   * -30%, while its points at 2.2-3.9 segments and NewReno's at 3.2-3.9 are within 14% (the models'
   * timeout probability follows the window down to a few segments, models/README.md "Timeouts").
   */
  minPacketsPerRtt: 2,
  /**
   * Timeouts above this share of loss reactions, or idling the sender above maxTimeoutIdleShare of
   * the run, dominate: an informational flag since the fluid models carry timeouts (probability from
   * the window and the round-trip loss, RTO idle time with back-off; lossy: within 25% of the packet
   * median for every variant); the closed forms say for themselves whether they include them.
   */
  maxTimeoutShare: 0.5,
  minTimeouts: 3,
  /** Share of the measured interval the sender sits idle in retransmission timeouts (at least minRto each). */
  maxTimeoutIdleShare: 0.2,
  /** Goodput above this share of the path's payload capacity: the link, not loss, sets the rate. */
  bandwidthShare: 0.8,
  /** Share of time the window sits at the receiver window above which the receiver limits the flow. */
  rwndTimeShare: 0.25,
  /** Fewer loss reactions than this: means are dominated by the first slow start. */
  minLossEvents: 5,
} as const;

/** Share of the recorded samples (time-weighted) where cwnd is at least `level` bytes. */
function timeShareAtLeast(run: RunResult, levelBytes: number): number {
  let at = 0;
  let all = 0;
  for (const { trace } of run.flows) {
    const { t, v } = trace.cwndBytes;
    for (let i = 1; i < t.length; i++) {
      const dt = t[i]! - t[i - 1]!;
      all += dt;
      if (v[i - 1]! >= levelBytes) at += dt;
    }
  }
  return all > 0 ? at / all : 0;
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

/** A flag for every failed run of the pair. */
function failedRunFlags(packet: RunResult, fluid: RunResult): ValidityFlag[] {
  return [packet, fluid]
    .filter((r) => r.status === 'failed')
    .map((r) => ({
      code: 'run-failed',
      severity: 'invalid',
      subject: r.engine === 'fluid' ? 'fluid' : 'comparison',
      message: `${r.engine} run failed: ${r.failure ?? 'no reason given'}`,
    }));
}

/** Timeouts that dominate the loss reactions, or the time (informational: the fluid models carry them). */
function timeoutFlags(packet: RunResult): ValidityFlag[] {
  const spec = packet.spec;
  const s = packet.summary;
  const lossEvents = s.timeouts + s.fastRecoveries;
  const timeoutShare = s.timeouts / Math.max(1, lossEvents);
  const intervalS = spec.durationS - spec.measureFromS;
  const idleShare = (s.timeouts * spec.tcp.minRtoS) / (intervalS * Math.max(1, spec.flows.length));
  if (s.timeouts >= VALIDITY.minTimeouts && timeoutShare > VALIDITY.maxTimeoutShare) {
    return [{
      code: 'timeouts-dominate',
      severity: 'info',
      subject: 'fluid',
      message: `timeouts dominate: ${s.timeouts} timeouts vs ${s.fastRecoveries} fast recoveries; the fluid models include them (timeout probability and RTO idle time)`,
      value: timeoutShare,
      threshold: VALIDITY.maxTimeoutShare,
    }];
  }
  if (s.timeouts >= VALIDITY.minTimeouts && idleShare > VALIDITY.maxTimeoutIdleShare) {
    return [{
      code: 'timeouts-dominate',
      severity: 'info',
      subject: 'fluid',
      message: `timeouts dominate the time: ${s.timeouts} timeouts of at least ${spec.tcp.minRtoS} s leave the sender idle for ${pct(idleShare)} or more of the run; the fluid models include that idle time`,
      value: idleShare,
      threshold: VALIDITY.maxTimeoutIdleShare,
    }];
  }
  return [];
}

/** A mean window too small for a fluid. */
function fewPacketsFlags(packet: RunResult): ValidityFlag[] {
  const s = packet.summary;
  if (!(s.meanCwndSegments < VALIDITY.minPacketsPerRtt)) return [];
  return [{
    code: 'few-packets-per-rtt',
    severity: 'invalid',
    subject: 'fluid',
    message: `only ${s.meanCwndSegments.toFixed(1)} packets per RTT on average (< ${VALIDITY.minPacketsPerRtt}): too few for a fluid approximation or for three duplicate ACKs`,
    value: s.meanCwndSegments,
    threshold: VALIDITY.minPacketsPerRtt,
  }];
}

/** The link, not random loss, sets the rate: a warning for the fluid model, invalid for the closed forms. */
function bandwidthFlags(packet: RunResult, closed: readonly ClosedFormPrediction[]): ValidityFlag[] {
  const s = packet.summary;
  const capacity = pathPayloadCapacityBps(packet.spec);
  const share = s.goodputBps / capacity;
  const congestionDrops = s.drops.queue > Math.max(0, s.drops.random);
  if (!(share >= VALIDITY.bandwidthShare || congestionDrops)) return [];
  const why =
    share >= VALIDITY.bandwidthShare
      ? `goodput is ${pct(share)} of the path's payload capacity (${(capacity / 1e6).toPrecision(3)} Mbit/s)`
      : `most losses are queue overflows (${s.drops.queue} vs ${s.drops.random} random drops), so the window sets the loss rate`;
  const flags: ValidityFlag[] = [{ code: 'bandwidth-limited', severity: 'warn', subject: 'fluid', message: `bandwidth limited: ${why}`, value: share, threshold: VALIDITY.bandwidthShare }];
  // BBR's closed forms model the link itself (src/theory/bbrClosedForms.ts): only the loss-rate formulas are out of their regime.
  if (closed.some((c) => !BBR_CLOSED_FORMS.includes(c.formula))) {
    flags.push({
      code: 'bandwidth-limited',
      severity: 'invalid',
      subject: 'closed-form',
      message: `closed forms assume a loss-limited flow with a given loss rate; here ${why}`,
      value: share,
      threshold: VALIDITY.bandwidthShare,
    });
  }
  return flags;
}

/** A window that sits at the receive buffer. */
function receiverWindowFlags(packet: RunResult): ValidityFlag[] {
  const rwnd = packet.spec.tcp.rcvBufBytes;
  const rwndShare = timeShareAtLeast(packet, 0.95 * rwnd);
  if (!(rwndShare > VALIDITY.rwndTimeShare)) return [];
  return [{
    code: 'receiver-window-limited',
    severity: 'warn',
    subject: 'fluid',
    message: `receiver-window limited: cwnd is at the ${Math.round(rwnd / 1024)} KiB receive buffer ${pct(rwndShare)} of the time`,
    value: rwndShare,
    threshold: VALIDITY.rwndTimeShare,
  }];
}

/** The theory module states each closed form's own validity (regime, packets per RTT, timeouts). */
function closedFormFlags(closed: readonly ClosedFormPrediction[]): ValidityFlag[] {
  return closed.flatMap((c) =>
    c.validity.reasons.map((reason): ValidityFlag => ({
      code: /receive-window/.test(reason) ? 'receiver-window-limited' : 'closed-form-not-applicable',
      severity: 'invalid',
      subject: 'closed-form',
      message: `${c.title}: ${reason}`,
    })),
  );
}

/** Too few loss reactions: means shaped by the first slow start. */
function fewLossEventsFlags(packet: RunResult): ValidityFlag[] {
  const lossEvents = packet.summary.timeouts + packet.summary.fastRecoveries;
  if (!(lossEvents < VALIDITY.minLossEvents)) return [];
  return [{
    code: 'few-loss-events',
    severity: 'warn',
    subject: 'comparison',
    message: `only ${lossEvents} loss reactions in the run: the means are shaped by the first slow start (run longer)`,
    value: lossEvents,
    threshold: VALIDITY.minLossEvents,
  }];
}

/** Flags for one packet/fluid pair. The packet run is the witness of what the network did. */
export function validityFlags(packet: RunResult, fluid: RunResult, closed: readonly ClosedFormPrediction[]): ValidityFlag[] {
  const failed = failedRunFlags(packet, fluid);
  if (packet.status === 'failed') return failed;
  return [
    ...failed,
    ...timeoutFlags(packet),
    ...fewPacketsFlags(packet),
    ...bandwidthFlags(packet, closed),
    ...receiverWindowFlags(packet),
    ...closedFormFlags(closed),
    ...fewLossEventsFlags(packet),
  ];
}
