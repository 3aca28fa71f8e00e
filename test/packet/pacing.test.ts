import { describe, expect, it } from 'vitest';
import type { CongestionControl } from '../../src/cc/types.js';
import { buildPacketModel } from '../../src/packet/run.js';
import { runPacket } from '../../src/packet/run.js';
import { secondsToNs } from '../../src/engine/simulator.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { Scenario } from '../../src/scenario/types.js';
import { windowPacingRateBps } from '../../src/tcp/pacer.js';
import { DATA, F_HOP, F_TYPE, ROW_SLOTS } from '../../src/net/packets.js';

/** A rate-based test algorithm: a fixed pacing rate and a fixed, large cwnd (window never binds). */
function fixedRate(rateBps: number, cwndSegments = 200): CongestionControl {
  return {
    id: 'reno',
    recovery: 'newreno',
    needsPacing: true,
    ssthresh: (tcb) => tcb.ssthreshBytes,
    increaseWindow: () => undefined,
    init: (tcb) => {
      tcb.cwndBytes = cwndSegments * tcb.mssBytes;
      tcb.pacingRateBps = rateBps;
    },
    congControl: (tcb) => {
      tcb.cwndBytes = cwndSegments * tcb.mssBytes;
      tcb.pacingRateBps = rateBps;
    },
  };
}

function line(accessBps: number, durationS: number): Scenario {
  const s = dumbbellScenario('reno', 1);
  s.durationS = durationS;
  s.flows[0]!.access.bandwidthBps = accessBps;
  s.flows[0]!.access.queuePackets = 1000;
  s.bottleneck.queue.limitPackets = 1000;
  return s;
}

/** Departure times (ns) and lengths of flow 0's segments as the sender hands them to its access link. */
function departures(s: Scenario, cc: CongestionControl): { atNs: number[]; len: number[]; deliveredBytes: number } {
  const m = buildPacketModel(s, { makeCc: () => cc });
  const atNs: number[] = [];
  const len: number[] = [];
  const send = m.net.sendData.bind(m.net);
  m.net.sendData = (flow, seq, l, retx) => {
    atNs.push(m.sim.nowNs);
    len.push(l);
    send(flow, seq, l, retx);
  };
  m.sim.run(secondsToNs(s.durationS));
  return { atNs, len, deliveredBytes: m.receivers[0]!.deliveredBytes };
}

describe('pacing (Linux internal pacing / fq, ns-3 pacing timer)', () => {
  it('a paced flow leaves its sender spaced by len x 8 / rate, to the nanosecond (rounded up)', () => {
    const rate = 20e6;
    // The initial window first goes out paced too: the sender waits for each slot.
    const { atNs, len } = departures(line(1e9, 0.4), fixedRate(rate));
    expect(atNs.length).toBeGreaterThan(500);
    const slot = Math.ceil((1448 * 8e9) / rate); // 579 200 ns
    for (let i = 1; i < atNs.length; i++) {
      const gap = atNs[i]! - atNs[i - 1]!;
      expect(gap).toBeGreaterThanOrEqual(Math.ceil((len[i - 1]! * 8e9) / rate));
    }
    // Never window-limited (cwnd 200 segments > 20 Mbit/s x 22 ms): every gap is exactly one slot.
    const gaps = new Set(atNs.slice(1).map((t, i) => t - atNs[i]!));
    expect([...gaps]).toEqual([slot]);
  });

  it('departures at the access link are the paced ones within one serialisation time', () => {
    const rate = 20e6;
    const s = line(1e9, 0.2);
    const m = buildPacketModel(s, { makeCc: () => fixedRate(rate) });
    // The access link's output: arrival times at the bottleneck's input = access departures + delay.
    const arrivals: number[] = [];
    const onArrive = m.net.onArrive.bind(m.net);
    m.net.onArrive = (p) => {
      const r = m.net.pool.rows;
      // A data packet finishing hop 0 (the access link).
      if (r[p * ROW_SLOTS + F_TYPE] === DATA && r[p * ROW_SLOTS + F_HOP] === 0) arrivals.push(m.sim.nowNs);
      onArrive(p);
    };
    m.sim.run(secondsToNs(s.durationS));
    const slot = Math.ceil((1448 * 8e9) / rate);
    const serialisationNs = Math.ceil(((1448 + 40) * 8e9) / 1e9);
    expect(arrivals.length).toBeGreaterThan(300);
    for (let i = 1; i < arrivals.length; i++) {
      const gap = arrivals[i]! - arrivals[i - 1]!;
      expect(Math.abs(gap - slot)).toBeLessThanOrEqual(serialisationNs);
    }
  });

  it('a pacing rate above the link rate leaves the link the limit', () => {
    // 50 Mbit/s pacing into a 10 Mbit/s access link: the link's rate is what gets through.
    const s = line(10e6, 2);
    const { deliveredBytes } = departures(s, fixedRate(50e6, 60));
    const payloadRateBps = (10e6 * 1448) / 1488;
    const goodputBps = (deliveredBytes * 8) / 2;
    // Slow start is absent (cwnd 60 from the first ACK): the first RTT is the only idle time.
    expect(goodputBps).toBeGreaterThan(0.95 * payloadRateBps);
    expect(goodputBps).toBeLessThanOrEqual(payloadRateBps);
  });

  it('tcp.pacing on for a loss-based variant: Linux cwnd / SRTT x 120% (200% in slow start), invariant checked on every packet', () => {
    expect(windowPacingRateBps(100_000, 50_000, Infinity, 0.1)).toBeCloseTo((2 * 100_000 * 8) / 0.1, 6);
    expect(windowPacingRateBps(100_000, 150_000, 150_000, 0.1)).toBeCloseTo((1.2 * 150_000 * 8) / 0.1, 6);
    expect(windowPacingRateBps(100_000, 0, Infinity, 0)).toBe(Infinity);
    const s = dumbbellScenario('cubic', 1);
    s.durationS = 3;
    const unpaced = runPacket(s);
    s.tcp.pacing = true;
    const paced = runPacket(s);
    expect(paced.stats.events).toBeGreaterThan(unpaced.stats.events!);
    expect(paced.summary.goodputBps).toBeGreaterThan(0.85 * 100e6 * (1448 / 1488));
    // tcp.pacing: false is the default: the same bytes as leaving it out.
    s.tcp.pacing = false;
    const off = runPacket(s);
    expect(off.summary).toEqual(unpaced.summary);
  });
});

describe('tcp.pacing in the scenario and on the command line', () => {
  it('--pacing on|off sets tcp.pacing; a non-boolean in a file is refused naming the field', async () => {
    const { scenarioFromOptions } = await import('../../src/cli/scenarioOptions.js');
    const { validateScenario } = await import('../../src/scenario/check/validate.js');
    expect(scenarioFromOptions({ scenario: 'normal', pacing: 'on' }).tcp.pacing).toBe(true);
    expect(scenarioFromOptions({ scenario: 'normal', pacing: 'off' }).tcp.pacing).toBe(false);
    expect(scenarioFromOptions({ scenario: 'normal' }).tcp.pacing).toBeUndefined();
    const s = dumbbellScenario('reno', 1) as unknown as { tcp: Record<string, unknown> };
    s.tcp.pacing = 'yes';
    expect(() => validateScenario(s)).toThrow(/tcp\.pacing must be true or false, got 'yes'/);
  });
});
