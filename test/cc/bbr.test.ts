import { describe, expect, it } from 'vitest';
import { Bbr, BBR_CYCLE_LEN, type BbrMode } from '../../src/cc/bbr.js';
import { createCongestionControl, validateCcParams } from '../../src/cc/registry.js';
import { secondsToNs } from '../../src/engine/simulator.js';
import { buildResult } from '../../src/packet/result.js';
import { buildPacketModel, runPacket } from '../../src/packet/run.js';
import type { RunResult } from '../../src/result/types.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { Scenario } from '../../src/scenario/types.js';

const MSS = 1448;
/** 100 Mbit/s bottleneck, 1 Gbit/s access links: the payload rate at the bottleneck. */
const PAYLOAD_BPS = (100e6 * MSS) / (MSS + 40);
/** One-way 1 + 18 + 1 ms: a 40 ms propagation RTT. */
const PROP_RTT_S = 0.04;
const BDP_PACKETS = Math.ceil((100e6 * PROP_RTT_S) / 8 / (MSS + 40));

/** One or more BBR flows on a clean 100 Mbit/s, 40 ms path with a 2-BDP drop-tail buffer. */
function cleanPath(flows: number, durationS: number): Scenario {
  const s = dumbbellScenario('bbr', flows);
  s.durationS = durationS;
  s.bottleneck.delayS = 0.018;
  s.bottleneck.queue.limitPackets = 2 * BDP_PACKETS;
  // A receive window that never binds (2 MB would, at STARTUP's 2.9 BDP plus SACKed data in recovery).
  s.tcp.rcvBufBytes = 16 * 1024 * 1024;
  s.flows.forEach((f, i) => (f.startS = i * 0.5));
  return s;
}

interface Point {
  t: number;
  mode: BbrMode;
  cycle: number;
  pacingBps: number;
  cwnd: number;
  inflight: number;
  minRttS: number;
  round: number;
  maxBwBps: number;
}

/**
 * Runs the scenario recording every BBR flow's state after each ACK, and the traced queue; `result`
 * is the run's RunResult, what runPacket gives for the same scenario (one run serves both).
 */
function traced(s: Scenario): { trace: Point[][]; bbr: Bbr[]; queue: { t: number; q: number }[]; delivered: number[]; result: RunResult } {
  const bbr: Bbr[] = [];
  const m = buildPacketModel(s, {
    makeCc: (i) => {
      const b = createCongestionControl('bbr', {}, { seed: s.seed, flow: i }) as Bbr;
      bbr.push(b);
      return b;
    },
  });
  const trace: Point[][] = bbr.map(() => []);
  bbr.forEach((b, i) => {
    const run = b.congControl.bind(b);
    b.congControl = (tcb, rs, conn) => {
      run(tcb, rs, conn);
      trace[i]!.push({ t: rs.nowS, mode: b.mode, cycle: b.cycleIndex, pacingBps: tcb.pacingRateBps, cwnd: tcb.cwndBytes / MSS, inflight: tcb.bytesInFlight / MSS, minRttS: b.minRttS, round: b.roundCount, maxBwBps: b.maxBwBytesPerS * 8 });
    };
  });
  const queue: { t: number; q: number }[] = [];
  const record = m.net.onTracedQueue;
  m.net.onTracedQueue = (q) => {
    record?.(q);
    queue.push({ t: m.sim.nowNs / 1e9, q });
  };
  m.sim.run(secondsToNs(s.durationS));
  return { trace, bbr, queue, delivered: m.receivers.map((r) => r.deliveredBytes), result: buildResult(s, m, 0) };
}

/** Consecutive runs of one value: [value, start time, end time]. */
function runs<T>(points: Point[], key: (p: Point) => T): [T, number, number][] {
  const out: [T, number, number][] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && last[0] === key(p)) last[2] = p.t;
    else out.push([key(p), p.t, p.t]);
  }
  return out;
}

describe('BBR gains on entering each state (ns-3 tcp-bbr-test.cc TcpBbrCheckGainValuesTest, HighGain 4)', () => {
  const gains = (b: Bbr) => [b.mode, b.pacingGain, b.cwndGain];
  const make = () => new Bbr(validateCcParams('bbr', { highGain: 4, drainGain: 0.25 }));

  it('STARTUP: pacing and cwnd gain = high gain', () => {
    const b = make();
    b.enterStartup();
    expect(gains(b)).toEqual(['startup', 4, 4]);
  });

  it('DRAIN: pacing gain 1/high gain, cwnd gain high gain', () => {
    const b = make();
    b.enterDrain();
    expect(gains(b)).toEqual(['drain', 0.25, 4]);
  });

  it('PROBE_BW: cwnd gain 2, pacing gain that of the random start phase, never the 0.75 phase first (Linux); ns-3 draws among 6', () => {
    const seen = new Set<number>();
    for (let flow = 0; flow < 200; flow++) {
      const b = new Bbr(validateCcParams('bbr', { highGain: 4 }), { seed: 1, flow });
      b.enterProbeBw();
      expect(b.cwndGain).toBe(2);
      expect(b.pacingGain).toBe(b.cycleIndex === 0 ? 1.25 : b.cycleIndex === 1 ? 0.75 : 1);
      seen.add(b.cycleIndex);
    }
    // Linux: cycle_idx = CYCLE_LEN - 1 - U{0..6}, then advanced: phases 2..7 and 0.
    expect([...seen].sort()).toEqual([0, 2, 3, 4, 5, 6, 7]);
    const ns3 = new Set<number>();
    for (let flow = 0; flow < 200; flow++) {
      const b = new Bbr(validateCcParams('bbr', { cycleRand: 6 }), { seed: 1, flow });
      b.enterProbeBw();
      ns3.add(b.cycleIndex);
    }
    expect([...ns3].sort()).toEqual([0, 3, 4, 5, 6, 7]);
  });

  it('PROBE_RTT: pacing and cwnd gain 1', () => {
    const b = make();
    b.enterProbeRtt();
    expect(gains(b)).toEqual(['probe_rtt', 1, 1]);
  });

  it('BBR is paced whatever tcp.pacing says (ns-3 TcpBbrPacingEnableTest)', () => {
    const s = cleanPath(1, 0.2);
    s.tcp.pacing = false;
    const m = buildPacketModel(s);
    expect(m.senders[0]!.pacer).not.toBeNull();
    expect(m.senders[0]!.rate).not.toBeNull();
  });
});

describe('BBR on a clean 100 Mbit/s, 40 ms path with a 2-BDP buffer', () => {
  // 6 s: STARTUP and DRAIN end before 1 s; [2, 6] s is steady PROBE_BW (goodput measured from 2 s).
  const one = traced({ ...cleanPath(1, 6), measureFromS: 2 });
  const points = one.trace[0]!;
  const steady = points.filter((p) => p.t >= 2);

  it('STARTUP ends by the full-pipe rule: 3 rounds without 25% growth of the max bandwidth, at the bottleneck rate', () => {
    const startupEnd = points.findIndex((p) => p.mode !== 'startup');
    const exit = points[startupEnd]!;
    expect(exit.mode === 'drain' || exit.mode === 'probe_bw').toBe(true);
    // The max bandwidth at each round start of STARTUP.
    const atRound = new Map<number, number>();
    for (const p of points.slice(0, startupEnd + 1)) if (!atRound.has(p.round)) atRound.set(p.round, p.maxBwBps);
    const rounds = [...atRound.entries()].sort((a, b) => a[0] - b[0]);
    const lastRound = rounds[rounds.length - 1]!;
    // The rule: the three last round starts saw less than 1.25x the bandwidth of the one before them.
    const before = rounds[rounds.length - 4]![1];
    for (const [, bw] of rounds.slice(-3)) expect(bw).toBeLessThan(1.25 * before);
    // ...and every earlier stretch of three rounds grew (else STARTUP would have ended sooner).
    expect(rounds.length).toBeGreaterThan(6);
    expect(lastRound[1]).toBeGreaterThan(0.97 * PAYLOAD_BPS);
    expect(lastRound[1]).toBeLessThan(1.03 * PAYLOAD_BPS);
    // Exit within 12 rounds of a 10-segment start: doubling per round to ~340 segments is ~6.
    expect(lastRound[0]).toBeLessThanOrEqual(12);
  });

  it('steady state: goodput >= 95% of the payload rate', () => {
    const r = one.result;
    expect(r.summary.goodputBps).toBeGreaterThanOrEqual(0.95 * PAYLOAD_BPS);
    expect(r.summary.goodputBps).toBeLessThanOrEqual(PAYLOAD_BPS);
  });

  it('the PROBE_BW cycle in the pacing rate: 8 phases of one min RTT, gains 1.25, 0.75, then six of 1 (x 0.99 bw)', () => {
    const phases = runs(steady, (p) => p.cycle).slice(1, -1);
    expect(phases.length).toBeGreaterThanOrEqual(2 * BBR_CYCLE_LEN);
    const bw = steady[steady.length - 1]!.maxBwBps;
    for (let k = 1; k < phases.length; k++) {
      const [cycle, start] = phases[k]!;
      expect(cycle).toBe((phases[k - 1]![0] + 1) % BBR_CYCLE_LEN);
      // The rate the phase paces at (the first ACK after the switch sets it).
      const p = steady.find((x) => x.t >= start)!;
      const gain = cycle === 0 ? 1.25 : cycle === 1 ? 0.75 : 1;
      expect(p.pacingBps / (gain * 0.99 * bw)).toBeCloseTo(1, 6);
      // Each phase lasts one min RTT (the 0.75 phase may end early once inflight is back at the BDP).
      const length = phases[k + 1] ? phases[k + 1]![1] - start : null;
      if (length !== null && cycle !== 1) expect(length).toBeGreaterThan(PROP_RTT_S);
      if (length !== null) expect(length).toBeLessThan(PROP_RTT_S + 0.015);
    }
  });

  it('min-RTT estimate within 1% of the propagation RTT; the queue stays under one BDP (cwnd gain 2)', () => {
    const minRtt = steady[steady.length - 1]!.minRttS;
    expect(Math.abs(minRtt - PROP_RTT_S) / PROP_RTT_S).toBeLessThan(0.01);
    const q = one.queue.filter((x) => x.t >= 2).reduce((a, x) => Math.max(a, x.q), 0);
    expect(q).toBeLessThanOrEqual(BDP_PACKETS);
    // cwnd = 2 BDP + the quantisation budget: what it allows in the queue is about one BDP.
    const cwnd = steady.reduce((a, p) => Math.max(a, p.cwnd), 0);
    expect(cwnd).toBeLessThan(2.2 * BDP_PACKETS);
  });

});

describe('BBR PROBE_RTT of a lone flow on a clean path (Linux: only a strictly lower RTT restarts the 10 s)', () => {
  // Alone on the path BBR drains its queue every cycle, so RTT samples come back equal to the
  // estimate, never below it: since Linux commit 1b9e2a8c99a5 (rtt_us < min_rtt_us) they do not
  // postpone the filter's expiry, and PROBE_RTT comes every ~10 s. 55 s: 5 episodes, each but the
  // first timed from the previous one's end (4 spacings; 120 s, 11 episodes, cost twice the CPU).
  const lone = traced({ ...cleanPath(1, 55), measureFromS: 2 });
  const points = lone.trace[0]!;
  const modes = runs(points, (p) => p.mode);
  const probes = modes.filter(([m]) => m === 'probe_rtt');
  /** Where an episode ends: the first ACK of the mode after it. */
  const endOf = (probe: [BbrMode, number, number]) => modes[modes.indexOf(probe) + 1]![1];

  it('5 PROBE_RTT episodes in 55 s: the first 10 s after the first RTT sample, each next one 10 s after the previous ended (+-2 RTT)', () => {
    expect(probes.length).toBe(5);
    // The estimate is the first flight's RTT (at 0.08 s), never undercut: expiry at 10.08 s.
    expect(probes[0]![1]).toBeGreaterThan(10);
    expect(probes[0]![1]).toBeLessThan(10 + 0.1 + 2 * PROP_RTT_S);
    for (let k = 1; k < probes.length; k++) {
      expect(Math.abs(probes[k]![1] - endOf(probes[k - 1]!) - 10)).toBeLessThanOrEqual(2 * PROP_RTT_S);
    }
  });

  it('each episode holds cwnd at 4 segments for at least 200 ms and one round, then PROBE_BW resumes with cwnd restored', () => {
    for (const probe of probes) {
      const [, start] = probe;
      const end = endOf(probe);
      const inProbe = points.filter((p) => p.t >= start && p.t < end);
      expect(inProbe.every((p) => p.cwnd <= 4)).toBe(true);
      // Inflight reaches 4 segments within a round of entering; then max(200 ms, one round) at it.
      expect(end - start).toBeGreaterThanOrEqual(0.2);
      expect(end - start).toBeLessThan(0.2 + 2 * PROP_RTT_S);
      const next = points.find((p) => p.t >= end)!;
      expect(next.mode).toBe('probe_bw');
      expect(next.cwnd).toBeGreaterThan(1.8 * BDP_PACKETS);
    }
  });

  it('every episode brings the min-RTT estimate back to the propagation RTT (+0.37%: serialisation); goodput pays ~2.4% for the probes', () => {
    // On expiry the estimate takes the sample in hand (queue included); the episode's drain brings it back.
    for (const probe of probes) {
      const next = points.find((p) => p.t >= endOf(probe))!;
      expect(Math.abs(next.minRttS - PROP_RTT_S) / PROP_RTT_S).toBeLessThan(0.005);
    }
    // ~240 ms at 4 segments every ~10.24 s: goodput over [2, 55] s between 96% and 99% of the payload rate.
    const r = lone.result;
    expect(r.summary.goodputBps / PAYLOAD_BPS).toBeGreaterThan(0.96);
    expect(r.summary.goodputBps / PAYLOAD_BPS).toBeLessThan(0.99);
  });

  it("ns-3's choice (an equal RTT refreshes the estimate, minRttEqualRefreshes 1) never probes alone on the path", () => {
    const s = cleanPath(1, 25);
    s.ccParams = { minRttEqualRefreshes: 1 };
    const m = buildPacketModel(s);
    const b = m.senders[0]!.cc as Bbr;
    let probed = false;
    const run = b.congControl.bind(b);
    b.congControl = (tcb, rs, conn) => {
      run(tcb, rs, conn);
      if (b.mode === 'probe_rtt') probed = true;
    };
    m.sim.run(secondsToNs(s.durationS));
    expect(probed).toBe(false);
    expect(b.minRttStampS).toBeGreaterThan(20);
  });
});

describe('BBR PROBE_RTT with two flows (a standing queue)', () => {
  const two = traced(cleanPath(2, 21));
  const flow0 = two.trace[0]!;
  const flow1 = two.trace[1]!;

  it("flow 0 probes 10 s after its first RTT sample; its drain lets flow 1 see the propagation RTT, so flow 1 probes 10 s after that, cwnd 4 for >= 200 ms", () => {
    const p0 = runs(flow0, (p) => p.mode).filter(([m]) => m === 'probe_rtt');
    const p1 = runs(flow1, (p) => p.mode).filter(([m]) => m === 'probe_rtt');
    expect(p0.length).toBe(1);
    expect(p1.length).toBe(1);
    const [, start0, end0] = p0[0]!;
    expect(start0).toBeGreaterThan(10);
    expect(start0).toBeLessThan(10.2);
    // Flow 1's estimate falls to the propagation RTT (within 1%) while flow 0 holds 4 segments...
    const refresh = flow1.find((p) => p.t >= start0 && Math.abs(p.minRttS - PROP_RTT_S) / PROP_RTT_S < 0.01)!;
    expect(refresh.t).toBeLessThan(end0);
    // ...which restarts its 10 s: its own PROBE_RTT comes 10 s after (+-2 RTT).
    const [, start1] = p1[0]!;
    expect(Math.abs(start1 - refresh.t - 10)).toBeLessThanOrEqual(2 * 2 * PROP_RTT_S);
    for (const [flow, [, start, end]] of [[flow0, p0[0]!], [flow1, p1[0]!]] as const) {
      expect(flow.filter((p) => p.t >= start && p.t <= end).every((p) => p.cwnd <= 4)).toBe(true);
      expect(end - start).toBeGreaterThanOrEqual(0.2);
    }
  });

  it('PROBE_RTT refreshes the min RTT to the propagation RTT; the flows share the link', () => {
    const after = flow0.find((p) => p.t > 10.7)!;
    expect(Math.abs(after.minRttS - PROP_RTT_S) / PROP_RTT_S).toBeLessThan(0.01);
    const total = (two.delivered[0]! + two.delivered[1]!) * 8;
    expect(total / 21).toBeGreaterThan(0.9 * PAYLOAD_BPS);
  });
});

describe('BBR bad input and options', () => {
  it('unknown params, gains <= 0 and windows of 0 rounds are refused naming the field and its range', () => {
    expect(() => validateCcParams('bbr', { gain: 2 })).toThrow(/ccParams\.gain is not a parameter of bbr \(accepted: highGain, drainGain, cwndGain/);
    expect(() => validateCcParams('bbr', { highGain: 0 })).toThrow('ccParams.highGain must be in [1.01, 10] (ratio), got 0');
    expect(() => validateCcParams('bbr', { cwndGain: -1 })).toThrow('ccParams.cwndGain must be in [0.1, 10] (ratio), got -1');
    expect(() => validateCcParams('bbr', { probeDownGain: 0 })).toThrow('ccParams.probeDownGain must be in [0.01, 1] (ratio), got 0');
    expect(() => validateCcParams('bbr', { bwWindowRounds: 0 })).toThrow('ccParams.bwWindowRounds must be in [1, 1000] (count), got 0');
    expect(() => validateCcParams('bbr', { extraAckedWindowRounds: 0 })).toThrow('ccParams.extraAckedWindowRounds must be in [1, 31] (count), got 0');
  });

  it('runs without SACK (BBR does not need it): duplicate ACKs count as delivered segments (Linux tcp_add_reno_sack)', () => {
    // STARTUP's overshoot loses ~35 segments of one window; without SACK NewReno repairs one per RTT
    // and the retransmission timer ends it with go-back-N (measured: 2 timeouts, 81 Mbit/s over [1.5, 3] s).
    const s = cleanPath(1, 3);
    s.tcp.sack = false;
    s.measureFromS = 1.5;
    const r = runPacket(s);
    expect(r.summary.goodputBps).toBeGreaterThan(0.7 * PAYLOAD_BPS);
    expect(r.summary.timeouts).toBeGreaterThan(0);
  });

  it('the ns-3 choices run: one-segment send quantum, no long-term sampling', () => {
    const s = cleanPath(1, 3);
    s.ccParams = { ns3SendQuantum: 1, longTermSampling: 0, cycleRand: 6, highGain: 2.89 };
    s.measureFromS = 1.5;
    expect(runPacket(s).summary.goodputBps).toBeGreaterThan(0.9 * PAYLOAD_BPS);
  });
});
