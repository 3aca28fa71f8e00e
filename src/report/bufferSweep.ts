import { flowCc } from '../scenario/flowCc.js';
import { bdpPackets, packetBits, sharedQueue } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import type { ComparisonCase } from '../compare/run.js';
import { timeAverage } from '../compare/resample.js';
import { medianInterval } from '../runs/stats.js';
import { VARIANT_FACTS, type Variant } from '../variants.js';
import { caseKey, type ReplicatedFigures } from './replicates.js';

/**
 * The figures of the buffer and share sections (src/report/bufferSections.ts draws them): the cases
 * of a report regrouped by everything but the bottleneck buffer, so that a line runs across buffer
 * sizes. A pure function of the cases and their replicated packet figures; no run starts here.
 *
 * - One flow alone ("buffers"): goodput, mean queueing delay and loss rate per buffer, from the
 *   packet engine (median over replications; queue delay of the charted run), the fluid model (when
 *   the variant has one) and the closed form that gives them (BBRv1's steady state).
 * - The case's variant against loss-based flows ("shares"): the variant's flows' share of the
 *   goodput per buffer, packet (median and 95% interval over replications), fluid, and the closed
 *   forms that give a share (Ware et al. for BBRv1), each with its validity.
 */

/** Where a figure comes from: an engine, or a closed form by its id. */
export type SweepSource = 'packet' | 'fluid' | string;

export interface BufferPoint {
  /** The line: every scenario field but the name, the buffer and the flows (a short label). */
  line: string;
  variant: Variant;
  bufferBdp: number;
  source: SweepSource;
  goodputBps: number | null;
  /** Mean queueing delay at the bottleneck over the measured interval, s. */
  queueDelayS: number | null;
  lossRate: number | null;
  /** False when a closed form is outside its assumptions here (drawn faded). */
  valid: boolean;
  low?: number;
  high?: number;
}

export interface SharePoint {
  line: string;
  /** The competitors, e.g. "vs 2 CUBIC". */
  mix: string;
  /** Number of competing loss-based flows and their variant. */
  competitors: number;
  against: Variant;
  variant: Variant;
  bufferBdp: number;
  source: SweepSource;
  /** Share of the goodput of the variant's flows, in [0, 1]. */
  share: number;
  low?: number;
  high?: number;
  valid: boolean;
}

/** Buffer of a scenario in BDPs of flow 0's path (tightest link x propagation RTT). */
export function bufferBdpOf(s: Scenario): number {
  return sharedQueue(s).queuePackets / bdpPackets(s);
}

/** The line of a scenario: its path and settings without the name, buffer, flows and variant. */
function lineOf(s: Scenario): string {
  const rate = `${+(s.bottleneck.bandwidthBps / 1e6).toPrecision(3)} Mbit/s`;
  const rtt = `${+(2 * (s.bottleneck.delayS + (s.flows[0]?.access.delayS ?? 0) + (s.flows[0]?.receiverAccess?.delayS ?? 0)) * 1e3).toPrecision(3)} ms`;
  const { name: _n, variant: _v, seed: _s, flows, bottleneck, ...rest } = s;
  const { queue, ...link } = bottleneck;
  const { limitPackets: _q, ...qdisc } = queue as { limitPackets: number; kind: string };
  const key = JSON.stringify({ rest, link, qdisc, access: flows.map((f) => [f.access, f.receiverAccess, f.startS, f.stopS, f.bytes]) });
  return `${rate}, ${rtt} (${qdisc.kind}) #${hash(key)}`;
}

/** A short stable hash, to tell lines apart that share rate and RTT but differ elsewhere. */
function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36).slice(0, 4);
}

/** The flows' variants: those running the case's variant, and the others. */
function mixOf(s: Scenario): { own: number[]; others: Variant[] } {
  const own: number[] = [];
  const others: Variant[] = [];
  s.flows.forEach((_, i) => {
    const v = flowCc(s, i).variant;
    if (v === s.variant) own.push(i);
    else others.push(v);
  });
  return { own, others };
}

const ok = (x: number | undefined | null): x is number => x !== null && x !== undefined && Number.isFinite(x);

/** Packet figures of one case: medians over the replications, the queue delay of the charted run. */
function packetPoint(c: ComparisonCase, f: ReplicatedFigures | undefined): Omit<BufferPoint, 'line' | 'variant' | 'bufferBdp' | 'source' | 'valid'> {
  const runs = (f?.runs ?? []).filter((r) => r.status === 'ok');
  const loss = medianInterval(runs.map((r) => r.summary.lossRate).filter(Number.isFinite));
  const g = f?.goodput;
  return {
    goodputBps: g && ok(g.median) ? g.median : c.packet.status === 'ok' ? c.packet.summary.goodputBps : null,
    queueDelayS: c.packet.status === 'ok' ? (c.packet.queue.delay?.meanS ?? null) : null,
    lossRate: ok(loss.median) ? loss.median : c.packet.status === 'ok' ? c.packet.summary.lossRate : null,
    ...(g && ok(g.low) && ok(g.high) ? { low: g.low, high: g.high } : {}),
  };
}

/** Fluid figures of one case (null when it did not run or has no model). */
function fluidPoint(c: ComparisonCase): Omit<BufferPoint, 'line' | 'variant' | 'bufferBdp' | 'source' | 'valid'> | null {
  const r = c.fluid;
  if (r.status !== 'ok') return null;
  const s = c.scenario;
  const linkPps = sharedQueue(s).bandwidthBps / packetBits(s);
  const q = r.queue.packets.t.length > 0 ? timeAverage(r.queue.packets, s.measureFromS, s.durationS, 'linear') : NaN;
  return { goodputBps: r.summary.goodputBps, queueDelayS: ok(q) ? q / linkPps : null, lossRate: ok(r.summary.lossRate) ? r.summary.lossRate : null };
}

/** One flow alone, per buffer: packet, fluid and the closed forms with a queue figure. */
export function bufferPoints(cases: readonly ComparisonCase[], figures: ReadonlyMap<string, ReplicatedFigures>): BufferPoint[] {
  const out: BufferPoint[] = [];
  for (const c of cases) {
    if (c.scenario.flows.length !== 1) continue;
    const at = { line: lineOf(c.scenario), variant: c.comparison.variant, bufferBdp: bufferBdpOf(c.scenario) };
    out.push({ ...at, source: 'packet', valid: true, ...packetPoint(c, figures.get(caseKey(c.scenario.name, c.comparison.variant))) });
    const fl = fluidPoint(c);
    if (fl) out.push({ ...at, source: 'fluid', valid: c.comparison.fluidTrusted, ...fl });
    for (const f of c.comparison.closedForms) {
      if (!f.bbr || f.goodputBps === null) continue;
      out.push({ ...at, source: f.formula, valid: f.validity.valid, goodputBps: f.goodputBps, queueDelayS: f.bbr.meanQueueDelayS, lossRate: f.bbr.lossRate });
    }
  }
  return keepSweeps(out, (p) => `${p.line}|${p.variant}`);
}

/** The variant's flows against loss-based flows of one other variant, per buffer: packet, fluid, closed forms. */
export function sharePoints(cases: readonly ComparisonCase[], figures: ReadonlyMap<string, ReplicatedFigures>): SharePoint[] {
  const out: SharePoint[] = [];
  for (const c of cases) {
    const s = c.scenario;
    const { own, others } = mixOf(s);
    const against = others[0];
    if (own.length === 0 || against === undefined || others.some((v) => v !== against) || VARIANT_FACTS[against].control !== 'window') continue;
    const variant = c.comparison.variant;
    const at = { line: lineOf(s), mix: `${own.length > 1 ? `${own.length} ` : ''}vs ${others.length} ${VARIANT_FACTS[against].title}`, competitors: others.length, against, variant, bufferBdp: bufferBdpOf(s) };
    const shareOf = (g: readonly number[]): number | null => {
      const total = g.reduce((a, x) => a + x, 0);
      return total > 0 ? own.reduce((a, i) => a + g[i]!, 0) / total : null;
    };
    const runs = (figures.get(caseKey(s.name, variant))?.runs ?? []).filter((r) => r.status === 'ok' && r.flowGoodputBps.length === s.flows.length);
    const shares = runs.map((r) => shareOf(r.flowGoodputBps)).filter(ok);
    if (shares.length === 0 && c.packet.status === 'ok') {
      const one = shareOf(c.packet.flows.map((f) => f.summary.goodputBps));
      if (ok(one)) shares.push(one);
    }
    if (shares.length > 0) {
      const m = medianInterval(shares);
      out.push({ ...at, source: 'packet', share: m.median, valid: true, ...(ok(m.low) && ok(m.high) ? { low: m.low, high: m.high } : {}) });
    }
    if (c.fluid.status === 'ok' && c.fluid.flows.length === s.flows.length) {
      const f = shareOf(c.fluid.flows.map((x) => x.summary.goodputBps));
      if (ok(f)) out.push({ ...at, source: 'fluid', share: f, valid: c.comparison.fluidTrusted });
    }
    for (const f of c.comparison.closedForms) if (f.bbr?.share != null) out.push({ ...at, source: f.formula, share: f.bbr.share, valid: f.validity.valid });
  }
  return keepSweeps(out, (p) => `${p.line}|${p.mix}`);
}

/** Only lines that run across at least two buffer sizes (a report of single points draws none). */
function keepSweeps<T extends { bufferBdp: number }>(points: T[], key: (p: T) => string): T[] {
  const sizes = new Map<string, Set<number>>();
  for (const p of points) {
    const k = key(p);
    if (!sizes.has(k)) sizes.set(k, new Set());
    sizes.get(k)!.add(+p.bufferBdp.toPrecision(6));
  }
  return points.filter((p) => (sizes.get(key(p))?.size ?? 0) >= 2);
}
