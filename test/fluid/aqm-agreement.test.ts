import { describe, expect, it } from 'vitest';
import { COMPARISON_LOSS_PROCESS } from '../../src/compare/run.js';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { runPacket } from '../../src/packet/run.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { meanQueueDelayS } from '../../src/report/aqmData.js';
import type { QueueSpec, RunResult, Scenario } from '../../src/index.js';

/*
 * Fluid vs packet on each queue discipline (issue 20): CUBIC and Reno, 1, 4 and 16 flows (the three
 * loads) on 100 Mbit/s, 24 ms base RTT, 30 s measured from 15 s; mean queue delay within 20% and
 * goodput within 10% where the models' assumptions hold. The cases where they do not are recorded
 * with the measured gap (models/README.md, "Queue disciplines"), and asserted to stay gaps, so the
 * list cannot go stale silently.
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

type Case = [variant: 'cubic' | 'reno', flows: number, kind: string, ecn: boolean];
const cases: Case[] = [];
for (const kind of ['pie', 'codel', 'red', 'fq_codel']) for (const v of ['cubic', 'reno'] as const) for (const n of [1, 4, 16]) cases.push([v, n, kind, false]);
for (const kind of ['pie', 'codel', 'red']) for (const v of ['cubic', 'reno'] as const) cases.push([v, 4, kind, true]);

/**
 * The gaps, measured (fluid / packet mean queue delay; goodput), all Reno on a queue it has to itself:
 * one flow (or, under FQ-CoDel, each flow in its own queue) is a synchronised sawtooth that the
 * mean-field Reno model cannot have. The AQM's drop halves the window from BDP + the queue's
 * excursion to below the BDP, so the queue empties and the link idles until the window is back at
 * the BDP: reno 1 codel, cwnd 250 -> 125 segments against a BDP of 201.6, utilisation 0.876 measured,
 * 0.884 from the sawtooth ((201.6 - 125) x mean(125, 201.6) / 201.6 + (250 - 201.6)) / (250 - 125));
 * the mean-field window sits at its equilibrium with the link always busy. Measured: reno 1 pie
 * 15.0 / 9.8 ms (+54%, goodput +0.5%: PIE's integral holds the fluid at its 15 ms target, the
 * sawtooth's mean lies below it); reno 1 codel 2.6 / 1.4 ms (+90%), goodput 97.3 / 85.2 (+14%);
 * reno 1 red 3.0 / 1.6 ms (+91%), goodput +12%; reno 1 fq_codel as reno 1 codel; reno 4 fq_codel
 * 3.3 / 2.2 ms (+51%), goodput +9.7% (each flow alone at C/4 on its own queue, a 50-segment BDP).
 * Fixed by running CUBIC's loss events as the comparisons do (Poisson, src/compare/run.ts): its
 * periodic thresholds kept 4 identical flows in lockstep on a shared queue, all cutting at once
 * (cubic 4 codel 3.1 / 5.1 ms, -39%; cubic 4 red 3.3 / 4.2, -22%; cubic 4 codel ecn -39%), the packet
 * flows' drops strike one at a time: now 4.35 / 5.06 (-14%), 3.89 / 4.19 (-7%), 4.35 / 5.00 (-13%).
 * FQ-CoDel keeps periodic events (src/fluid/run/runFluid.ts says why). The other 26 cases agree.
 */
const GAPS = new Set(['reno 1 pie', 'reno 1 codel', 'reno 1 red', 'reno 1 fq_codel', 'reno 4 fq_codel']);

describe('fluid vs packet on every queue discipline (mean queue delay within 20%, goodput within 10%)', () => {
  const rows: string[] = [];
  it.each(cases)('%s, %i flows, %s, ecn %s', (variant, flows, kind, ecn) => {
    const s = line(variant, flows, kind, ecn);
    // As report, compare and validate run it (src/compare/run.ts): CUBIC's loss events as a Poisson
    // process seeded by the scenario (one sample path), which desynchronises its flows on a shared queue.
    const f = runFluid(s, { lossProcess: COMPARISON_LOSS_PROCESS });
    const p = runPacket(s);
    expect(f.status).toBe('ok');
    const dq = meanDelayS(s, f) / meanDelayS(s, p) - 1;
    const dg = f.summary.goodputBps / p.summary.goodputBps - 1;
    const name = `${variant} ${flows} ${kind}${ecn ? ' ecn' : ''}`;
    rows.push(`${name}: delay ${(meanDelayS(s, f) * 1e3).toFixed(2)} / ${(meanDelayS(s, p) * 1e3).toFixed(2)} ms (${(dq * 100).toFixed(0)}%), goodput ${(dq === dq ? (f.summary.goodputBps / 1e6).toFixed(2) : '')} / ${(p.summary.goodputBps / 1e6).toFixed(2)} Mbit/s (${(dg * 100).toFixed(1)}%)`);
    if (ecn) {
      // The queue marks instead of dropping (the fluid's remaining losses are the first slow start's overflow).
      expect(p.summary.ecn!.marks).toBeGreaterThan(0);
      expect(f.summary.retransmits).toBeLessThan(0.01 * (f.summary.throughputBps * s.durationS) / (8 * s.mssBytes));
    }
    if (GAPS.has(name)) expect(Math.abs(dq) >= 0.2 || Math.abs(dg) >= 0.1).toBe(true);
    else {
      expect(Math.abs(dq)).toBeLessThan(0.2);
      expect(Math.abs(dg)).toBeLessThan(0.1);
    }
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
