import { describe, expect, it } from 'vitest';
import { createCongestionControl } from '../../src/cc/registry.js';
import { VARIANTS } from '../../src/variants.js';
import { makeTcb, MSS } from './helpers.js';

/** A small deterministic generator (LCG), so the sequences below are the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PARAM_SETS: Record<string, Array<Record<string, number>>> = {
  tahoe: [{}],
  reno: [{}, { partialAcks: 1 }],
  newreno: [{}],
  westwood: [{}, { estimator: 0 }, { segmentCounting: 1, filter: 1 }],
  cubic: [{}, { hystart: 1 }, { fastConvergence: 0, renoFriendly: 0 }],
  dctcp: [{}, { g: 0.25, initialAlpha: 0.5 }],
};

describe('invariants of every algorithm on random ACK streams', () => {
  // Window-based algorithms (rate-based ones set cwnd in congControl: test/cc/bbr.test.ts).
  for (const id of VARIANTS.filter((v) => createCongestionControl(v).congControl === undefined)) {
    for (const params of PARAM_SETS[id]!) {
      it(`${id}${JSON.stringify(params)}: cwnd stays whole bytes, never shrinks on an ACK, ssthresh >= 2 MSS`, () => {
        const rand = lcg(42);
        const cc = createCongestionControl(id, params);
        const tcb = makeTcb({ cwndBytes: 10 * MSS, ssthreshBytes: Infinity, bytesInFlight: 10 * MSS });
        let t = 0;
        const bad: string[] = [];
        for (let i = 0; i < 20_000 && bad.length === 0; i++) {
          t += 0.0005 + rand() * 0.002;
          const r = rand();
          if (r < 0.002) {
            // A loss event or an ECN-Echo (an ECN flow's window cut), handled the way the sender does.
            const kind = r < 0.0005 ? 'timeout' : r < 0.001 ? 'ecn' : 'dupacks';
            tcb.bytesInFlight = Math.max(MSS, Math.floor(tcb.cwndBytes * (0.5 + rand() / 2)));
            const ss = cc.ssthresh(tcb, kind, t);
            if (!(ss >= 2 * MSS) || !Number.isInteger(ss)) bad.push(`ssthresh ${ss} at ${i}`);
            tcb.ssthreshBytes = ss;
            tcb.caState = kind === 'timeout' ? 'loss' : kind === 'ecn' ? 'cwr' : 'recovery';
            cc.onStateChange?.(tcb, tcb.caState, t);
            tcb.cwndBytes = kind === 'timeout' || cc.recovery === 'none' ? MSS : ss;
            tcb.caState = 'open';
            cc.onStateChange?.(tcb, 'open', t);
            continue;
          }
          const dup = r < 0.02;
          const segs = dup ? 0 : r < 0.5 ? 1 : 2;
          const ack = { nowS: t, bytesAcked: segs * MSS, segmentsAcked: dup ? 1 : segs, duplicate: dup, rttS: 0.05 + rand() * 0.05 };
          tcb.srttS = 0.075;
          tcb.minRttS = 0.05;
          cc.onEcnAck?.(tcb, { nowS: t, ece: rand() < 0.1, deliveredBytes: segs * MSS, ackNo: i * MSS, sndNxt: (i + 10) * MSS });
          cc.onAck?.(tcb, ack);
          if (dup) continue;
          const before = tcb.cwndBytes;
          cc.increaseWindow(tcb, ack);
          const grew = tcb.cwndBytes - before;
          // Growth per ACK: never negative, whole bytes, at most segmentsAcked MSS of slow start plus
          // one congestion-avoidance step (ns-3 spends a segment that crosses ssthresh on both).
          if (grew < 0 || !Number.isInteger(tcb.cwndBytes) || grew > (segs + 1) * MSS) {
            bad.push(`ACK ${i}: cwnd ${before} -> ${tcb.cwndBytes}`);
          }
        }
        expect(bad).toEqual([]);
        expect(tcb.cwndBytes).toBeGreaterThanOrEqual(MSS);
      });
    }
  }
});
