import { describe, expect, it } from 'vitest';
import { Cubic } from '../../src/cc/cubic.js';
import { deliver, makeTcb, MSS, newAck } from './helpers.js';

/** ns-3 TcpCubic arithmetic (param cntArithmetic = 1; the default is RFC 9438's curve), values worked by hand from tcp-cubic.cc. */
const NS3 = { cntArithmetic: 1 };

describe('CUBIC with ns-3 TcpCubic arithmetic (whole segments, cnt)', () => {
  it('ssthresh = max(trunc(0.7 cwnd), 2) segments; fast convergence truncates W_max; W_max survives a timeout', () => {
    const cc = new Cubic(NS3);
    const tcb = makeTcb({ cwndBytes: 10 * MSS + 999 }); // 10 whole segments
    expect(cc.ssthresh(tcb, 'dupacks', 0)).toBe(7 * MSS);
    expect(cc.cnt!.lastMaxCwnd).toBe(10);
    tcb.cwndBytes = 8 * MSS;
    // 8 < 10: W_max = trunc(8 x 1.7 / 2) = 6, ssthresh trunc(5.6) = 5 segments.
    expect(cc.ssthresh(tcb, 'timeout', 1)).toBe(5 * MSS);
    expect(cc.cnt!.lastMaxCwnd).toBe(6);
    cc.onStateChange(tcb, 'loss', 1);
    expect(cc.cnt!.lastMaxCwnd).toBe(6); // ns-3 CubicReset keeps m_lastMaxCwnd (RFC mode forgets W_max)
    tcb.cwndBytes = 2 * MSS;
    expect(cc.ssthresh(tcb, 'timeout', 2)).toBe(2 * MSS); // the 2-segment floor
  });

  it('slow start adds segmentsAcked x MSS past ssthresh (ns-3 does not clip)', () => {
    const cc = new Cubic({ ...NS3, hystart: 0 });
    const tcb = makeTcb({ cwndBytes: 9 * MSS, ssthreshBytes: 10 * MSS });
    deliver(cc, tcb, newAck(0, 2));
    expect(tcb.cwndBytes).toBe(11 * MSS);
  });

  it('a 2-segment window under W_max = 3: cnt 2 (target truncated to W_max), then cnt 300 until the friendly estimate passes cwnd', () => {
    const cc = new Cubic({ ...NS3, hystart: 0 });
    const tcb = makeTcb({ cwndBytes: 3 * MSS, srttS: 0.11, minRttS: 0.11 });
    tcb.ssthreshBytes = cc.ssthresh(tcb, 'dupacks', 0); // W_max 3, ssthresh 2 segments
    tcb.cwndBytes = tcb.ssthreshBytes;
    const cwnd: number[] = [];
    for (let k = 0; k < 11; k++) {
      deliver(cc, tcb, newAck(1 + 0.05 * k, 1, MSS, 0.11));
      cwnd.push(tcb.cwndBytes / MSS);
    }
    // K = cbrt(1 / 0.4) = 1.357 s; t = 0.11 + 0.05 k < K, C (K - t)^3 < 1 truncates to 0, so the
    // target is W_max = 3: cnt = 2 / (3 - 2) = 2, one segment after 2 ACKs. At cwnd 3 the target is
    // not above cwnd, cnt = 100 x 3; the Reno-friendly count (one segment per (3 x 15) >> 3 = 5
    // acknowledged, from W_est = 2 at the epoch's start) passes cwnd on the 11th ACK: cnt = 3 / 1.
    expect(cwnd).toEqual([2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4]);
  });
});
