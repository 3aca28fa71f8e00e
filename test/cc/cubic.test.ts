import { describe, expect, it } from 'vitest';
import { Cubic, cubic, cubicK, renoFriendlyAlpha, wCubic } from '../../src/cc/cubic.js';
import { deliver, makeTcb, MSS, newAck, runRounds, type MutableTcb } from './helpers.js';

const C = 0.4;
const BETA = 0.7;
/** These tests check RFC 9438's real-valued curve, the default, explicitly (cubic-cnt.test.ts checks ns-3's arithmetic). */
const RFC = { cntArithmetic: 0 };

/** A CUBIC flow that just took a dupack loss at `wMaxSegs` segments: cwnd = ssthresh = beta x W. */
function afterLoss(wMaxSegs: number, params: Record<string, number> = {}): { cc: Cubic; tcb: MutableTcb } {
  const cc = new Cubic({ ...RFC, ...params });
  const tcb = makeTcb({ cwndBytes: wMaxSegs * MSS, ssthreshBytes: wMaxSegs * MSS, bytesInFlight: wMaxSegs * MSS });
  tcb.ssthreshBytes = cc.ssthresh(tcb, 'dupacks', 0);
  tcb.cwndBytes = tcb.ssthreshBytes;
  return { cc, tcb };
}

describe('cubic formulas', () => {
  it('cubicK(W_max, beta W_max, C) = cbrt(W_max (1 - beta) / C): 4.2172 s for W_max = 100', () => {
    expect(cubicK(100, 70, C)).toBeCloseTo(Math.cbrt((100 * (1 - BETA)) / C), 12);
    expect(cubicK(100, 70, C)).toBeCloseTo(4.2172, 4);
    expect(cubicK(100, 120, C)).toBe(0);
  });

  it('wCubic(t) = C (t - K)^3 + W_max: beta W_max at t = 0 and W_max at t = K', () => {
    const k = cubicK(100, 70, C);
    expect(wCubic(0, k, 100, C)).toBeCloseTo(70, 10);
    expect(wCubic(k, k, 100, C)).toBe(100);
    expect(wCubic(k + 2, k, 100, C)).toBeCloseTo(100 + C * 8, 10);
  });

  it('renoFriendlyAlpha(0.7) = 3 (1 - beta) / (1 + beta) = 0.5294', () => {
    expect(renoFriendlyAlpha(BETA)).toBeCloseTo(0.9 / 1.7, 12);
  });
});

describe('cubic loss response', () => {
  it('cubic has recovery "newreno" (ns-3 TcpClassicRecovery)', () => {
    expect(cubic.create({}).recovery).toBe('newreno');
  });

  it('cubic.ssthresh(tcb) = 0.7 x cwnd, cut from cwnd not flight size', () => {
    const cc = new Cubic(RFC);
    expect(cc.ssthresh(makeTcb({ cwndBytes: 100 * MSS, bytesInFlight: 40 * MSS }), 'dupacks', 0)).toBe(70 * MSS);
    expect(new Cubic(RFC).ssthresh(makeTcb({ cwndBytes: 12345 }), 'timeout', 0)).toBe(Math.floor(12345 * 0.7));
  });

  it('cubic.ssthresh(tcb) has a floor of 2 MSS', () => {
    expect(new Cubic(RFC).ssthresh(makeTcb({ cwndBytes: 2 * MSS }), 'dupacks', 0)).toBe(2 * MSS);
  });

  it('cubic.ssthresh(tcb) uses the beta param (beta = 0.5 halves cwnd)', () => {
    expect(new Cubic({ ...RFC, beta: 0.5 }).ssthresh(makeTcb({ cwndBytes: 100 * MSS }), 'dupacks', 0)).toBe(50 * MSS);
  });

  it('cubic sets W_max = cwnd at a loss above the previous W_max', () => {
    const { cc, tcb } = afterLoss(100);
    expect(cc.wMax).toBe(100);
    tcb.cwndBytes = 120 * MSS;
    cc.ssthresh(tcb, 'dupacks', 1);
    expect(cc.wMax).toBe(120);
  });

  it('cubic fast convergence lowers W_max to W (1 + beta) / 2 at a loss below W_max: 80 -> 68', () => {
    const { cc, tcb } = afterLoss(100);
    tcb.cwndBytes = 80 * MSS;
    expect(cc.ssthresh(tcb, 'dupacks', 1)).toBe(56 * MSS);
    expect(cc.wMax).toBeCloseTo((80 * (1 + BETA)) / 2, 10);
    expect(cc.cwndPrior).toBe(80);
  });

  it('cubic without fast convergence keeps W_max = cwnd at a loss below W_max', () => {
    const { cc, tcb } = afterLoss(100, { fastConvergence: 0 });
    tcb.cwndBytes = 80 * MSS;
    cc.ssthresh(tcb, 'dupacks', 1);
    expect(cc.wMax).toBe(80);
  });

  it('cubic starts the epoch at the first congestion-avoidance ACK after the loss, with K from eq. 2', () => {
    const { cc, tcb } = afterLoss(100);
    expect(Number.isNaN(cc.epochStartS)).toBe(true);
    cc.increaseWindow(tcb, newAck(5));
    expect(cc.epochStartS).toBe(5);
    expect(cc.k).toBeCloseTo(Math.cbrt((100 * 0.3) / 0.4), 12);
    cc.increaseWindow(tcb, newAck(5.1));
    expect(cc.epochStartS).toBe(5);
  });

  it('cubic does not start the epoch on an ACK of no whole segment', () => {
    const { cc, tcb } = afterLoss(100);
    cc.increaseWindow(tcb, { nowS: 4, bytesAcked: 0, segmentsAcked: 0, duplicate: false });
    expect(Number.isNaN(cc.epochStartS)).toBe(true);
    expect(tcb.cwndBytes).toBe(70 * MSS);
  });

  it('cubic K after fast convergence is cbrt((W_max - cwnd_epoch) / C) = cbrt(30) for 80 -> 68 / 56', () => {
    const { cc, tcb } = afterLoss(100);
    tcb.cwndBytes = 80 * MSS;
    tcb.ssthreshBytes = cc.ssthresh(tcb, 'dupacks', 1);
    tcb.cwndBytes = tcb.ssthreshBytes;
    cc.increaseWindow(tcb, newAck(2));
    expect(cc.k).toBeCloseTo(Math.cbrt((68 - 56) / 0.4), 10);
  });

  it('cubic forgets W_max after a timeout: the next epoch has K = 0 and its origin at cwnd_epoch', () => {
    const { cc, tcb } = afterLoss(100);
    tcb.cwndBytes = 90 * MSS;
    tcb.ssthreshBytes = cc.ssthresh(tcb, 'timeout', 1);
    cc.onStateChange(tcb, 'loss', 1);
    expect(cc.wMax).toBe(0);
    expect(tcb.ssthreshBytes).toBe(63 * MSS);
    tcb.cwndBytes = 63 * MSS; // slow start done
    cc.increaseWindow(tcb, newAck(3));
    expect(cc.k).toBe(0);
    expect(cc.origin).toBe(63);
  });
});

describe('cubic window growth', () => {
  for (const segsPerAck of [1, 2]) {
    it(`cubic on a loss-free ACK clock follows W_cubic(t) = C (t - K)^3 + W_max after a loss (segmentsAcked = ${segsPerAck})`, () => {
      const { cc, tcb } = afterLoss(100);
      const trace: Array<{ t: number; cwnd: number }> = [];
      runRounds(cc, tcb, 60, { rttS: 0.1, segsPerAck }, trace);
      const k = cubicK(100, 70, C);
      const at = (t: number): number => {
        const p = trace.reduce((a, b) => (Math.abs(b.t - cc.epochStartS - t) < Math.abs(a.t - cc.epochStartS - t) ? b : a));
        return p.cwnd - wCubic(p.t - cc.epochStartS, k, 100, C);
      };
      // Within 0.1 segment at t = 0.5, 1, 2, 3, K and 5 s (the Reno-friendly region takes over at ~5.7 s).
      for (const t of [0.5, 1, 2, 3, k, 5]) expect(Math.abs(at(t))).toBeLessThan(0.1);
      const nearK = trace.reduce((a, b) => (Math.abs(b.t - cc.epochStartS - k) < Math.abs(a.t - cc.epochStartS - k) ? b : a));
      expect(nearK.cwnd).toBeCloseTo(100, 0);
    });
  }

  it('cubic target is clamped at 1.5 cwnd: the first ACK of a steep epoch adds (1.5 cwnd - cwnd) / cwnd = 0.5 MSS', () => {
    const cc = new Cubic(RFC);
    const tcb = makeTcb({ cwndBytes: 1000 * MSS });
    cc.ssthresh(tcb, 'dupacks', 0); // W_max = 1000 segments
    tcb.cwndBytes = 10 * MSS; // far below: W_cubic(0 + RTT) ~ 38 segments > 1.5 x 10
    tcb.ssthreshBytes = 10 * MSS;
    // At the epoch start W_cubic(0) = cwnd_epoch < W_est, so the very first ACK is Reno-friendly.
    cc.increaseWindow(tcb, newAck(1));
    const before = tcb.cwndBytes;
    expect(wCubic(0.05, cc.k, 1000, C)).toBeGreaterThan(cc.wEst); // cubic region from here on
    expect(wCubic(0.05 + 0.1, cc.k, 1000, C)).toBeGreaterThan(1.5 * (before / MSS));
    cc.increaseWindow(tcb, newAck(1.05));
    // (1.5 cwnd - cwnd) / cwnd = 0.5 segment, plus at most 1 byte of carried fraction.
    expect(tcb.cwndBytes - before).toBeGreaterThanOrEqual(500);
    expect(tcb.cwndBytes - before).toBeLessThanOrEqual(501);
  });

  it('cubic never shrinks cwnd on an ACK (target clamped below at cwnd)', () => {
    const cc = new Cubic(RFC);
    const tcb = makeTcb({ cwndBytes: 100 * MSS });
    cc.ssthresh(tcb, 'dupacks', 0);
    tcb.cwndBytes = 150 * MSS; // above W_max: K = 0, target >= cwnd
    tcb.ssthreshBytes = 70 * MSS;
    for (let i = 0; i < 50; i++) {
      const before = tcb.cwndBytes;
      cc.increaseWindow(tcb, newAck(i * 0.001));
      expect(tcb.cwndBytes).toBeGreaterThanOrEqual(before);
    }
  });

  it('cubic Reno-friendly region dominates for a small W_max x RTT: cwnd = W_est = beta W_max + alpha t / RTT', () => {
    const { cc, tcb } = afterLoss(10);
    const trace: Array<{ t: number; cwnd: number }> = [];
    runRounds(cc, tcb, 5, { rttS: 0.1 }, trace);
    const t = trace[5]!.t - cc.epochStartS;
    expect(wCubic(t, cc.k, 10, C)).toBeLessThan(cc.wEst); // in the Reno-friendly region
    expect(Math.abs(tcb.cwndBytes - cc.wEst * MSS)).toBeLessThan(1); // cwnd = W_est (whole bytes)
    // 5 RTTs with alpha = 0.529 (W_est still below cwnd_prior = 10): 7 + 2.65 segments, ACK granularity aside.
    expect(cc.wEst).toBeGreaterThan(7 + 5 * renoFriendlyAlpha(BETA) * (7 / 9));
    expect(cc.wEst).toBeLessThanOrEqual(7 + 5 * renoFriendlyAlpha(BETA) + 1e-9);
  });

  it('cubic with renoFriendly = 0 follows W_cubic even where W_est would be larger', () => {
    const { cc, tcb } = afterLoss(10, { renoFriendly: 0 });
    runRounds(cc, tcb, 5, { rttS: 0.1 });
    const t = 0.5 - cc.epochStartS;
    expect(tcb.cwndBytes / MSS).toBeLessThan(10); // still below W_max = 10, concave
    expect(Math.abs(tcb.cwndBytes / MSS - wCubic(t, cc.k, 10, C))).toBeLessThan(0.3);
  });

  it('cubic W_est grows by alpha x segmentsAcked / cwnd per ACK, and alpha = 1 once W_est >= cwnd_prior', () => {
    const { cc, tcb } = afterLoss(10);
    cc.increaseWindow(tcb, newAck(1, 1));
    expect(cc.wEst).toBeCloseTo(7 + renoFriendlyAlpha(BETA) / 7, 12);
    const w1 = tcb.cwndBytes / MSS;
    const est1 = cc.wEst;
    cc.increaseWindow(tcb, newAck(1.01, 2)); // a delayed ACK counts 2 segments
    expect(cc.wEst - est1).toBeCloseTo((2 * renoFriendlyAlpha(BETA)) / w1, 12);
    cc.wEst = 10; // reached cwnd_prior
    const w2 = tcb.cwndBytes / MSS;
    cc.increaseWindow(tcb, newAck(1.02, 1));
    expect(cc.wEst - 10).toBeCloseTo(1 / w2, 12);
  });

  it('cubic stops at the target when one ACK covers more than a window (full ACK after recovery)', () => {
    const { cc, tcb } = afterLoss(100);
    cc.increaseWindow(tcb, newAck(1)); // epoch starts at t = 1 s
    const cwnd = tcb.cwndBytes / MSS;
    cc.increaseWindow(tcb, newAck(2, 200));
    const target = wCubic(1 + 0.1, cc.k, 100, C);
    expect(tcb.cwndBytes / MSS).toBeLessThanOrEqual(target + 1 / MSS);
    expect(tcb.cwndBytes / MSS).toBeGreaterThan(cwnd);
  });

  it('cubic slow start adds segmentsAcked MSS and stops at ssthresh', () => {
    const cc = new Cubic(RFC);
    const tcb = makeTcb({ cwndBytes: 10 * MSS, ssthreshBytes: 11 * MSS });
    cc.increaseWindow(tcb, newAck(0, 1));
    expect(tcb.cwndBytes).toBe(11 * MSS);
    const fresh = makeTcb({ cwndBytes: 10 * MSS });
    cc.increaseWindow(fresh, newAck(0, 2));
    expect(fresh.cwndBytes).toBe(12 * MSS);
  });
});

describe('RFC 9438 4.10: cwnd_prior when the first slow start ends without a loss', () => {
  it("HyStart's exit sets cwnd_prior = cwnd at the exit, K = 0, W_max = that cwnd, and W_est grows with alpha = 1", () => {
    const cc = new Cubic({ ...RFC, hystart: 1, cntClamp: 0 });
    const tcb = makeTcb({ cwndBytes: 16 * MSS, srttS: 0.1, minRttS: 0.1, bytesInFlight: 1000 * MSS });
    // A slow start whose ACKs arrive 1 ms apart: the ACK train outlasts delayMin / 2 = 50 ms.
    let t = 1;
    for (let i = 0; i < 200 && !cc.hystart!.found; i++, t += 0.001) deliver(cc, tcb, newAck(t, 1, MSS, 0.1));
    expect(cc.hystart!.found).toBe(true);
    const exitCwnd = tcb.ssthreshBytes / MSS;
    expect(cc.cwndPrior).toBe(exitCwnd);
    expect([cc.k, cc.origin]).toEqual([0, exitCwnd]);
    const est = cc.wEst;
    const w = tcb.cwndBytes / MSS;
    deliver(cc, tcb, newAck(t, 1, MSS, 0.1));
    expect(cc.wEst - est).toBeCloseTo(1 / w, 12); // alpha_cubic = 1: W_est >= cwnd_prior from the start
  });

  it('reaching an initial ssthresh ends it too; a later loss sets cwnd_prior from the loss as before (4.6)', () => {
    const cc = new Cubic({ ...RFC, hystart: 0 });
    const tcb = makeTcb({ cwndBytes: 10 * MSS, ssthreshBytes: 12 * MSS });
    cc.increaseWindow(tcb, newAck(0, 1));
    expect(cc.cwndPrior).toBe(0); // still in slow start (cwnd 11)
    cc.increaseWindow(tcb, newAck(0.01, 2)); // cwnd 12 = ssthresh, one segment left for congestion avoidance
    expect(cc.cwndPrior).toBe(12);
    tcb.cwndBytes = 40 * MSS;
    cc.ssthresh(tcb, 'dupacks', 1);
    expect(cc.cwndPrior).toBe(40);
    cc.increaseWindow(tcb, newAck(2, 1));
    expect(cc.cwndPrior).toBe(40);
  });
});

describe('cubic before the first loss (W_max = 0): the cnt clamp', () => {
  /** One RTT of per-segment ACKs in congestion avoidance, starting at 100 segments (ssthresh 50). */
  function oneRtt(params: Record<string, number>): number {
    const cc = new Cubic({ ...RFC, hystart: 0, ...params });
    const tcb = makeTcb({ cwndBytes: 100 * MSS, ssthreshBytes: 50 * MSS, srttS: 0.1 });
    for (let i = 0; i < 100; i++) cc.increaseWindow(tcb, newAck(i * 0.001));
    return tcb.cwndBytes / MSS;
  }

  it('with cntClamp = 20 (Linux, ns-3) cwnd grows by cwnd/20 = 5 segments in the first RTT', () => {
    expect(oneRtt({})).toBeCloseTo(105, 1);
  });

  it('with cntClamp = 0 (RFC 9438 alone) it follows the curve from cwnd_epoch (K = 0): < 1 segment', () => {
    // W_cubic(t + RTT) - W = C (0.1 + 0.1)^3 = 0.0032 segments per segment... far below 1 in all.
    expect(oneRtt({ cntClamp: 0, renoFriendly: 0 })).toBeLessThan(101);
  });
});
