import { describe, expect, it } from 'vitest';
import { COMPARISON_LOSS_PROCESS } from '../../src/compare/run.js';
import { drawsLossEvents, runFluid } from '../../src/fluid/run/runFluid.js';
import { runPacket } from '../../src/packet/run.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { meanQueueDelayS } from '../../src/report/aqmData.js';
import type { QueueSpec, RunResult, Scenario } from '../../src/index.js';

/*
 * Fluid vs packet on each queue discipline (issue 20): CUBIC and Reno, 1, 4 and 16 flows (the three
 * loads) on 100 Mbit/s, 24 ms base RTT, 30 s measured from 15 s; mean queue delay within 20% and
 * goodput within 10%, all 31 cases. A Reno flow alone on its queue (one flow; each flow of FQ-CoDel's
 * per-flow queues) runs the hybrid lone-flow model (src/fluid/run/modelChoice.ts), whose sawtooth
 * drops below the BDP and idles the link as the packet flow does: with the mean-field model these
 * were the 5 misses (reno 1 pie 15.0 / 9.8 ms; reno 1 codel 2.6 / 1.4 ms and goodput +14%; reno 1
 * red 3.0 / 1.6 ms, +12%; reno 1 fq_codel as codel; reno 4 fq_codel 3.3 / 2.2 ms, +9.7%).
 * CUBIC's loss events run as the comparisons run them (Poisson, src/compare/run.ts): its periodic
 * thresholds kept 4 identical flows in lockstep on a shared queue (cubic 4 codel 3.1 / 5.1 ms, -39%;
 * cubic 4 red -22%), the packet flows' drops strike one at a time.
 */

const QUEUES: Record<string, QueueSpec> = {
  pie: { kind: 'pie', limitPackets: 1000 },
  codel: { kind: 'codel', limitPackets: 1000 },
  red: { kind: 'red', limitPackets: 1000, minThPackets: 50, maxThPackets: 150, maxP: 0.1, weight: 0.002, gentle: true },
  fq_codel: { kind: 'fq_codel', limitPackets: 1000 },
};

function line(variant: 'cubic' | 'reno', flows: number, kind: string, ecn: boolean): Scenario {
  const s = dumbbellScenario(variant, flows);
  s.durationS = 30;
  s.measureFromS = 15;
  s.tcp.ecn = ecn;
  s.bottleneck.queue = { ...QUEUES[kind]!, ...(ecn ? { ecn: true } : {}) } as QueueSpec;
  s.flows.forEach((f) => {
    f.access.queuePackets = 10000;
    f.receiverAccess!.queuePackets = 10000;
  });
  return s;
}

/** Mean queueing delay over the measurement interval, as the report computes it (src/report/aqmData.ts). */
function meanDelayS(s: Scenario, r: RunResult): number {
  const d = meanQueueDelayS(r);
  if (d === null) throw new Error(`${r.engine} run of ${s.name} has no queueing delay`);
  return d;
}

/** Seeds of the cases whose fluid draws Poisson loss events (three: the median of the packet and fluid runs on each). */
const POISSON_SEEDS = [1, 2, 3];
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

type Case = [variant: 'cubic' | 'reno', flows: number, kind: string, ecn: boolean];
const cases: Case[] = [];
for (const kind of ['pie', 'codel', 'red', 'fq_codel']) for (const v of ['cubic', 'reno'] as const) for (const n of [1, 4, 16]) cases.push([v, n, kind, false]);
for (const kind of ['pie', 'codel', 'red']) for (const v of ['cubic', 'reno'] as const) cases.push([v, 4, kind, true]);


describe('fluid vs packet on every queue discipline (mean queue delay within 20%, goodput within 10%)', () => {
  const rows: string[] = [];
  it.each(cases)('%s, %i flows, %s, ecn %s', (variant, flows, kind, ecn) => {
    const s = line(variant, flows, kind, ecn);
    // As report, compare and validate run it (src/runs/agreement.ts): where the fluid draws its loss
    // events as a Poisson process (CUBIC, lone Reno), one fluid run per packet seed and the medians of
    // both compared: one sample path of either is a draw, not the model's answer (a single path of
    // cubic 4 red moved -15 / -11 / -15 / -22 / -12% over seeds 2-6). Deterministic fluid: one run
    // against the packet run of seed 1.
    const seeds = drawsLossEvents(s) ? POISSON_SEEDS : [1];
    const fluids = seeds.map((seed) => runFluid({ ...s, seed }, { lossProcess: COMPARISON_LOSS_PROCESS }));
    const packets = seeds.map((seed) => runPacket({ ...s, seed }));
    for (const f of fluids) expect(f.status).toBe('ok');
    const fDelay = median(fluids.map((r) => meanDelayS(s, r)));
    const pDelay = median(packets.map((r) => meanDelayS(s, r)));
    const fGoodput = median(fluids.map((r) => r.summary.goodputBps));
    const pGoodput = median(packets.map((r) => r.summary.goodputBps));
    const dq = fDelay / pDelay - 1;
    const dg = fGoodput / pGoodput - 1;
    const name = `${variant} ${flows} ${kind}${ecn ? ' ecn' : ''}${seeds.length > 1 ? ` (median of ${seeds.length})` : ''}`;
    rows.push(`${name}: delay ${(fDelay * 1e3).toFixed(2)} / ${(pDelay * 1e3).toFixed(2)} ms (${(dq * 100).toFixed(0)}%), goodput ${(fGoodput / 1e6).toFixed(2)} / ${(pGoodput / 1e6).toFixed(2)} Mbit/s (${(dg * 100).toFixed(1)}%)`);
    if (ecn) {
      // The queue marks instead of dropping (the fluid's remaining losses are the first slow start's overflow).
      for (const p of packets) expect(p.summary.ecn!.marks).toBeGreaterThan(0);
      for (const f of fluids) expect(f.summary.retransmits).toBeLessThan(0.01 * (f.summary.throughputBps * s.durationS) / (8 * s.mssBytes));
    }
    expect(Math.abs(dq)).toBeLessThan(0.2);
    expect(Math.abs(dg)).toBeLessThan(0.1);
  });
  it('prints the table (for models/README.md)', () => {
    console.log(rows.sort().join('\n'));
  });
  it('FQ-CoDel keeps periodic loss events whatever the run asks (identical flows, each alone on its queue); CoDel takes the Poisson process', () => {
    const fq = line('cubic', 4, 'fq_codel', false);
    fq.durationS = 8;
    fq.measureFromS = 4;
    const strip = (r: RunResult) => JSON.stringify({ ...r, stats: null });
    expect(strip(runFluid(fq, { lossProcess: 'poisson' }))).toBe(strip(runFluid(fq, { lossProcess: 'periodic' })));
    const codel = { ...fq, bottleneck: { ...fq.bottleneck, queue: QUEUES.codel! } };
    expect(strip(runFluid(codel, { lossProcess: 'poisson' }))).not.toBe(strip(runFluid(codel, { lossProcess: 'periodic' })));
  });
});
