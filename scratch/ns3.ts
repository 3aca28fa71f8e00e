import { readFileSync } from 'node:fs';
import { presetScenario, type PresetName } from '../src/scenario/presets.js';
import { runPacket } from '../src/packet/run.js';
import type { Variant } from '../src/variants.js';

const sack = (process.argv[2] ?? 'on') === 'on';
const durationS = Number(process.argv[3] ?? 100);
const seeds = Number(process.argv[4] ?? 10);
const presets = (process.argv[5] ?? 'normal,lfn,lossy').split(',') as PresetName[];
const variants = (process.argv[6] ?? 'newreno,reno,westwood,cubic').split(',') as Variant[];
const recovery = (process.argv[7] ?? 'classic') as 'classic' | 'prr';
const NS3: Record<string, string> = { newreno: 'TcpNewReno', reno: 'TcpLinuxReno', westwood: 'TcpWestwoodPlus', cubic: 'TcpCubic' };
const file = durationS >= 500 ? 'test/ref/ns3/goodput-500s-summary.csv' : 'test/ref/ns3/goodput-summary.csv';
const rows = readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split(','));
const head = rows[0]!;
const ref = (p: string, v: string) => rows.find((r) => r[0] === p && r[1] === NS3[v] && r[2] === String(sack));
const med = (xs: number[]) => { const a = [...xs].sort((x, y) => x - y); const n = a.length; return n % 2 ? a[(n - 1) / 2]! : (a[n / 2 - 1]! + a[n / 2]!) / 2; };
for (const p of presets) for (const v of variants) {
  const g: number[] = []; const rx: number[] = []; const to: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const s = presetScenario(p, v, { durationS, seed });
    s.tcp.sack = sack; s.tcp.recovery = recovery;
    const r = runPacket(s);
    g.push(r.summary.goodputBps); rx.push(r.summary.retransmits); to.push(r.summary.timeouts);
  }
  const row = ref(p, v);
  const ns3 = row ? Number(row[head.indexOf('median_bps')]) : NaN;
  const ns3rx = row && head.includes('median_retx') ? Number(row[head.indexOf('median_retx')]) : NaN;
  console.log(`${p}/${v} sack=${sack} ${durationS}s: cclab ${(med(g) / 1e6).toFixed(4)} Mbps, ns-3 ${(ns3 / 1e6).toFixed(4)}, err ${((med(g) / ns3 - 1) * 100).toFixed(1)}%  retx ${med(rx)} (ns-3 ${ns3rx}) timeouts ${med(to)}`);
}
