import { InputError } from '../errors.js';
import { queueParams } from '../net/qdisc/registry.js';
import { bdpPackets, propagationRttS } from '../scenario/path.js';
import type { FlowSpec, Scenario } from '../scenario/types.js';

/**
 * Scenario edits behind the headline sweep flags. Each takes and mutates a cloned scenario.
 */

/**
 * Sets flow 0's base RTT to `rttS` by scaling every link's one-way delay by the same factor:
 * each link keeps its share of the path delay (the ns-3 presets' 45 ms access link stays 45/46 of a
 * 1 ms-bottleneck path), and other flows keep their RTT ratio to flow 0, so RTT-heterogeneous
 * scenarios stay heterogeneous. A scenario with no delay at all gets it split evenly between the
 * access link and the bottleneck. Why not "keep the access delay, rest on the bottleneck": that
 * cannot reach RTTs below twice the access delay (90 ms in the presets), the low end of a sweep.
 */
export function applyRtt(s: Scenario, rttS: number): void {
  if (!(rttS > 0) || !Number.isFinite(rttS)) throw new InputError('--rtt', `must be > 0, got ${rttS} s`);
  const base = propagationRttS(s);
  if (base === 0) {
    for (const f of s.flows) f.access.delayS = rttS / 4;
    s.bottleneck.delayS = rttS / 4;
    return;
  }
  const k = rttS / base;
  s.bottleneck.delayS *= k;
  for (const f of s.flows) {
    f.access.delayS *= k;
    if (f.receiverAccess) f.receiverAccess.delayS *= k;
  }
}

/**
 * Sets the number of flows. Extra flows copy the last existing one and start 0.1 s after it (the
 * presets' stagger, so flows do not synchronise artificially); fewer flows keep the first ones.
 */
export function applyFlows(s: Scenario, n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new InputError('--flows', `must be a whole number >= 1, got ${n}`);
  if (n <= s.flows.length) {
    s.flows = s.flows.slice(0, n);
    return;
  }
  while (s.flows.length < n) {
    const last = s.flows[s.flows.length - 1]!;
    const copy: FlowSpec = structuredClone(last);
    copy.startS = last.startS + 0.1;
    if (copy.stopS !== null && copy.stopS < copy.startS) copy.stopS = copy.startS;
    s.flows.push(copy);
  }
}

/** Sets the bottleneck queue limit (packets, at least 1). */
export function applyBufferPackets(s: Scenario, packets: number, flag = '--buffer'): void {
  if (!Number.isFinite(packets) || packets <= 0) throw new InputError(flag, `must be > 0, got ${packets}`);
  const p = Math.max(1, Math.round(packets));
  const q = s.bottleneck.queue;
  if (q.kind === 'red') {
    // Keep RED's thresholds in the same proportion to the limit (defaults written out when left out).
    const rp = queueParams(q) as { minThPackets: number; maxThPackets: number };
    const k = p / Math.max(1, q.limitPackets);
    q.minThPackets = Math.min(rp.minThPackets * k, p);
    q.maxThPackets = Math.min(rp.maxThPackets * k, p);
  }
  q.limitPackets = p;
}

/** Sets the bottleneck queue to `multiple` x flow 0's BDP (src/scenario/path.ts); applied after rate and RTT. */
export function applyBufferBdp(s: Scenario, multiple: number): void {
  if (!(multiple > 0)) throw new InputError('--buffer-bdp', `must be > 0, got ${multiple}`);
  applyBufferPackets(s, multiple * bdpPackets(s), '--buffer-bdp');
}

export function applyLoss(s: Scenario, p: number): void {
  if (!(p >= 0 && p < 1)) throw new InputError('--loss', `must be in [0, 1), got ${p}`);
  s.bottleneck.loss.rate = p;
}

export function applyBandwidth(s: Scenario, bps: number): void {
  if (!(bps > 0) || !Number.isFinite(bps)) throw new InputError('--bandwidth', `must be > 0, got ${bps} bps`);
  s.bottleneck.bandwidthBps = bps;
}
