/**
 * Westwood+'s low mode under the ns3 profile (issue 21, README known gap 5), measured on the packet
 * engine: every cut (ssthresh = max(BWE x RTTmin, 2 MSS)) with the window, the estimate and RTTmin
 * behind it, and each run's escape time (the first cut above --escape segments).
 *   npx tsx scripts/westwoodLowMode.ts lossy|ns3-lossy|lfn|ns3-lfn [--seeds 1-30] [--profile ns3|none] [--escape 8] [--cuts] [--duration 100] [--access-delay S] [--bottleneck-delay S] [--loss P] [--tcp k=v,...]
 */
import { reportSeed } from '../src/report/replicates.js';
import { buildPacketModel } from '../src/packet/run.js';
import { secondsToNs } from '../src/engine/simulator.js';
import type { WestwoodPlus } from '../src/cc/westwood.js';
import { hasFlag, numberArg, stringArg } from './scriptArgs.js';
import { applyLineFlags, seedStudy, seedStudyLine } from './seedStudyLine.js';

const base = seedStudyLine(process.argv[2] ?? 'lossy', 'westwood', 'westwoodLowMode.ts');
const [from, to] = (stringArg('seeds') ?? '1-10').split('-').map(Number) as [number, number];
const escapeSeg = numberArg('escape', 8);
const showCuts = hasFlag('cuts');
const durationS = numberArg('duration', base.durationS);

for (let rep = from - 1; rep < to; rep++) {
  const s = structuredClone(base);
  s.durationS = durationS;
  s.seed = reportSeed(seedStudy.seed, s.name, rep);
  // One choice changed at a time, to see what moves the escape rate.
  applyLineFlags(s);
  for (const kv of (stringArg('tcp') ?? '').split(',').filter(Boolean)) {
    const [k, v] = kv.split('=') as [string, string];
    (s.tcp as unknown as Record<string, unknown>)[k] = v === 'true' ? true : v === 'false' ? false : Number.isFinite(Number(v)) ? Number(v) : v;
  }
  const m = buildPacketModel(s, { record: 'summary' });
  const snd = m.senders[0]!;
  const cc = snd.cc as WestwoodPlus;
  const mss = s.mssBytes;
  const cuts: string[] = [];
  let escapeS = NaN;
  const ssthresh = cc.ssthresh.bind(cc);
  cc.ssthresh = (tcb, kind, nowS) => {
    const v = ssthresh(tcb, kind, nowS);
    const rttMin = (cc as unknown as { minSrttS: number }).minSrttS;
    if (showCuts) cuts.push(`  ${nowS.toFixed(3)} ${kind.padEnd(8)} cwnd ${(tcb.cwndBytes / mss).toFixed(2)} bwe ${(cc.bweBytesPerS / mss).toFixed(2)} seg/s rttMin ${(rttMin * 1e3).toFixed(2)} srtt ${(tcb.srttS * 1e3).toFixed(2)} -> ${(v / mss).toFixed(2)}`);
    if (Number.isNaN(escapeS) && v / mss >= escapeSeg) escapeS = nowS;
    return v;
  };
  m.sim.run(secondsToNs(s.durationS));
  const rcv = m.receivers[0]!;
  console.log(`${s.name} rep ${rep + 1} seed ${s.seed}: goodput ${((rcv.deliveredBytes * 8) / s.durationS / 1e6).toFixed(3)} Mbit/s, timeouts ${snd.timeouts}, recoveries ${snd.fastRecoveries}, escape ${Number.isNaN(escapeS) ? 'none' : escapeS.toFixed(2) + ' s'}`);
  if (showCuts) console.log(cuts.join('\n'));
}
