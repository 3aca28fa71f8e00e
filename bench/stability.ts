/**
 * Linear stability against the packet engine (issue 10): Hollot, Misra, Towsley and Gong's RED
 * example (src/theory/stabilityExample.ts) at its design point, at two points their analysis
 * calls unstable (fewer flows, a longer RTT) and with a drop-tail buffer instead of RED: the loop's verdict and phase margin from the model
 * files beside the packet engine's queue over the second half of a 600 s run (the RED average's
 * time constant 1/K is 200 s), with the report's oscillation rule (5th-95th percentile swing above
 * 25% of the 1000-packet buffer). Too long for the report (about 10-20 s of CPU per point).
 * Standalone: `node --import tsx bench/stability.ts`.
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { runPacket } from '../src/packet/run.js';
import { OSCILLATION_SHARE, queueSwing } from '../src/report/stability.js';
import { scenarioStability } from '../src/theory/stability.js';
import { hmtgScenario, MGT_RENO } from '../src/theory/stabilityExample.js';

const POINTS: { N: number; TpS: number; queue: 'red' | 'droptail' }[] = [
  { N: 60, TpS: 0.2, queue: 'red' },
  { N: 5, TpS: 0.2, queue: 'red' },
  { N: 60, TpS: 0.8, queue: 'red' },
  { N: 60, TpS: 0.2, queue: 'droptail' },
];
const DURATION_S = 600;

export async function benchStability(): Promise<void> {
  console.log(`Hollot et al.'s RED example, ${DURATION_S} s packet runs (load average ${loadavg()[0]!.toFixed(1)})`);
  console.log('queue     N    Tp     linear loop       PM (deg)  packet queue (2nd half)                         wall');
  for (const { N, TpS, queue } of POINTS) {
    const a = scenarioStability(hmtgScenario(N, TpS, undefined, queue), { params: MGT_RENO });
    const s = hmtgScenario(N, TpS, DURATION_S, queue);
    const t0 = performance.now();
    const r = runPacket(s);
    const wallS = (performance.now() - t0) / 1000;
    const q = r.queue.packets;
    const tail = q.v.filter((_, i) => q.t[i]! >= DURATION_S / 2);
    const swing = queueSwing(q, s.bottleneck.queue.limitPackets);
    const seen = swing === null ? 'n/a' : `${swing >= OSCILLATION_SHARE ? 'oscillates' : 'steady'}, swing ${(100 * swing).toFixed(1)}%, range ${Math.min(...tail)}-${Math.max(...tail)}`;
    console.log(`${queue.padEnd(9)} ${String(N).padEnd(4)} ${TpS.toFixed(1).padEnd(6)} ${(a.stable ? 'stable' : 'unstable').padEnd(17)} ${a.phaseMarginDeg.toFixed(1).padStart(8)}  ${seen.padEnd(47)} ${wallS.toFixed(1)} s`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchStability();
