import { describe, expect, it } from 'vitest';
import { prrSendQuota } from '../../src/tcp/recovery/prr.js';

/**
 * Drives RFC 6937's per-ACK computation through a recovery episode in which every ACK delivers
 * `deliveredPerAck` and the sender sends exactly sndcnt (bulk data, as the RFC's examples assume):
 * pipe falls by what the ACK delivered and rises by what is sent.
 * @returns sndcnt per ACK and pipe after each ACK's transmissions.
 */
function episode(o: { ssthresh: number; recoverFs: number; pipe0: number; acks: number; deliveredPerAck: number; mss: number }) {
  let prrDelivered = 0;
  let prrOut = 0;
  let pipe = o.pipe0;
  const sent: number[] = [];
  const pipes: number[] = [];
  for (let k = 0; k < o.acks; k++) {
    prrDelivered += o.deliveredPerAck;
    pipe -= o.deliveredPerAck;
    const sndcnt = prrSendQuota({
      prrDelivered,
      prrOut,
      recoverFs: o.recoverFs,
      ssthresh: o.ssthresh,
      pipe,
      deliveredData: o.deliveredPerAck,
      mss: o.mss,
    });
    prrOut += sndcnt;
    pipe += sndcnt;
    sent.push(sndcnt);
    pipes.push(pipe);
  }
  return { sent, pipes, prrOut };
}

describe('RFC 6937 PRR per-ACK quota (in segments, as the RFC examples count)', () => {
  it('single loss, ssthresh 10, RecoverFS 20: one segment on every other ACK while pipe > ssthresh, then pipe held at ssthresh', () => {
    // RFC 6937 section 5's first example: cwnd = FlightSize = 20, one segment lost, ssthresh 10.
    // Proportional part: sndcnt = CEIL(k * 10 / 20) - prr_out on the k-th ACK: 1, 0, 1, 0, ...
    // Pipe starts at 19 (the lost segment is not in flight) and loses one per ACK, gains what is
    // sent: after ACK 2j it is 19 - j. ACK 17 finds pipe = 10 = ssthresh, so the reduction bound
    // takes over: sndcnt = MIN(ssthresh - pipe, ...) = 0, and from then on one per ACK keeps pipe at 10.
    const r = episode({ ssthresh: 10, recoverFs: 20, pipe0: 19, acks: 20, deliveredPerAck: 1, mss: 1 });
    expect(r.sent).toEqual([1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1]);
    expect(r.pipes.slice(0, 4)).toEqual([19, 18, 18, 17]);
    expect(r.pipes.slice(-4)).toEqual([10, 10, 10, 10]);
    // The RFC's target: pipe (and cwnd = pipe + sndcnt) ends at ssthresh, not below it.
    expect(Math.min(...r.pipes)).toBe(10);
  });

  it('the proportional part alone sends exactly ssthresh when RecoverFS has been delivered', () => {
    // pipe kept far above ssthresh (huge pipe0) so only CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out acts.
    const r = episode({ ssthresh: 7, recoverFs: 20, pipe0: 1000, acks: 20, deliveredPerAck: 1, mss: 1 });
    expect(r.prrOut).toBe(7);
    // After every ACK, prr_out = CEIL(prr_delivered * 7 / 20): the rate is 7/20 of the delivery rate.
    let out = 0;
    r.sent.forEach((s, k) => {
      out += s;
      expect(out).toBe(Math.ceil(((k + 1) * 7) / 20));
    });
  });

  it('in bytes (MSS 1000): CEIL rounds bytes, total sent over RecoverFS is ssthresh bytes', () => {
    const r = episode({ ssthresh: 10_000, recoverFs: 20_000, pipe0: 1e9, acks: 20, deliveredPerAck: 1000, mss: 1000 });
    expect(r.sent.slice(0, 2)).toEqual([500, 500]);
    expect(r.prrOut).toBe(10_000);
  });

  it('15 of 20 lost: the slow-start reduction bound grows pipe by one segment per ACK up to ssthresh, then holds it', () => {
    // RFC 6937 section 5's second example: a burst leaves pipe = 5 < ssthresh = 10. PRR-SSRB:
    //   limit = MAX(prr_delivered - prr_out, DeliveredData) + MSS = MAX(0, 1) + 1 = 2 (the first ACK: MAX(1, 1) + 1)
    //   sndcnt = MIN(ssthresh - pipe, limit)
    // so each ACK sends 2 for 1 delivered (slow start) until pipe reaches ssthresh.
    const r = episode({ ssthresh: 10, recoverFs: 20, pipe0: 5, acks: 10, deliveredPerAck: 1, mss: 1 });
    expect(r.sent).toEqual([2, 2, 2, 2, 2, 1, 1, 1, 1, 1]);
    expect(r.pipes).toEqual([6, 7, 8, 9, 10, 10, 10, 10, 10, 10]);
  });

  it('the reduction bound never sends more than ssthresh - pipe nor more than DeliveredData + MSS beyond what was owed', () => {
    // pipe = 2, ssthresh = 10: ssthresh - pipe = 8, but limit = MAX(3 - 0, 3) + 1 = 4.
    expect(prrSendQuota({ prrDelivered: 3, prrOut: 0, recoverFs: 20, ssthresh: 10, pipe: 2, deliveredData: 3, mss: 1 })).toBe(4);
    // prr_delivered - prr_out larger than DeliveredData: the backlog counts (limit = 6 + 1).
    expect(prrSendQuota({ prrDelivered: 8, prrOut: 2, recoverFs: 20, ssthresh: 10, pipe: 1, deliveredData: 1, mss: 1 })).toBe(7);
    // pipe = ssthresh - 1: one segment, whatever limit allows.
    expect(prrSendQuota({ prrDelivered: 8, prrOut: 2, recoverFs: 20, ssthresh: 10, pipe: 9, deliveredData: 1, mss: 1 })).toBe(1);
  });

  it('never negative: prr_out ahead of the proportional share gives 0', () => {
    // CEIL(2 * 10 / 20) - 3 = -2 -> 0 (e.g. after the forced fast retransmit and rule-3 sends).
    expect(prrSendQuota({ prrDelivered: 2, prrOut: 3, recoverFs: 20, ssthresh: 10, pipe: 15, deliveredData: 1, mss: 1 })).toBe(0);
    // pipe = ssthresh exactly uses the bound: MIN(0, ...) = 0.
    expect(prrSendQuota({ prrDelivered: 2, prrOut: 0, recoverFs: 20, ssthresh: 10, pipe: 10, deliveredData: 1, mss: 1 })).toBe(0);
  });
});
