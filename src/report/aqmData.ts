import type { ComparisonCase } from '../compare/run.js';
import { roundSig } from '../page/downsample.js';
import type { QueueDelaySummary, RunResult } from '../result/types.js';
import { flowCc } from '../scenario/flowCc.js';
import { bdpPackets } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import type { Variant } from '../variants.js';

/**
 * The figures of the bufferbloat sections (src/report/aqmSections.ts), read from finished runs:
 * each bulk flow's goodput with its mean and 99th-percentile queueing delay (packet engine), each
 * finite transfer's completion time beside its bulk flow, and the fluid model's mean queueing delay
 * and goodput against the packet engine's. No engine runs here.
 */

/** Limits of issue 20's fluid-vs-packet comparison: mean queue delay within 20%, goodput within 10%. */
export const DELAY_LIMIT = 0.2;
export const GOODPUT_LIMIT = 0.1;

const QUEUE_TITLES: Readonly<Record<string, string>> = { red: 'RED', codel: 'CoDel', fq_codel: 'FQ-CoDel', pie: 'PIE', step: 'step' };

/** The bottleneck's discipline as a reader names it: "drop-tail 10 BDP", "CoDel". */
export function queueTitle(s: Scenario): string {
  const q = s.bottleneck.queue;
  if (q.kind === 'droptail') {
    // One significant digit when that is within 5% (40 packets of a 40.3-packet BDP: "1 BDP").
    const x = q.limitPackets / bdpPackets(s);
    const one = roundSig(x, 1);
    return `drop-tail ${Math.abs(one / x - 1) < 0.05 ? one : roundSig(x, 2)} BDP`;
  }
  return QUEUE_TITLES[q.kind] ?? q.kind;
}

/** ECN negotiated by the flows and used by the queue. */
export function ecnOn(s: Scenario): boolean {
  return s.tcp.ecn === true && (s.bottleneck.queue as { ecn?: boolean }).ecn === true;
}

/** A scenario with a finite transfer (the short-flow study); the others are bulk-only. */
export const hasTransfer = (s: Scenario): boolean => s.flows.some((f) => f.bytes !== null);

export interface FlowPoint {
  scenario: string;
  queue: string;
  ecn: boolean;
  /** The recipe's variant of the run. */
  variant: Variant;
  flow: number;
  goodputBps: number;
  meanDelayS: number | null;
  p99DelayS: number | null;
}

/** Every flow of every bulk-only case's packet run. */
export function flowPoints(cases: readonly ComparisonCase[]): FlowPoint[] {
  return cases.flatMap((c) => {
    if (hasTransfer(c.scenario) || c.packet.status !== 'ok') return [];
    const base = { scenario: c.scenario.name, queue: queueTitle(c.scenario), ecn: ecnOn(c.scenario), variant: c.comparison.variant };
    return c.packet.flows.map(({ summary: f }) => ({ ...base, flow: f.flowId, goodputBps: f.goodputBps, meanDelayS: f.queueDelay?.meanS ?? null, p99DelayS: f.queueDelay?.p99S ?? null }));
  });
}

export interface TransferPoint {
  scenario: string;
  queue: string;
  variant: Variant;
  /** The transfers' own variant (flows that name none run the recipe's). */
  transferVariant: Variant;
  bulkVariant: Variant;
  /** Each transfer's start, size and completion time (null: unfinished at the end of the run). */
  transfers: { startS: number; bytes: number; completionS: number | null }[];
  bulkGoodputBps: number;
  /** The bottleneck's queueing delay over all packets (mean, p99), the transfers' included. */
  meanDelayS: number | null;
  p99DelayS: number | null;
  /** Why the fluid engine has no figures for this case (its refusal, in its own words). */
  fluidFailure: string | null;
  /** Propagation RTT of flow 0 (s). */
  rttS: number;
  /** Why the packet run has no figures (an engine invariant broken, said in the cell), else null. */
  packetFailure: string | null;
}

/** Each short-flow case: the transfers' completion times beside the bulk flow. */
export function transferPoints(cases: readonly ComparisonCase[]): TransferPoint[] {
  return cases.flatMap((c) => {
    const s = c.scenario;
    if (!hasTransfer(s)) return [];
    const flows = c.packet.status === 'ok' ? c.packet.flows.map((f) => f.summary) : [];
    const finite = flows.filter((f) => f.transfer !== undefined);
    const bulk = flows.filter((f) => f.transfer === undefined);
    const first = s.flows.findIndex((f) => f.bytes !== null);
    const bulkIndex = s.flows.findIndex((f) => f.bytes === null);
    return [{
      scenario: s.name,
      queue: queueTitle(s),
      variant: c.comparison.variant,
      transferVariant: flowCc({ ...s, variant: c.comparison.variant }, first).variant,
      bulkVariant: flowCc({ ...s, variant: c.comparison.variant }, Math.max(0, bulkIndex)).variant,
      transfers: finite.map((f) => ({ startS: s.flows[f.flowId]!.startS, bytes: f.transfer!.bytes, completionS: f.transfer!.completionS })),
      bulkGoodputBps: bulk.reduce((a, f) => a + f.goodputBps, 0),
      meanDelayS: queueDelayOf(c.packet)?.meanS ?? null,
      p99DelayS: queueDelayOf(c.packet)?.p99S ?? null,
      fluidFailure: c.fluid.status === 'ok' ? null : (c.fluid.failure ?? 'not run'),
      rttS: 2 * (s.bottleneck.delayS + s.flows[0]!.access.delayS + (s.flows[0]!.receiverAccess?.delayS ?? 0)),
      packetFailure: c.packet.status === 'ok' ? null : (c.packet.failure ?? 'failed'),
    }];
  });
}

/**
 * A run's queueing delay over its measurement interval, per packet the queue admitted
 * (RunResult.queue.delay: the packet engine's per-packet figures; the fluid engine's admitted-weighted
 * q/C). null when the run failed or has none.
 */
export function queueDelayOf(r: RunResult): QueueDelaySummary | null {
  return r.status === 'ok' ? (r.queue.delay ?? null) : null;
}

/** The mean of {@link queueDelayOf}, s. */
export const meanQueueDelayS = (r: RunResult): number | null => queueDelayOf(r)?.meanS ?? null;

export interface AgreementRow {
  scenario: string;
  queue: string;
  ecn: boolean;
  variant: Variant;
  packetDelayS: number | null;
  fluidDelayS: number | null;
  packetGoodputBps: number | null;
  fluidGoodputBps: number | null;
  /** (fluid - packet) / packet, null without both. */
  delayErr: number | null;
  goodputErr: number | null;
  /** Both within the limits; null when the fluid engine has no figures. */
  within: boolean | null;
  /** The fluid engine's refusal or failure, when it has no figures. */
  fluidFailure: string | null;
}

const relErr = (model: number | null, ref: number | null): number | null => (model === null || ref === null || !(ref > 0) ? null : model / ref - 1);

/** Packet against fluid per bulk-only case: mean queueing delay and goodput. */
export function agreementRows(cases: readonly ComparisonCase[]): AgreementRow[] {
  return cases.flatMap((c) => {
    const s = c.scenario;
    if (hasTransfer(s)) return [];
    const ok = (r: RunResult) => r.status === 'ok';
    const packetDelayS = meanQueueDelayS(c.packet);
    const fluidDelayS = meanQueueDelayS(c.fluid);
    const packetGoodputBps = ok(c.packet) ? c.packet.summary.goodputBps : null;
    const fluidGoodputBps = ok(c.fluid) ? c.fluid.summary.goodputBps : null;
    const delayErr = relErr(fluidDelayS, packetDelayS);
    const goodputErr = relErr(fluidGoodputBps, packetGoodputBps);
    const within = delayErr === null || goodputErr === null ? null : Math.abs(delayErr) < DELAY_LIMIT && Math.abs(goodputErr) < GOODPUT_LIMIT;
    return [{
      scenario: s.name, queue: queueTitle(s), ecn: ecnOn(s), variant: c.comparison.variant,
      packetDelayS, fluidDelayS, packetGoodputBps, fluidGoodputBps, delayErr, goodputErr, within,
      fluidFailure: ok(c.fluid) ? null : (c.fluid.failure ?? 'not run'),
    }];
  });
}
