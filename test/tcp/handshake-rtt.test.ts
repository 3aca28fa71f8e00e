import { describe, expect, it } from 'vitest';
import { secondsToNs } from '../../src/engine/simulator.js';
import { buildPacketModel } from '../../src/packet/run.js';
import { baseRttS, handshakeRttS } from '../../src/scenario/path.js';
import { presetScenario } from '../../src/scenario/presets.js';

/**
 * TcpSpec.handshakeRtt: the SYN / SYN-ACK exchange's RTT is the connection's first sample (ns-3
 * EstimateRtt on the SYN-ACK; Linux tcp_ack_update_rtt). ns-3's trace of the lossy Westwood+ cell
 * (reference/ns3/traces) starts its window at 0.111021 s: the SYN-ACK's arrival, one handshake RTT
 * after the SYN at 0 s.
 */
describe('handshake RTT sample', () => {
  it("handshakeRttS is propagation plus a 54-byte header serialised on each link each way (ns3-lossy: 110 ms + 0.95 ms, below a data segment's base RTT)", () => {
    const s = presetScenario('ns3-lossy', 'westwood');
    const expected = 2 * (0.045 + 0.01) + 2 * 54 * 8 * (1 / 10e6 + 1 / 1e6);
    expect(handshakeRttS(s)).toBeCloseTo(expected, 12);
    expect(handshakeRttS(s)).toBeCloseTo(0.11095, 5);
    expect(handshakeRttS(s)).toBeLessThan(baseRttS(s));
  });

  it('with handshakeRtt the RTO estimator starts from it when the application starts (RFC 6298 2.2: SRTT = R, RTTVAR = R/2); without it nothing is measured before the first data ACK', () => {
    for (const on of [true, false]) {
      const s = presetScenario('ns3-lossy', 'westwood', { durationS: 1 });
      s.tcp.handshakeRtt = on;
      const m = buildPacketModel(s);
      const snd = m.senders[0]!;
      m.sim.run(secondsToNs(s.flows[0]!.startS + 0.001)); // data sent, no ACK back yet
      expect(snd.segmentsSent).toBeGreaterThan(0);
      if (on) {
        const r = handshakeRttS(s);
        expect(snd.rto.srttS).toBe(r);
        expect(snd.rto.rttvarS).toBe(r / 2);
        expect(snd.tcb.srttS).toBe(r);
        expect(snd.tcb.minRttS).toBe(Infinity); // data samples only (Linux's Westwood+ and BBR filters read it)
      } else {
        expect(snd.rto.hasSample).toBe(false);
        expect(snd.tcb.srttS).toBe(0);
      }
    }
  });

  it('the ns3 profile (every preset) turns it on; a scenario without a profile keeps it off', () => {
    expect(presetScenario('ns3-lossy', 'reno').tcp.handshakeRtt).toBe(true);
    expect(presetScenario('ns3-lossy', 'reno', { profile: null }).tcp.handshakeRtt).toBeUndefined();
  });
});
