import { describe, expect, it } from 'vitest';
import { dctcp, Dctcp } from '../../src/cc/dctcp.js';
import { validateCcParams } from '../../src/cc/registry.js';
import type { EcnAck } from '../../src/cc/types.js';
import { makeTcb, MSS, newAck, runRounds } from './helpers.js';

/** DCTCP on a bare TCB (RFC 8257 3.3-3.5), as ns-3's tcp-dctcp-test.cc drives TcpDctcp without a network. */

const G = 1 / 16;

function make(params: Record<string, number> = {}): Dctcp {
  return dctcp.create(validateCcParams('dctcp', params)) as Dctcp;
}

/**
 * One observation window of `segments` segments, one ACK each, the first `marked` of them with ECE.
 * `start` is its first segment's number. The window closes on its last ACK, the first beyond
 * WindowEnd; SND.NXT there is set so that the next window, of `nextSegments`, closes on its own last
 * ACK (WindowEnd = its last segment's start).
 */
function window(cc: Dctcp, start: number, segments: number, marked: number, nextSegments = segments): number {
  const tcb = makeTcb();
  const e: EcnAck = { nowS: 0, ece: false, deliveredBytes: MSS, ackNo: 0, sndNxt: (start + segments + nextSegments - 1) * MSS };
  for (let i = 0; i < segments; i++) {
    e.ece = i < marked;
    e.ackNo = (start + i + 1) * MSS;
    cc.onEcnAck(tcb, e);
  }
  return start + segments;
}

describe('dctcp', () => {
  it('registers g = 1/16 and initial alpha 1 (RFC 8257 3.3; Linux dctcp_shift_g 4, dctcp_alpha_on_init 1024), needs ECN, NewReno recovery', () => {
    expect(validateCcParams('dctcp')).toEqual({ g: 1 / 16, initialAlpha: 1 });
    expect(dctcp.needsEcn).toBe(true);
    expect(make().recovery).toBe('newreno');
    expect(make().alpha).toBe(1);
    expect(make({ initialAlpha: 0 }).alpha).toBe(0);
  });

  it('RFC 8257 3.4: on ECN-Echo, ssthresh = cwnd (1 - alpha / 2): alpha 1 halves, alpha 0.25 keeps 7/8, never below 2 MSS', () => {
    const tcb = makeTcb({ cwndBytes: 80 * MSS });
    expect(make().ssthresh(tcb, 'ecn', 0)).toBe(40 * MSS);
    expect(make({ initialAlpha: 0.25 }).ssthresh(tcb, 'ecn', 0)).toBe(70 * MSS);
    expect(make({ initialAlpha: 0 }).ssthresh(tcb, 'ecn', 0)).toBe(80 * MSS);
    expect(make().ssthresh(makeTcb({ cwndBytes: 3 * MSS }), 'ecn', 0)).toBe(2 * MSS);
  });

  it('RFC 8257 3.5: a loss halves cwnd as Reno whatever alpha says', () => {
    const tcb = makeTcb({ cwndBytes: 80 * MSS });
    for (const kind of ['dupacks', 'timeout'] as const) {
      expect(make({ initialAlpha: 0.1 }).ssthresh(tcb, kind, 0)).toBe(40 * MSS);
    }
  });

  it('RFC 8257 3.3: alpha = (1 - g) alpha + g F once per window, value by value', () => {
    const cc = make();
    // The first ACK passes WindowEnd = 0 and closes a one-ACK window with F = 1 (marked): alpha stays 1.
    const plan = [[20, 5], [20, 0], [40, 40], [10, 3]] as const;
    let next = window(cc, 0, 1, 1, plan[0][0]);
    expect([cc.alpha, cc.windows]).toEqual([1, 1]);
    let alpha = 1;
    plan.forEach(([segs, marked], k) => {
      next = window(cc, next, segs, marked, plan[k + 1]?.[0]);
      alpha = (1 - G) * alpha + (G * marked) / segs;
      expect(cc.alpha).toBeCloseTo(alpha, 15);
      expect(cc.windows).toBe(k + 2);
    });
  });

  it('alpha converges to the marked fraction: after n windows at F, alpha - F = (1 - F)(1 - g)^n', () => {
    const cc = make();
    let next = window(cc, 0, 1, 1, 40); // alpha 1, WindowEnd at the next window's last segment
    const F = 0.25;
    for (let n = 1; n <= 150; n++) {
      next = window(cc, next, 40, 10);
      if (n % 20 === 0) expect(cc.alpha - F).toBeCloseTo((1 - F) * (1 - G) ** n, 12);
    }
    expect(Math.abs(cc.alpha - F)).toBeLessThan(1e-4); // 0.75 x (15/16)^150 = 4.7e-5
  });

  it('the update waits for an ACK beyond WindowEnd: ACKs up to it only count bytes', () => {
    const cc = make({ initialAlpha: 0.5 });
    const tcb = makeTcb();
    const e: EcnAck = { nowS: 0, ece: true, deliveredBytes: MSS, ackNo: MSS, sndNxt: 10 * MSS };
    cc.onEcnAck(tcb, e); // beyond WindowEnd 0: window closes (F = 1), WindowEnd = 10 MSS
    expect(cc.alpha).toBeCloseTo(0.5 * (1 - G) + G, 15);
    const after1 = cc.alpha;
    for (let k = 2; k <= 10; k++) cc.onEcnAck(tcb, { ...e, ece: false, ackNo: k * MSS, sndNxt: 20 * MSS });
    expect(cc.alpha).toBe(after1);
    cc.onEcnAck(tcb, { ...e, ece: false, ackNo: 11 * MSS, sndNxt: 20 * MSS });
    expect(cc.alpha).toBeCloseTo(after1 * (1 - G), 15); // 10 unmarked segments: F = 0
  });

  it('counts SACKed bytes: F is marked bytes over delivered bytes, not over ACKs', () => {
    const cc = make({ initialAlpha: 0 });
    const tcb = makeTcb();
    cc.onEcnAck(tcb, { nowS: 0, ece: false, deliveredBytes: MSS, ackNo: MSS, sndNxt: MSS });
    // One window: an unmarked ACK of 1 segment and a marked one delivering 3 (cumulative + SACKed).
    cc.onEcnAck(tcb, { nowS: 0, ece: false, deliveredBytes: MSS, ackNo: MSS, sndNxt: 8 * MSS });
    cc.onEcnAck(tcb, { nowS: 0, ece: true, deliveredBytes: 3 * MSS, ackNo: 2 * MSS, sndNxt: 8 * MSS });
    expect(cc.alpha).toBeCloseTo(G * 0.75, 15);
  });

  it('grows as Reno: slow start doubles per RTT, congestion avoidance +1 MSS per RTT with delayed ACKs', () => {
    const ss = make();
    const t1 = makeTcb({ cwndBytes: 10 * MSS });
    runRounds(ss, t1, 2, { rttS: 0.1 });
    expect(t1.cwndBytes).toBe(40 * MSS);
    const ca = make();
    const t2 = makeTcb({ cwndBytes: 20 * MSS, ssthreshBytes: 10 * MSS });
    runRounds(ca, t2, 10, { rttS: 0.1, segsPerAck: 2 });
    expect(t2.cwndBytes).toBe(30 * MSS);
  });

  it('a window reduction clears the additive-increase credit (Linux tcp_init_cwnd_reduction)', () => {
    const cc = make();
    const tcb = makeTcb({ cwndBytes: 20 * MSS, ssthreshBytes: 10 * MSS });
    for (let i = 0; i < 19; i++) cc.increaseWindow(tcb, newAck(i));
    cc.onStateChange(tcb, 'cwr', 2);
    cc.increaseWindow(tcb, newAck(20));
    expect(tcb.cwndBytes).toBe(20 * MSS);
  });
});
