/**
 * Time course of one cclab run beside ns-3's run 0 of the same cell (reference/ns3/traces/, SACK on,
 * 100 s): goodput per interval, cwnd, ssthresh and the cumulative retransmissions, recoveries and
 * RTOs, so that a disagreement in the 100 s figure can be placed in time (first slow start, a slow
 * climb, the steady state).
 *
 *   npx tsx scripts/ns3-course.ts lossy westwood [--seed 1] [--profile ns3|linux|rfc|none] [--every 5]
 *
 * The cell's line is the ns-3 example's literal setup (`lossy` runs the `ns3-lossy` preset).
 *
 * ns-3's samples are every 0.1 s: t, bytes delivered to the application, cwnd, ssthresh, retransmissions,
 * entries into recovery, entries into loss (RTOs). cclab is sampled the same way from its packet model.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { buildPacketModel } from '../src/packet/run.js';
import { secondsToNs } from '../src/engine/simulator.js';
import { isPresetName, presetScenario } from '../src/scenario/presets.js';
import { presetProfile } from './scriptArgs.js';

const NS3: Record<string, string> = { newreno: 'TcpNewReno', reno: 'TcpLinuxReno', westwood: 'TcpWestwoodPlus', cubic: 'TcpCubic' };
const DURATION_S = 100;

interface Sample {
  t: number;
  rxBytes: number;
  cwnd: number;
  ssthresh: number;
  retx: number;
  recoveries: number;
  rtos: number;
}

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}

function ns3Samples(preset: string, variant: string): Sample[] {
  const file = fileURLToPath(new URL(`../reference/ns3/traces/${preset}_${NS3[variant]}/samples_100ms.data.gz`, import.meta.url));
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => {
      const [t, rx, cwnd, ss, retx, rec, rto] = l.trim().split(/\s+/).map(Number);
      return { t: t!, rxBytes: rx!, cwnd: cwnd!, ssthresh: ss!, retx: retx!, recoveries: rec!, rtos: rto! };
    });
}

function cclabSamples(preset: string, variant: string, seed: number, profile: string): Sample[] {
  // ns-3's runs are the example's literal setup: the ns3-* presets.
  const name = `ns3-${preset}`;
  if (!isPresetName(name)) throw new Error(`unknown preset ${name}`);
  const s = presetScenario(name, variant as 'reno', { durationS: DURATION_S, seed, profile: presetProfile(profile) });
  const m = buildPacketModel(s);
  const snd = m.senders[0]!;
  const rcv = m.receivers[0]!;
  const out: Sample[] = [];
  for (let k = 0; k <= DURATION_S * 10; k++) {
    const t = k / 10;
    m.sim.run(secondsToNs(t));
    const ss = snd.tcb.ssthreshBytes;
    out.push({ t, rxBytes: rcv.deliveredBytes, cwnd: snd.tcb.cwndBytes, ssthresh: Number.isFinite(ss) ? ss : 4294967295, retx: snd.retransmits, recoveries: snd.fastRecoveries, rtos: snd.timeouts });
  }
  return out;
}

/** Sample at time t (the last one at or before it). */
function at(samples: Sample[], t: number): Sample {
  let best = samples[0]!;
  for (const x of samples) if (x.t <= t + 1e-9) best = x;
  return best;
}

const kbps = (bytes: number, s: number): string => ((bytes * 8) / s / 1e3).toFixed(1);

const [preset0, variant] = process.argv.slice(2);
const preset = preset0?.replace(/^ns3-/, '');
if (!preset || !variant || !NS3[variant]) {
  console.error('usage: npx tsx scripts/ns3-course.ts <normal|lfn|lossy> <newreno|reno|westwood|cubic> [--seed n] [--profile ns3|linux|rfc|none] [--every s]');
  process.exit(2);
}
const seed = Number(flag('seed', '1'));
const profile = flag('profile', 'ns3');
const every = Number(flag('every', '5'));
const ns3 = ns3Samples(preset, variant);
const cc = cclabSamples(preset, variant, seed, profile);

console.log(`${preset}/${variant}: ns-3 run 0 vs cclab seed ${seed} (profile ${profile}); goodput per ${every} s interval, kbit/s`);
console.log('    t | goodput ns-3  cclab |  cwnd B ns-3  cclab | ssthresh ns-3  cclab | retx ns-3 cclab | recov ns-3 cclab | RTO ns-3 cclab');
for (let t = every; t <= DURATION_S + 1e-9; t += every) {
  const [a0, a1, b0, b1] = [at(ns3, t - every), at(ns3, t), at(cc, t - every), at(cc, t)];
  const ss = (x: number): string => (x >= 4294967295 ? 'inf' : String(x));
  console.log(
    `${t.toFixed(0).padStart(5)} | ${kbps(a1.rxBytes - a0.rxBytes, every).padStart(12)} ${kbps(b1.rxBytes - b0.rxBytes, every).padStart(6)} | ` +
      `${String(a1.cwnd).padStart(11)} ${String(b1.cwnd).padStart(6)} | ${ss(a1.ssthresh).padStart(13)} ${ss(b1.ssthresh).padStart(6)} | ` +
      `${String(a1.retx).padStart(9)} ${String(b1.retx).padStart(5)} | ${String(a1.recoveries).padStart(10)} ${String(b1.recoveries).padStart(5)} | ${String(a1.rtos).padStart(8)} ${String(b1.rtos).padStart(5)}`,
  );
}
const end = (x: Sample[]): Sample => at(x, DURATION_S);
const steadyFrom = 40;
console.log(
  `whole run: ns-3 ${kbps(end(ns3).rxBytes, DURATION_S)} kbit/s, cclab ${kbps(end(cc).rxBytes, DURATION_S)}; ` +
    `from ${steadyFrom} s: ns-3 ${kbps(end(ns3).rxBytes - at(ns3, steadyFrom).rxBytes, DURATION_S - steadyFrom)}, cclab ${kbps(end(cc).rxBytes - at(cc, steadyFrom).rxBytes, DURATION_S - steadyFrom)}`,
);
