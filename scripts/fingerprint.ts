/**
 * Byte-identity check for structural work: runs a fixed set of scenarios through both engines and the
 * closed forms and prints one sha256 per run (wall-clock fields removed). Two trees that print the same
 * lines produce the same RunResults on this set.
 *
 *   npx tsx scripts/fingerprint.ts > /tmp/before.txt   # on the old tree
 *   npx tsx scripts/fingerprint.ts > /tmp/after.txt    # on the new tree
 *   diff /tmp/before.txt /tmp/after.txt                # empty: byte-identical
 *
 * `--quick` runs the packet half only.
 */
import { createHash } from 'node:crypto';
import { presetScenario, dumbbellScenario, runPacket, runFluid, closedForms, VARIANTS } from '../src/index.js';
import type { Scenario } from '../src/index.js';

const quick = process.argv.includes('--quick');

/** JSON with wall-clock figures removed (the only fields allowed to differ between runs). */
function canonical(x: unknown): string {
  return JSON.stringify(x, (key, value) => (key === 'wallS' || key === 'wallClockS' ? undefined : value));
}
function sha(x: unknown): string {
  return createHash('sha256').update(canonical(x)).digest('hex').slice(0, 16);
}

function cases(): Array<[string, Scenario]> {
  const out: Array<[string, Scenario]> = [];
  // The variants list may grow (bbr, dctcp...): only the loss-based seed variants are fingerprinted here.
  const seedVariants = VARIANTS.filter((v) => ['tahoe', 'reno', 'newreno', 'westwood', 'cubic'].includes(v));
  // ns-3's example setup, which the presets were until issue 22 renamed them ns3-*: a scenario's name
  // is part of its RunResult, so the old name is kept and the baseline stays byte-identical.
  const ns3 = (line: 'normal' | 'lfn' | 'lossy', v: (typeof VARIANTS)[number], opts: Parameters<typeof presetScenario>[2]): Scenario => ({
    ...presetScenario(`ns3-${line}`, v, opts),
    name: line,
  });
  for (const preset of ['normal', 'lfn', 'lossy'] as const) {
    for (const v of seedVariants) {
      out.push([`${preset}/${v}/sack`, ns3(preset, v, { durationS: 8, seed: 3 })]);
      const noSack = ns3(preset, v, { durationS: 8, seed: 3 });
      noSack.tcp.sack = false;
      out.push([`${preset}/${v}/nosack`, noSack]);
    }
  }
  const prr = ns3('lossy', 'cubic', { durationS: 8, seed: 5 });
  prr.tcp.recovery = 'prr';
  out.push(['lossy/cubic/prr', prr]);
  const multi = ns3('lfn', 'cubic', { durationS: 6, seed: 2, flows: 4 });
  multi.flows[1].variant = 'reno';
  multi.flows[2].variant = 'westwood';
  out.push(['lfn/mixed4', multi]);
  const red = dumbbellScenario('newreno', 2);
  red.durationS = 6;
  red.bottleneck.queue = { kind: 'red', limitPackets: 400, minThPackets: 50, maxThPackets: 150, maxP: 0.1, weight: 0.002, gentle: true };
  red.bottleneck.loss = { rate: 1e-4, direction: 'data' };
  out.push(['dumbbell/red/newreno', red]);
  const db = dumbbellScenario('cubic', 3);
  db.durationS = 5;
  out.push(['dumbbell/cubic3', db]);
  const many = ns3('normal', 'reno', { durationS: 4, seed: 9, flows: 30, startStaggerS: 0.01 });
  out.push(['normal/reno30', many]);
  // BBR and BBRv3 (paced, rate-sampled) with many flows, packet engine only (> 4 flows): the dumbbell
  // with flows 1 ms apart as bench/bbr.ts's 100-flow case, and ns3-lossy with and without SACK (the
  // duplicate-ACK delivery credit) and a random loss rate that keeps recoveries going.
  for (const v of ['bbr', 'bbr3'] as const) {
    const d = dumbbellScenario(v, 40);
    d.durationS = 3;
    d.flows.forEach((f, i) => (f.startS = i * 1e-3));
    out.push([`dumbbell/${v}/40flows`, d]);
    for (const sack of [true, false]) {
      const l = ns3('lossy', v, { durationS: 6, seed: 4, flows: 6, startStaggerS: 0.05 });
      l.tcp.sack = sack;
      out.push([`lossy/${v}/6flows/${sack ? 'sack' : 'nosack'}`, l]);
    }
  }
  return out;
}

for (const [name, s] of cases()) {
  console.log(`packet ${name} ${sha(runPacket(s))}`);
}
if (!quick) {
  for (const [name, s] of cases()) {
    if (s.flows.length > 4) continue;
    try {
      console.log(`fluid ${name} ${sha(runFluid(s))}`);
    } catch (e) {
      console.log(`fluid ${name} error ${(e as Error).message.split('\n')[0]}`);
    }
    console.log(`closed ${name} ${sha(closedForms(s))}`);
  }
}
