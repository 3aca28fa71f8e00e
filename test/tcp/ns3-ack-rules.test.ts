import { describe, expect, it } from 'vitest';
import { newreno } from '../../src/cc/newreno.js';
import type { SenderConfig } from '../../src/tcp/sender-config.js';
import { bareSender } from '../helpers/bareSender.js';

/**
 * Three ACK rules where ns-3's TcpSocketBase differs from RFC 6298 / RFC 6675 / Linux, each a choice of
 * the behaviour profiles (src/scenario/profiles.ts), found by replaying ns-3's own loss sequence of
 * lossy Westwood+ runs through cclab and diffing the two packet traces (issue 21). Hand-worked cases,
 * segments of 100 B, initial window 10 segments, NewReno (slow start +1 MSS per ACK), classic SACK recovery.
 */
const MSS = 100;

function start(config: Partial<SenderConfig>) {
  const s = bareSender(newreno.create({}), { mssBytes: MSS, ...config });
  s.sender.startApp(null); // segments 0-9 at t = 0
  return s;
}

describe('sackAdvanceAck: an ACK that moves SND.UNA and SACKs new data', () => {
  // Segments 0-9 out at t = 0; segment 3 is lost and the ACK of 0-1 (ACK 2) arrives at 100 ms, then the
  // receiver's immediate ACK for segment 4: ACK 3 (segment 2 acknowledged) with SACK 4.
  function run(rule: 'newAck' | 'dupAck') {
    const s = start({ sackAdvanceAck: rule });
    s.ack(100, 2); // slow start: cwnd 10 -> 11 segments, timer restarted: due at 1100 ms
    s.ack(110, 3, [[4, 5]]);
    return s;
  }

  it("'newAck' (RFC 6298 5.3, RFC 5681, Linux): new data acknowledged, so the window grows and the timer restarts", () => {
    const { sender, sim } = run('newAck');
    expect(sender.tcb.cwndBytes).toBe(12 * MSS);
    expect(sender.tcb.caState).toBe('open');
    expect(sender.dupAcks).toBe(0);
    sim.run(1105e6); // the timer restarted at 110 ms: not due before 1110 ms
    expect(sender.timeouts).toBe(0);
  });

  it("'dupAck' (ns-3 ProcessAck: isDupack = scoreboardUpdated): a duplicate ACK, disorder, no growth, no timer restart", () => {
    const { sender, sim } = run('dupAck');
    expect(sender.tcb.cwndBytes).toBe(11 * MSS);
    expect(sender.tcb.caState).toBe('disorder');
    expect(sender.dupAcks).toBe(1);
    sim.run(1105e6); // still due at 1100 ms, from the ACK at 100 ms
    expect(sender.timeouts).toBe(1);
  });

  it("'dupAck': the count goes on through ACKs that move SND.UNA, and DupThresh of them start recovery", () => {
    const { sender, sent } = run('dupAck');
    sender.onAck(3 * MSS, 0, 1e9, 1, new Float64Array([4 * MSS, 6 * MSS]));
    expect(sender.dupAcks).toBe(2);
    sender.onAck(3 * MSS, 0, 1e9, 1, new Float64Array([4 * MSS, 7 * MSS]));
    expect(sender.tcb.caState).toBe('recovery');
    expect(sent.filter((x) => x.retx).map((x) => x.seg)).toEqual([3]);
  });
});

describe('sackRecoveryStart: the ACK that ends a recovery while the new SND.UNA is already lost', () => {
  // Segments 0-9 at t = 0, segment 0 lost; every ACK below arrives at 100 ms (so no resent segment is
  // judged lost for being older than a SACKed one). SACK 1 and 1-2 let pipe send 10 and 11; SACK 1-3
  // makes 0 lost: recovery, RecoveryPoint 12, ssthresh = pipe / 2 = 8 x 100 / 2 = 400 B, 0 resent.
  // SACK 1-9 leaves pipe 0(r), 10, 11 = 300 B: 12 goes out; SACK 1-11 (10, 11 arrived): 13, 14. Segment
  // 12 is lost; SACK 13-14 then 13-15 make it lost (3 SACKed above): NextSeg resends it, then 17. The
  // resent 0 arrives: ACK 12 with SACK 13-15 ends the recovery, and SND.UNA = 12 is already lost.
  function run(rule: 'anyAck' | 'dupAck') {
    const s = start({ sackRecoveryStart: rule });
    s.sim.nowNs = 100e6;
    for (let k = 2; k <= 10; k++) s.ackNow(0, [[1, k]]);
    s.ackNow(0, [[1, 12]]);
    s.ackNow(0, [[13, 15], [1, 12]]);
    s.ackNow(0, [[13, 16], [1, 12]]);
    expect(s.sender.fastRecoveries).toBe(1);
    expect(s.sent.filter((x) => x.retx).map((x) => x.seg)).toEqual([0, 12]);
    s.ackNow(12, [[13, 16]]);
    return s;
  }

  it("'anyAck' (RFC 6675 section 5, Linux tcp_time_to_recover): the same ACK starts the next recovery", () => {
    const { sender } = run('anyAck');
    expect(sender.fastRecoveries).toBe(2);
    expect(sender.tcb.caState).toBe('recovery');
  });

  it("'dupAck' (ns-3: only DupAck enters recovery): open until the next duplicate ACK, whose fast retransmit resends SND.UNA again", () => {
    const { sender, sent, ackNow } = run('dupAck');
    expect(sender.fastRecoveries).toBe(1);
    expect(sender.tcb.caState).toBe('open');
    const resends12 = (): number => sent.filter((x) => x.retx && x.seg === 12).length;
    expect(resends12()).toBe(1);
    ackNow(12, [[13, 17]]);
    expect(sender.fastRecoveries).toBe(2);
    expect(sender.tcb.caState).toBe('recovery');
    expect(resends12()).toBe(2); // EnterRecovery: SendDataPacket(m_highRxAckMark), in flight or not
  });
});

describe('rttSamples: an ACK of retransmitted data', () => {
  // Segments 0-9 at t = 0, segment 0 lost, fast retransmit at 100 ms; the resent segment's ACK (ACK 10)
  // arrives at 230 ms echoing the retransmission's timestamp (100 ms): a 130 ms sample by the echo.
  function run(rule: 'karn' | 'timestamps') {
    const s = start({ rttSamples: rule });
    s.ack(100, 0, [[1, 2]]);
    s.ack(100, 0, [[1, 3]]);
    s.ack(100, 0, [[1, 4]]);
    expect(s.sent.filter((x) => x.retx).map((x) => x.seg)).toEqual([0]);
    s.sim.nowNs = 230e6;
    s.sender.onAck(10 * MSS, 100e6, 1e9, 0, null);
    return s.sender;
  }

  it("'karn' (RFC 6298 section 3): no sample, the estimator still has none", () => {
    expect(run('karn').rto.hasSample).toBe(false);
  });

  it("'timestamps' (ns-3 CalculateRttSample, RFC 7323): the echo gives 130 ms, the first sample (SRTT = R)", () => {
    const sender = run('timestamps');
    expect(sender.rto.hasSample).toBe(true);
    expect(sender.rto.srttS).toBeCloseTo(0.13, 12);
  });
});
