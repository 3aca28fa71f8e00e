import { dumbbellScenario } from '../src/scenario/defaults.js';
import { buildPacketModel } from '../src/packet/run.js';
import { buildResult } from '../src/packet/result.js';
import { checkFlowAccounting } from '../src/packet/invariants.js';
import { secondsToNs } from '../src/engine/simulator.js';
import type { Variant } from '../src/variants.js';

const variant = (process.argv[2] ?? 'reno') as Variant;
const sack = (process.argv[3] ?? 'on') === 'on';
const delack = Number(process.argv[4] ?? 1);
const recovery = (process.argv[5] ?? 'classic') as 'classic' | 'prr';
const s = dumbbellScenario(variant);
s.durationS = 32;
s.mssBytes = 1460; s.headerBytes = 54;
s.bottleneck.bandwidthBps = 100e6; s.bottleneck.delayS = 0.01;
s.bottleneck.queue = { kind: 'droptail', limitPackets: 83 };
s.flows[0]!.access = { bandwidthBps: 1e9, delayS: 0.005631, queuePackets: 100000 };
s.flows[0]!.receiverAccess = null;
s.tcp.delAckCount = delack; s.tcp.sack = sack; s.tcp.recovery = recovery;
s.measureFromS = 10;
s.trace.maxPoints = 1_000_000;
const m = buildPacketModel(s);
const t0 = performance.now();
m.sim.run(secondsToNs(s.durationS));
checkFlowAccounting(m.senders, m.receivers, m.net);
const r = buildResult(s, m, (performance.now() - t0) / 1000);
const snd = m.senders[0]!;
const c = m.net.counters[0]!;
const cw = r.flows[0]!.trace.cwndBytes;
const pts = cw.t.map((t, i) => [t, cw.v[i]! / 1460] as const).filter(([t]) => t >= 10);
let max = 0; for (const p of pts) if (p[1] > max) max = p[1];
// troughs: local minima after cuts
let troughs: number[] = []; let peaks: number[] = [];
for (let i = 1; i < pts.length; i++) { if (pts[i]![1] < pts[i-1]![1] * 0.8) { troughs.push(pts[i]![1]); peaks.push(pts[i-1]![1]); } }
console.log(JSON.stringify({ variant, sack, delack, recovery, goodputMbps: r.summary.goodputBps / 1e6, util: r.summary.goodputBps / (100e6 * 1460 / 1514), meanCwnd: r.summary.meanCwndSegments,
  fr: snd.fastRecoveries, to: snd.timeouts, retx: snd.retransmits, qdrops: c.queueDropSegments, max, peaks: peaks.slice(0, 8).map(Math.round), troughs: troughs.slice(0, 8).map(Math.round), events: m.sim.events, wallS: r.stats.wallS }));
