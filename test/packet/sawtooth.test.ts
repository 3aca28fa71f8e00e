import { describe, expect, it } from 'vitest';
import { secondsToNs } from '../../src/engine/simulator.js';
import { buildPacketModel, type PacketModel } from '../../src/packet/run.js';
import { checkFlowAccounting } from '../../src/packet/invariants.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { Scenario } from '../../src/scenario/types.js';
import type { Variant } from '../../src/variants.js';

/**
 * The textbook case (issue 8): one Reno flow through a drop-tail bottleneck, no random loss. Theory:
 * cwnd climbs one segment per RTT until the pipe and the queue are full (W = BDP + B + 1 segments
 * in flight overflows the queue), one window cut per overflow to half the peak, utilisation
 * ~ 1 - (1 - B/(BDP+B))^2 / ... well above 90% with B ~ BDP/3.
 */
const MSS = 1460;
const HDR = 54;
const RATE_BPS = 100e6;
const QUEUE = 83;

function textbook(variant: Variant, sack: boolean, delAckCount: number, bottleneckBps = RATE_BPS, durationS = 32, accessBps = 1e9, queue = QUEUE): Scenario {
  const s = dumbbellScenario(variant);
  s.name = 'textbook';
  s.durationS = durationS;
  s.measureFromS = 10;
  s.mssBytes = MSS;
  s.headerBytes = HDR;
  s.bottleneck.bandwidthBps = bottleneckBps;
  s.bottleneck.delayS = 0.01;
  s.bottleneck.queue = { kind: 'droptail', limitPackets: queue };
  s.flows[0]!.access = { bandwidthBps: accessBps, delayS: 0.005631, queuePackets: 100_000 };
  s.flows[0]!.receiverAccess = null;
  s.tcp.delAckCount = delAckCount;
  s.tcp.sack = sack;
  s.trace.maxPoints = 1_000_000;
  return s;
}

/** Base RTT: propagation both ways plus the data segment's and the ACK's serialisation on each link. */
function baseRttS(s: Scenario): number {
  const f = s.flows[0]!;
  const prop = 2 * (f.access.delayS + s.bottleneck.delayS);
  const ser = (bytes: number): number => (bytes * 8) / f.access.bandwidthBps + (bytes * 8) / s.bottleneck.bandwidthBps;
  return prop + ser(MSS + HDR) + ser(HDR);
}

interface Episode {
  firstDropS: number;
  lastDropS: number;
  drops: number;
}

interface Observed {
  model: PacketModel;
  /** Times (s) at which the sender cut its window (fast recovery or timeout). */
  cuts: number[];
  timeouts: number[];
  /** Queue-overflow episodes: drops closer than one RTT belong to the same one. */
  episodes: Episode[];
  cwndSegments: { t: number[]; v: number[] };
}

function run(s: Scenario): Observed {
  const m = buildPacketModel(s);
  const rtt = baseRttS(s);
  const episodes: Episode[] = [];
  m.net.onQueueDrop = () => {
    const t = m.sim.nowNs / 1e9;
    const last = episodes.at(-1);
    if (last && t - last.lastDropS < rtt) {
      last.lastDropS = t;
      last.drops++;
    } else episodes.push({ firstDropS: t, lastDropS: t, drops: 1 });
  };
  const cuts: number[] = [];
  const timeouts: number[] = [];
  const sender = m.senders[0]!;
  let seen = 0;
  let seenTimeouts = 0;
  // Step in 1 ms: a cut is seen within a millisecond, far below the ~40 ms RTT.
  for (let tNs = 0; tNs < secondsToNs(s.durationS); ) {
    tNs += 1_000_000;
    m.sim.run(tNs);
    const n = sender.fastRecoveries + sender.timeouts;
    for (; seen < n; seen++) cuts.push(tNs / 1e9);
    for (; seenTimeouts < sender.timeouts; seenTimeouts++) timeouts.push(tNs / 1e9);
  }
  checkFlowAccounting(m.senders, m.receivers, m.net);
  const trace = m.stats[0]!.trace().cwndBytes;
  return { model: m, cuts, timeouts, episodes, cwndSegments: { t: trace.t, v: trace.v.map((b) => b / MSS) } };
}

function maxBetween(series: { t: number[]; v: number[] }, from: number, to: number): number {
  let m = -Infinity;
  for (let i = 0; i < series.t.length; i++) if (series.t[i]! >= from && series.t[i]! < to && series.v[i]! > m) m = series.v[i]!;
  return m;
}

function minBetween(series: { t: number[]; v: number[] }, from: number, to: number): number {
  let m = Infinity;
  for (let i = 0; i < series.t.length; i++) if (series.t[i]! >= from && series.t[i]! < to && series.v[i]! < m) m = series.v[i]!;
  return m;
}

describe('textbook Reno sawtooth on a drop-tail bottleneck (100 Mbit/s, RTT 31.4 ms, B = 83)', () => {
  const cases = [
    { sack: true, delAck: 1 },
    { sack: true, delAck: 2 },
    { sack: false, delAck: 1 },
    { sack: false, delAck: 2 },
  ];
  it.each(cases)('SACK $sack, delayed ACK every $delAck: peaks at BDP + B + 1, troughs at half, one cut per overflow, >= 90% utilisation', ({ sack, delAck }) => {
    const s = textbook('reno', sack, delAck);
    const rtt = baseRttS(s);
    const bdp = (RATE_BPS * rtt) / 8 / (MSS + HDR);
    expect(bdp).toBeCloseTo(259.3, 0);
    const peakTheory = bdp + QUEUE + 1;
    const o = run(s);
    const fromS = 10;
    const toS = 32;
    // Utilisation of the payload rate over [10 s, 32 s).
    const r = o.model.receivers[0]!;
    const deliveredBytes = r.deliveredBytes - o.model.atMeasureStart[0]!.deliveredBytes;
    const payloadRate = (RATE_BPS * MSS) / (MSS + HDR);
    expect((deliveredBytes * 8) / (toS - fromS) / payloadRate).toBeGreaterThanOrEqual(0.9);
    // Every overflow episode in the window is answered by exactly one cut, within two RTTs of its
    // first drop, and every cut answers an episode.
    const episodes = o.episodes.filter((e) => e.firstDropS >= fromS && e.firstDropS < toS - 2 * rtt);
    const cuts = o.cuts.filter((t) => t >= fromS && t < toS);
    expect(episodes.length).toBeGreaterThanOrEqual(1);
    for (const e of episodes) {
      const answering = cuts.filter((t) => t >= e.firstDropS && t < e.lastDropS + 2 * rtt);
      expect(answering.length).toBe(1);
    }
    for (const t of cuts) expect(o.episodes.some((e) => t >= e.firstDropS && t < e.lastDropS + 2 * rtt)).toBe(true);
    // No timeout in the steady state (without SACK, the first slow start's burst of ~150 drops may need some).
    expect(o.timeouts.filter((t) => t >= fromS)).toEqual([]);
    if (sack) expect(o.timeouts).toEqual([]);
    // Peaks and troughs around each cut inside the window.
    let prev = fromS;
    for (const t of cuts) {
      const peak = maxBetween(o.cwndSegments, prev, t + 0.001);
      expect(Math.abs(peak / peakTheory - 1)).toBeLessThanOrEqual(0.03);
      const trough = minBetween(o.cwndSegments, t, t + 4 * rtt);
      expect(Math.abs(trough / peak - 0.5)).toBeLessThanOrEqual(0.05 * 0.5);
      prev = t + 4 * rtt;
    }
  });

  it('a slow-start overshoot with hundreds of drops at one overflow is repaired by SACK without a timeout', () => {
    // 1 Gbit/s bottleneck fed by a 10 Gbit/s access link, queue 400: slow start's line-rate
    // bursts overflow the queue with ~240 drops in one episode (and ~260 more in a second).
    const s = textbook('reno', true, 1, 1e9, 3, 10e9, 400);
    s.measureFromS = 0;
    const o = run(s);
    const first = o.episodes[0]!;
    const burst = first.drops;
    expect(burst).toBeGreaterThan(200);
    expect(first.lastDropS - first.firstDropS).toBeLessThan(2 * baseRttS(s));
    expect(o.model.senders[0]!.timeouts).toBe(0);
    expect(o.cuts.filter((t) => t < first.lastDropS + 2 * baseRttS(s))).toHaveLength(1);
    // Every dropped segment was resent exactly once; none the receiver held went out again.
    expect(o.model.senders[0]!.retransmits).toBe(o.model.net.counters[0]!.queueDropSegments);
  });
});
