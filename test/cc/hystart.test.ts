import { describe, expect, it } from 'vitest';
import { Cubic } from '../../src/cc/cubic.js';
import { HyStart, HYSTART_ACK_TRAIN, HYSTART_DELAY } from '../../src/cc/hystart.js';
import { makeTcb, MSS, newAck, runRounds } from './helpers.js';

/** RTT samples of 100 ms, rising to 130 ms (a queue building) from `fromS` on. */
const rising = (fromS: number) => (t: number) => (t < fromS ? 0.1 : 0.13);

describe('hystart (classic, Linux tcp_cubic.c)', () => {
  it('cubic with hystart = 1 (delay detector) leaves slow start when the RTT rises 30 ms above 100 ms', () => {
    const cc = new Cubic({ hystart: 1, hystartDetect: HYSTART_DELAY });
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    // Rounds start at 0, .1, .2, .3, .4 s with cwnd 10, 20, 40, 80, 160; the RTT rises at 0.35 s.
    runRounds(cc, tcb, 5, { rttS: 0.1, rttSample: rising(0.35) });
    expect(cc.hystart?.found).toBe(true);
    // Found on the 9th sample of the round starting at 0.4 s: ssthresh = cwnd = 160 + 8 segments.
    expect(tcb.ssthreshBytes).toBe(168 * MSS);
    expect(tcb.cwndBytes).toBeLessThan(200 * MSS); // the rest of the round is congestion avoidance
  });

  it('cubic with hystart = 0 (RFC 9438 plain slow start; HyStart is on by default) keeps slow-starting through the same RTT rise', () => {
    expect(new Cubic({}).hystart).not.toBeNull();
    const cc = new Cubic({ hystart: 0 });
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    runRounds(cc, tcb, 5, { rttS: 0.1, rttSample: rising(0.35) });
    expect(cc.hystart).toBeNull();
    expect(tcb.ssthreshBytes).toBe(Infinity);
    expect(tcb.cwndBytes).toBe(320 * MSS);
  });

  it('hystart delay detector ignores an RTT rise below the clamp(delayMin / 8, 4 ms, 16 ms) threshold', () => {
    const cc = new Cubic({ hystart: 1, hystartDetect: HYSTART_DELAY });
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    runRounds(cc, tcb, 5, { rttS: 0.1, rttSample: (t) => (t < 0.35 ? 0.1 : 0.112) }); // +12 ms < 12.5 ms
    expect(tcb.ssthreshBytes).toBe(Infinity);
  });

  it('hystart does nothing below 16 segments (Linux hystart_low_window)', () => {
    const cc = new Cubic({ hystart: 1, hystartDetect: HYSTART_DELAY });
    const tcb = makeTcb({ cwndBytes: 4 * MSS });
    runRounds(cc, tcb, 2, { rttS: 0.1, rttSample: rising(0) }); // cwnd 4 -> 8 -> 16
    expect(tcb.ssthreshBytes).toBe(Infinity);
  });

  it('hystart ACK-train detector exits once closely spaced ACKs span more than delayMin / 2', () => {
    const cc = new Cubic({ hystart: 1, hystartDetect: HYSTART_ACK_TRAIN });
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    // Round of 80 segments starting at 0.3 s: ACKs every 1.25 ms (< 2 ms), train longer than 50 ms.
    runRounds(cc, tcb, 4, { rttS: 0.1 });
    expect(cc.hystart?.found).toBe(true);
    // 0.3 + (i + 1) x 1.25 ms > 0.3 + 50 ms first at the 41st ACK, after 40 ACKs grew cwnd 80 -> 120.
    expect(tcb.ssthreshBytes).toBe(120 * MSS);
  });

  it('hystart ACK-train detector ignores ACKs spaced wider than 2 ms', () => {
    const cc = new Cubic({ hystart: 1, hystartDetect: HYSTART_ACK_TRAIN });
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    runRounds(cc, tcb, 3, { rttS: 0.1 }); // rounds of 10, 20, 40 ACKs: 10, 5, 2.5 ms apart
    expect(tcb.ssthreshBytes).toBe(Infinity);
  });

  it('hystart is re-armed by a timeout (state "loss")', () => {
    const cc = new Cubic({ hystart: 1, hystartDetect: HYSTART_DELAY });
    const tcb = makeTcb({ cwndBytes: 10 * MSS });
    runRounds(cc, tcb, 5, { rttS: 0.1, rttSample: rising(0.35) });
    expect(cc.hystart?.found).toBe(true);
    tcb.ssthreshBytes = cc.ssthresh(tcb, 'timeout', 1);
    cc.onStateChange(tcb, 'loss', 1);
    expect(cc.hystart?.found).toBe(false);
    expect(cc.hystart?.delayMinS).toBe(Infinity);
  });

  it('HyStart.onAck without an RTT sample only tracks rounds', () => {
    const h = new HyStart();
    const tcb = makeTcb({ cwndBytes: 20 * MSS });
    h.onAck(tcb, newAck(0.1));
    expect(h.delayMinS).toBe(Infinity);
    h.onAck(tcb, newAck(0.2, 1, MSS, 0.05));
    expect(h.delayMinS).toBe(0.05);
  });
});
