/**
 * What the sender and receiver do per ACK on bench/bbr.ts's many-flow dumbbell: calls of the per-ACK
 * functions counted by wrapping their prototypes (tsx sources, not timed: the counts, not the speed),
 * divided by the ACKs the senders took, with a histogram where one says more (SACK blocks per ACK,
 * ranges held when a range set is searched, whether a SACK block was new).
 *
 * `node --import tsx bench/experiments/bbr-ack-work.ts [variant] [flows] [seconds]`
 *
 * Issue 24, sixteenth session, 3 s. BBR at 100 flows: 241 k ACKs for 317 k departures (66 k of them
 * retransmissions); 93% of ACKs carry 3 SACK blocks and only 6.5% move SND.UNA (the rest are
 * duplicate ACKs in recovery: each queue overflow leaves holes for rounds); per ACK 2.9 SACK blocks
 * (1 in 3 new), 9.8 range-set searches with 20+ ranges held in 37% of them, 15.8 reads of pipe,
 * 3.5 NextSeg searches, 3.4 pacing checks, 1.25 pacing events. CUBIC at 100 flows: 140 k ACKs for
 * 255 k departures, 77% carry no SACK block and 79% move SND.UNA; 3.8 searches per ACK (60% on an
 * empty set), 6 pipe reads. With 10 BBR flows the per-ACK work is the same or more (87% of ACKs with
 * 3 blocks, 2.6 blocks, 8.6 searches with 20+ ranges held in 70%, 3.2 NextSeg searches). Run at the
 * same time (same load, --single-threaded, 10 s): BBR 400 / 408 ns per event at 10 flows, 514 / 515
 * at 100; CUBIC 230 at 10, 318 at 100. Memory makes every event dearer with more flows (perf
 * annotate: the samples of onData, sack and the sampler's delivered sit on the first load of each
 * per-flow object or array), CUBIC's as much as BBR's: BBR's ratio to CUBIC (0.57x at 10 flows,
 * 0.62x at 100) is its work per event, this file's counts.
 */
import { Bbr } from '../../src/cc/bbr.js';
import { buildPacketModel } from '../../src/packet/run.js';
import { RangeSet } from '../../src/tcp/ranges.js';
import { RateSampler } from '../../src/tcp/rate-sampler.js';
import { TcpReceiver } from '../../src/tcp/receiver.js';
import { Scoreboard } from '../../src/tcp/scoreboard.js';
import { TcpSender } from '../../src/tcp/sender.js';
import type { Variant } from '../../src/variants.js';
import { manyFlowsScenario } from '../flows.js';

const variant = (process.argv[2] ?? 'bbr') as Variant;
const flows = Number(process.argv[3] ?? 100);
const durationS = Number(process.argv[4] ?? 3);

const counts = new Map<string, number>();
const histograms = new Map<string, Map<number, number>>();

/** Counts calls of `name` (a method or getter found on cls's prototype chain); `bucket` files each call in a histogram. */
function count(cls: { prototype: object }, name: string, label: string, bucket?: (self: never, args: unknown[], result: unknown) => number): void {
  let owner: object | null = cls.prototype;
  let d: PropertyDescriptor | undefined;
  while (owner !== null && (d = Object.getOwnPropertyDescriptor(owner, name)) === undefined) owner = Object.getPrototypeOf(owner) as object | null;
  if (d === undefined) throw new Error(`${label}: no ${name}`);
  const bump = (self: never, args: unknown[], result: unknown): void => {
    counts.set(label, (counts.get(label) ?? 0) + 1);
    if (bucket === undefined) return;
    const k = bucket(self, args, result);
    const h = histograms.get(label) ?? new Map<number, number>();
    h.set(k, (h.get(k) ?? 0) + 1);
    histograms.set(label, h);
  };
  if (d.get !== undefined) {
    const get = d.get;
    Object.defineProperty(cls.prototype, name, {
      get(this: never) {
        const r = get.call(this);
        bump(this, [], r);
        return r;
      },
    });
    return;
  }
  const f = d.value as (...a: unknown[]) => unknown;
  (cls.prototype as Record<string, unknown>)[name] = function (this: never, ...a: unknown[]) {
    const r = f.apply(this, a);
    bump(this, a, r);
    return r;
  };
}

count(TcpSender, 'onAck', 'sender.onAck (SACK blocks)', (_s, a) => Math.min(Number(a[3] ?? 0), 9));
count(TcpSender, 'onPaceEvent', 'sender.onPaceEvent');
count(TcpSender, 'sendPending', 'sender.sendPending');
count(TcpSender, 'paced', 'sender.paced (held)', (_s, _a, r) => Number(r));
count(Scoreboard, 'pipeBytes', 'sb.pipeBytes');
count(Scoreboard, 'sack', 'sb.sack (new)', (_s, _a, r) => (Number(r) > 0 ? 1 : 0));
count(Scoreboard, 'ackTo', 'sb.ackTo');
count(Scoreboard, 'markLost', 'sb.markLost (moved)', (_s, _a, r) => Number(r));
count(Scoreboard, 'nextLost', 'sb.nextLost (found)', (_s, _a, r) => (Number(r) >= 0 ? 1 : 0));
count(Scoreboard, 'sentNew', 'sb.sentNew');
count(Scoreboard, 'retransmitted', 'sb.retransmitted');
count(RangeSet, 'indexOf', 'RangeSet.indexOf (ranges held, 20 = 20+)', (s: RangeSet) => Math.min(s.count, 20));
count(RangeSet, 'add', 'RangeSet.add');
count(TcpReceiver, 'onData', 'receiver.onData');
count(RateSampler, 'delivered', 'rate.delivered');
count(Bbr, 'congControl', 'bbr.congControl');

const s = manyFlowsScenario(flows, durationS);
s.variant = variant;
const m = buildPacketModel(s, { record: 'summary' });
m.sim.run(durationS * 1e9);
const acks = counts.get('sender.onAck (SACK blocks)') ?? 0;
console.log(`${variant}, ${flows} flows, ${durationS} s: ${m.sim.events} events, ${acks} ACKs at the senders; calls per ACK:`);
for (const [k, v] of counts) {
  const h = histograms.get(k);
  const hist = h === undefined ? '' : ' ' + [...h].sort((a, b) => a[0] - b[0]).map(([b, c]) => `${b}:${((100 * c) / v).toFixed(0)}%`).join(' ');
  console.log(`  ${k.padEnd(42)} ${(v / acks).toFixed(3).padStart(7)}${hist}`);
}
