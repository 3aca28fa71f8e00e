/**
 * BBR fluid models against the packet engine on issue 19's cases (models/README.md, "BBR"):
 *   npx tsx scripts/bbrAgreement.ts single|compete|compete3|bbr3 [--packet-only] [--seeds N] [--match NAME-PART]
 * single: one BBRv1 flow, 100 Mbit/s, 40 ms, drop-tail buffer 0.1/1/2 BDP, 30 s (from 10 s);
 * compete: BBR vs CUBIC, one flow each, buffers 0.5/1/2/4/8 BDP, 100 Mbit/s, 40 ms, 120 s (from 20 s);
 * compete3: the same with BBRv3 (issue 19's competition grid for the BBRv3 model);
 * bbr3: one BBRv3 flow on the validate grid's loss x RTT points.
 * Packet results are cached in $BBR_REF_DIR (default /tmp/bbr-ref) by scenario hash.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPacket } from '../src/packet/run.js';
import { runFluid } from '../src/fluid/run/runFluid.js';
import { dumbbellScenario } from '../src/scenario/defaults.js';
import { applyBufferBdp, applyRtt, applyLoss } from '../src/runs/scenarioAxes.js';
import { pointScenario, DEFAULT_GRID } from '../src/validate/grid.js';
import type { Scenario } from '../src/scenario/types.js';
import type { RunResult } from '../src/result/types.js';
import type { Variant } from '../src/variants.js';

const dir = process.env.BBR_REF_DIR ?? '/tmp/bbr-ref';
mkdirSync(dir, { recursive: true });
const args = process.argv.slice(2);
const mode = args[0] ?? 'single';
const packetOnly = args.includes('--packet-only');
const fluidOnly = args.includes('--fluid-only');
/** Only the cases whose packet runs are all cached (while another process fills the cache). */
const cachedOnly = args.includes('--cached-only');
const seedsArg = args.indexOf('--seeds');
const seeds = seedsArg >= 0 ? Number(args[seedsArg + 1]) : mode === 'single' ? 3 : 5;
/** Only the cases whose name contains this (e.g. `--match p=0.05`). */
const matchArg = args.indexOf('--match');
const match = matchArg >= 0 ? args[matchArg + 1]! : '';

type Slim = { goodputBps: number; meanCwndSegments: number; lossRate: number; meanQueue: number; queueDelayS?: number; flows: { goodputBps: number; meanCwndSegments: number }[]; wallS: number; status: string };
/**
 * Mean queue over the measurement: the packet engine's per-packet mean queueing delay x the link's
 * packet rate (Little; its queue trace keeps each bucket's min and max, whose mean is biased); the
 * fluid's queue on its uniform grid.
 */
function slim(r: RunResult, from: number): Slim {
  const q = r.queue?.packets;
  let qs = 0;
  let n = 0;
  if (q) for (let i = 0; i < q.t.length; i++) if (q.t[i]! >= from) { qs += q.v[i]!; n++; }
  const pps = r.spec.bottleneck.bandwidthBps / (8 * (r.spec.mssBytes + r.spec.headerBytes));
  const delay = r.queue?.delay?.meanS;
  return {
    ...(delay !== undefined ? { queueDelayS: delay } : {}),
    goodputBps: r.summary.goodputBps,
    meanCwndSegments: r.summary.meanCwndSegments,
    lossRate: r.summary.lossRate,
    meanQueue: delay !== undefined ? delay * pps : n ? qs / n : NaN,
    flows: r.flows.map((f) => ({ goodputBps: f.summary.goodputBps, meanCwndSegments: f.summary.meanCwndSegments })),
    wallS: r.stats.wallS,
    status: r.status,
  };
}
const cacheFile = (s: Scenario): string => join(dir, `${createHash('sha256').update(JSON.stringify(s)).digest('hex').slice(0, 16)}.json`);
function packet(s: Scenario): Slim {
  const f = cacheFile(s);
  if (existsSync(f)) return JSON.parse(readFileSync(f, 'utf8')) as Slim;
  const r = slim(runPacket(s), s.measureFromS);
  writeFileSync(f, JSON.stringify(r));
  return r;
}
const median = (xs: number[]): number => {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
};
function base(variant: Variant, rttS: number, bufBdp: number, durationS: number, fromS: number, flows = 1): Scenario {
  const s = dumbbellScenario(variant, flows);
  applyRtt(s, rttS);
  applyBufferBdp(s, bufBdp);
  s.durationS = durationS;
  s.measureFromS = fromS;
  s.trace.maxPoints = 4000;
  return s;
}
const pct = (a: number, b: number): string => `${(((a - b) / b) * 100).toFixed(1)}%`;
function cases(): { name: string; s: Scenario }[] {
  if (mode === 'single') return [0.1, 1, 2].map((k) => ({ name: `bbr 40ms buf ${k} BDP`, s: base('bbr', 0.04, k, 30, 10) }));
  if (mode === 'compete' || mode === 'compete3') {
    const v: Variant = mode === 'compete' ? 'bbr' : 'bbr3';
    return [0.5, 1, 2, 4, 8].map((k) => {
      const s = base(v, 0.04, k, 120, 20, 2);
      s.flows[1]!.variant = 'cubic';
      return { name: `${v} vs cubic buf ${k} BDP`, s };
    });
  }
  const out: { name: string; s: Scenario }[] = [];
  for (const rtt of DEFAULT_GRID.rttsS) for (const p of DEFAULT_GRID.losses) out.push({ name: `bbr3 p=${p} rtt=${rtt}`, s: pointScenario('bbr3', p, rtt, 100e6, 20) });
  return out;
}
for (const c of cases()) {
  if (!c.name.includes(match)) continue;
  if (cachedOnly && !Array.from({ length: seeds }, (_, k) => existsSync(cacheFile({ ...c.s, seed: 1 + k }))).every(Boolean)) continue;
  const runs: Slim[] = [];
  if (!fluidOnly) for (let k = 0; k < seeds; k++) runs.push(packet({ ...c.s, seed: 1 + k }));
  if (packetOnly) {
    console.log(`${c.name}: packet goodput ${runs.map((r) => (r.goodputBps / 1e6).toFixed(2)).join(' ')} Mbit/s`);
    continue;
  }
  const fl = slim(runFluid(c.s), c.s.measureFromS);
  const pm = (f: (r: Slim) => number): number => median(runs.map(f));
  const share = (r: Slim): number => r.flows[0]!.goodputBps / (r.flows[0]!.goodputBps + (r.flows[1]?.goodputBps ?? 0));
  console.log(
    [
      c.name.padEnd(24),
      `goodput fluid ${(fl.goodputBps / 1e6).toFixed(2)} packet ${(pm((r) => r.goodputBps) / 1e6).toFixed(2)} (${pct(fl.goodputBps, pm((r) => r.goodputBps))})`,
      `cwnd ${fl.meanCwndSegments.toFixed(1)} / ${pm((r) => r.meanCwndSegments).toFixed(1)} (${pct(fl.meanCwndSegments, pm((r) => r.meanCwndSegments))})`,
      `queue ${fl.meanQueue.toFixed(1)} / ${pm((r) => r.meanQueue).toFixed(1)} (${pct(fl.meanQueue, pm((r) => r.meanQueue))})`,
      `loss ${fl.lossRate.toExponential(2)} / ${pm((r) => r.lossRate).toExponential(2)}`,
      mode.startsWith('compete') ? `bbr share ${(share(fl) * 100).toFixed(1)} / ${(pm(share) * 100).toFixed(1)}` : '',
      `fluid ${fl.wallS.toFixed(2)} s ${fl.status}`,
    ].join(' | '),
  );
}
