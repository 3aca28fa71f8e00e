import { describe, expect, it } from 'vitest';
import type { CongestionControl, RateSample } from '../../src/cc/types.js';
import { RateSampler } from '../../src/tcp/rate-sampler.js';
import { bareSender } from '../helpers/bareSender.js';

/**
 * Delivery-rate samples on a bare sender (no network): the test sets the clock, hands ACKs in, and
 * checks each sample against Linux tcp_rate.c's rules worked out by hand. MSS 100 bytes, times in ms.
 * The algorithm holds cwnd at 10 segments, so what the sender sends is known.
 */
const MSS = 100;
const MS = 1e6;

function setup(o: { sack?: boolean; appSegments?: number | null; cwndSegments?: number } = {}) {
  const cwndSegments = o.cwndSegments ?? 10;
  const samples: RateSample[] = [];
  const cc: CongestionControl = {
    id: 'reno',
    recovery: 'newreno',
    ssthresh: (tcb) => tcb.ssthreshBytes,
    increaseWindow: () => {
      throw new Error('increaseWindow must not be called when congControl is present');
    },
    congControl: (tcb, rs) => {
      samples.push({ ...rs });
      tcb.cwndBytes = cwndSegments * MSS;
    },
  };
  const bare = bareSender(cc, { mssBytes: MSS, initialCwndSegments: cwndSegments, sack: o.sack ?? true });
  const { sender, sim, sent } = bare;
  const app = o.appSegments === undefined ? null : o.appSegments;
  sender.startApp(app === null ? null : app * MSS);
  /** An ACK at tMs of segment n (cumulative) with SACK blocks in segments: the sample it produced. */
  const ack = (tMs: number, n: number, blocks: [number, number][] = []): RateSample => {
    bare.ack(tMs, n, blocks);
    return samples[samples.length - 1]!;
  };
  return { sender, sim, ack, sent, samples };
}

/** The fields a hand-worked sample pins down (ms and bytes). */
function view(rs: RateSample) {
  return {
    delivered: rs.deliveredBytes,
    intervalMs: rs.intervalS < 0 ? -1 : +(rs.intervalS * 1000).toFixed(9),
    sendMs: +(rs.sendIntervalS * 1000).toFixed(9),
    ackMs: +(rs.ackIntervalS * 1000).toFixed(9),
    appLimited: rs.isAppLimited,
    retrans: rs.isRetrans,
    ackedSacked: rs.ackedSackedBytes,
    priorDelivered: rs.priorDeliveredBytes,
    priorInFlight: rs.priorInFlightBytes,
  };
}

describe('RateSampler (Linux tcp_rate.c) on a bare sender', () => {
  it('in-order ACKs: the first flight measures from its start; a segment sent at an ACK measures one flight later', () => {
    const { ack, sent, sender } = setup();
    expect(sent.map((s) => s.seg)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // ACK of segment 0 at 100 ms: sampled segment 0 (sent at 0 with delivered 0, delivered time 0).
    const first = ack(100, 1);
    expect(view(first)).toEqual({ delivered: 100, intervalMs: 100, sendMs: 0, ackMs: 100, appLimited: false, retrans: false, ackedSacked: 100, priorDelivered: 0, priorInFlight: 1000 });
    expect(first.rttS).toBeCloseTo(0.1, 12);
    expect(first.deliveryRateBps).toBeCloseTo((100 * 8) / 0.1, 6);
    // Segment 10 went out at 100 ms, recording delivered = 100, delivered time 100 ms, first_tx = 0.
    expect(sent[10]).toEqual({ seg: 10, retx: false, tMs: 100 });
    // ACKs 2..10, 10 ms apart: each samples a first-flight segment (prior delivered 0, time 0).
    for (let k = 2; k <= 10; k++) {
      const t = 100 + (k - 1) * 10;
      expect(view(ack(t, k))).toMatchObject({ delivered: 100 * k, intervalMs: t, sendMs: 0, ackMs: t, priorDelivered: 0 });
    }
    // Segment 10's ACK at 200 ms: delivered 1100 - 100 = 1000 bytes over max(100 - 0, 200 - 100) = 100 ms.
    const steady = ack(200, 11);
    expect(view(steady)).toMatchObject({ delivered: 1000, intervalMs: 100, sendMs: 100, ackMs: 100, priorDelivered: 100 });
    expect(steady.deliveryRateBps).toBeCloseTo(80_000, 6);
    expect(steady.rttS).toBeCloseTo(0.1, 12);
    expect(sender.rate!.deliveredBytes).toBe(1100);
    expect(sender.rate!.deliveredTimeS).toBeCloseTo(0.2, 12);
    expect(sender.rate!.firstTxTimeS).toBeCloseTo(0.1, 12);
  });

  it('a delayed ACK delivers two segments: the later-sent (ties: the higher) is the sampled one', () => {
    const { ack } = setup();
    const rs = ack(100, 2);
    expect(view(rs)).toMatchObject({ delivered: 200, intervalMs: 100, ackedSacked: 200, priorDelivered: 0 });
    // Segments 10 and 11 went out at 100 ms recording delivered 200; ACKed together at 200 ms with 2..3.
    for (let k = 4; k <= 10; k += 2) ack(100 + k * 5, k);
    const later = ack(200, 12);
    expect(view(later)).toMatchObject({ delivered: 1000, intervalMs: 100, sendMs: 100, ackMs: 100, ackedSacked: 200, priorDelivered: 200 });
  });

  it('a SACK hole repaired: SACKed segments deliver at once; the retransmission samples its own flight, counted once', () => {
    // 10 segments of application data, segment 1 lost.
    const { ack, sent, sender } = setup({ appSegments: 10 });
    expect(view(ack(100, 1))).toMatchObject({ delivered: 100, intervalMs: 100 });
    // Nothing more to send and pipe 900 < cwnd 1000: app-limited until 100 + 900 bytes are delivered.
    expect(sender.rate!.appLimitedUntilBytes).toBe(1000);
    expect(view(ack(120, 1, [[2, 3]]))).toMatchObject({ delivered: 200, intervalMs: 120, ackedSacked: 100, appLimited: false });
    expect(view(ack(130, 1, [[2, 4]]))).toMatchObject({ delivered: 300, intervalMs: 130, ackedSacked: 100 });
    // Third SACKed segment above the hole: RFC 6675 IsLost(1), recovery, segment 1 resent at 140 ms
    // recording delivered 400, delivered time 140 ms, first_tx 0 (segment 4's send), app-limited.
    const atLoss = ack(140, 1, [[2, 5]]);
    expect(view(atLoss)).toMatchObject({ delivered: 400, intervalMs: 140, ackedSacked: 100, priorInFlight: 700 });
    expect(atLoss.lostBytes).toBe(100);
    expect(sender.tcb.caState).toBe('recovery');
    // (Segment 9 too: RFC 6675 rule 4's rescue retransmission, cwnd having room and no new data.)
    expect(sent.filter((s) => s.retx)).toEqual([
      { seg: 1, retx: true, tMs: 140 },
      { seg: 9, retx: true, tMs: 140 },
    ]);
    // Cumulative ACK of 1..4 at 240 ms: only segment 1 is new (2..4 were SACKed, not counted twice).
    const repaired = ack(240, 5);
    expect(view(repaired)).toEqual({ delivered: 100, intervalMs: 140, sendMs: 140, ackMs: 100, appLimited: true, retrans: true, ackedSacked: 100, priorDelivered: 400, priorInFlight: 600 });
    expect(repaired.rttS).toBe(-1); // Karn: only a retransmission was delivered
    expect(repaired.lostBytes).toBe(0);
    expect(sender.rate!.deliveredBytes).toBe(500);
  });

  it("BBRv3's tx_in_flight and tx.lost (Google v3 tcp_rate.c): pipe just after the sampled segment's send, and bytes marked lost since", () => {
    const inOrder = setup();
    // Segment 0 went out first: pipe 100 with it. Segment 10 went out at 100 ms into a pipe of 900.
    expect(inOrder.ack(100, 1)).toMatchObject({ txInFlightBytes: 100, lostSinceTxBytes: 0 });
    for (let k = 2; k <= 10; k++) inOrder.ack(100 + (k - 1) * 10, k);
    expect(inOrder.ack(200, 11)).toMatchObject({ txInFlightBytes: 1000, lostSinceTxBytes: 0 });

    const hole = setup({ appSegments: 10 });
    hole.ack(100, 1);
    hole.ack(120, 1, [[2, 3]]);
    hole.ack(130, 1, [[2, 4]]);
    // Segment 4 (sent fifth, pipe 500) is the sampled one; segment 1 was marked lost since it was sent.
    expect(hole.ack(140, 1, [[2, 5]])).toMatchObject({ txInFlightBytes: 500, lostSinceTxBytes: 100 });
    // Segment 1's retransmission went into a pipe of 500 (1..9 out, 2..4 SACKed, 1 lost): 600 with
    // it; nothing was marked lost after it.
    expect(hole.ack(240, 5)).toMatchObject({ txInFlightBytes: 600, lostSinceTxBytes: 0 });
  });

  it('an app-limited period: segments sent in it give app-limited samples until its bytes are delivered', () => {
    const { ack, sender, sim, sent } = setup({ appSegments: 10 });
    ack(100, 1);
    expect(sender.rate!.appLimitedUntilBytes).toBe(1000);
    // The application writes 20 more segments at 105 ms: segment 10 goes out inside the period.
    sim.nowNs = 105 * MS;
    sender.startApp(30 * MSS);
    expect(sent[10]).toEqual({ seg: 10, retx: false, tMs: 105 });
    // First-flight segments were sent before the period: their samples are not app-limited.
    for (let k = 2; k <= 10; k++) expect(ack(100 + (k - 1) * 10, k).isAppLimited).toBe(false);
    // delivered = 1000, not above 1000: still in the period.
    expect(sender.rate!.appLimitedUntilBytes).toBe(1000);
    // Segment 10's ACK at 205 ms: app-limited sample (delivered 1100 - 100 over max(105, 105) ms);
    // delivered 1100 > 1000 ends the period.
    const rs = ack(205, 11);
    expect(view(rs)).toMatchObject({ delivered: 1000, intervalMs: 105, sendMs: 105, ackMs: 105, appLimited: true });
    expect(sender.rate!.appLimitedUntilBytes).toBe(0);
    // Segment 11 (sent at 110 ms, in the period) still samples app-limited; segment 20, sent at
    // 205 ms after the period ended, does not.
    expect(ack(210, 12).isAppLimited).toBe(true);
    for (let k = 13; k <= 20; k++) ack(210 + (k - 12) * 10, k);
    expect(sent.find((s) => s.seg === 20)?.tMs).toBe(205);
    expect(ack(305, 21).isAppLimited).toBe(false);
    // The connection keeps the last non-app-limited sample (Linux rate_delivered / rate_interval_us).
    expect(sender.rate!.rateAppLimited).toBe(false);
  });

  it('without SACK a duplicate ACK delivers one segment (Linux tcp_add_reno_sack) but no rate sample; the cumulative ACK counts the rest', () => {
    const { ack, sender } = setup({ sack: false });
    ack(100, 1);
    const dup = ack(110, 1);
    expect([dup.deliveredBytes, dup.intervalS, dup.deliveryRateBps, dup.ackedSackedBytes]).toEqual([-1, -1, 0, 100]);
    expect(sender.rate!.deliveredBytes).toBe(200);
    // The ACK of segments 1 and 2 (one of them already counted by the duplicate ACK) delivers 100 more.
    expect(ack(120, 3).ackedSackedBytes).toBe(100);
    expect(sender.rate!.deliveredBytes).toBe(300);
  });

  it("without SACK the ACK that fills a hole delivers at least its segment (Linux tcp_remove_reno_sacks: max(acked - sacked_out, 1))", () => {
    const { ack, sender } = setup({ sack: false });
    ack(100, 1);
    // Segment 1 lost: three duplicate ACKs at 110-130 ms deliver segments 2, 3, 4 (credit 300 bytes).
    for (const t of [110, 120, 130]) expect(ack(t, 1).ackedSackedBytes).toBe(100);
    expect(sender.rate!.deliveredBytes).toBe(400);
    // A partial ACK of 1..2 at 240 ms (the retransmission of 1 arrived; 2 was counted by a duplicate
    // ACK): 2 segments acked, 3 SACKed in Linux's emulation: max(2 - 3, 1) = 1 segment delivered,
    // and 2 - 1 = 1 segment of credit used. Eating the whole credit would deliver nothing.
    expect(ack(240, 3).ackedSackedBytes).toBe(100);
    expect(sender.rate!.deliveredBytes).toBe(500);
    // The ACK of 3..9 (7 segments; credit left 200): 7 - 2 = 5 segments.
    expect(ack(250, 10).ackedSackedBytes).toBe(500);
    expect(sender.rate!.deliveredBytes).toBe(1000);
  });

  it('the minimum is the newest segment RTT, taken before the check (Linux tcp_update_rtt_min, then tcp_rate_gen)', () => {
    const { ack, sender } = setup();
    ack(100, 1);
    expect(sender.rate!.minRttS).toBeCloseTo(0.1, 12);
    // Segments 1..10 ACKed at 150 ms: the newest, segment 10, left at 100 ms: RTT 50 ms, the new
    // minimum. Sampled segment 10: send interval 100 ms, ACK interval 50 ms: 100 ms.
    expect(view(ack(150, 11))).toMatchObject({ sendMs: 100, ackMs: 50, intervalMs: 100 });
    expect(sender.rate!.minRttS).toBeCloseTo(0.05, 12);
    // Nothing was outstanding when segment 11 left at 150 ms: first_tx and the delivered time restart
    // there (Linux !packets_out). Its ACK at 190 ms: RTT 40 ms lowers the minimum first, then the
    // interval max(0, 40) = 40 ms is not below it: a valid sample of 100 bytes in 40 ms.
    const rs = ack(190, 12);
    expect(view(rs)).toMatchObject({ delivered: 100, sendMs: 0, ackMs: 40, intervalMs: 40 });
    expect(rs.deliveryRateBps).toBeCloseTo((100 * 8) / 0.04, 6);
    expect(sender.rate!.minRttS).toBeCloseTo(0.04, 12);
    // The timestamp minimum (every ACK here echoes 0) is 100 ms: checked against it, as before, the
    // sample was thrown away.
    expect(sender.tcb.minRttS).toBeCloseTo(0.1, 12);
  });

  it('an interval below the minimum RTT is invalid (Linux: interval_us < tcp_min_rtt): a retransmission, which times nothing, ACKed sooner', () => {
    const r = new RateSampler(MSS);
    r.onSend(0, 0, false, true, 0);
    r.beginAck(100 * MS, MSS, 0);
    r.delivered(0, MSS);
    expect(r.endAck(0).intervalS).toBeCloseTo(0.1, 12);
    expect(r.minRttS).toBeCloseTo(0.1, 12);
    // Segment 1 resent at 150 ms onto an empty pipe (first_tx and the delivered time restart there)
    // and ACKed at 200 ms: Karn gives no RTT, the interval is 50 ms < 100 ms: invalid.
    r.onSend(MSS, 150 * MS, true, true, MSS);
    r.beginAck(200 * MS, MSS, 0);
    r.delivered(MSS, 2 * MSS);
    const rs = r.endAck(0);
    expect([rs.rttS, rs.deliveredBytes, rs.intervalS, rs.deliveryRateBps, rs.ackIntervalS]).toEqual([-1, MSS, -1, 0, 0.05]);
    expect(r.minRttS).toBeCloseTo(0.1, 12);
  });
});

describe('the minimum RTT a rate sample is checked against (Linux tcp_min_rtt: the RTT of the newest (S)ACKed segment)', () => {
  /**
   * An application writes one segment every 10 ms over a 100 ms path; the receiver ACKs every second
   * segment when it arrives, echoing the timestamp of the first of the pair (RFC 7323 3.4), so the
   * timestamp RTT of every ACK is 110 ms while the segment that triggered it took 100 ms. Linux feeds
   * tp->rtt_min with ca_rtt_us, the RTT of the most recently sent segment the ACK covers (tcp_clean_rtx_queue
   * last_ackt, tcp_update_rtt_min), and tcp_rate_gen compares the interval with that: 100 ms.
   */
  function pacedByTheApp() {
    const t = setup({ appSegments: 1, cwndSegments: 20 }); // segment 0 written and sent at 0
    const { sim, sender, sent } = t;
    /** The application writes segment k at 10k ms. */
    const write = (k: number) => {
      sim.nowNs = 10 * k * MS;
      sender.startApp((k + 1) * MSS);
      expect(sent[sent.length - 1]).toEqual({ seg: k, retx: false, tMs: 10 * k });
    };
    /** The receiver's ACK of the pair (k - 2, k - 1) at the second's arrival, echoing the first's send time. */
    const pairAck = (k: number): RateSample => {
      sim.nowNs = (10 * (k - 1) + 100) * MS;
      sender.onAck(k * MSS, 10 * (k - 2) * MS, 1e9);
      return t.samples[t.samples.length - 1]!;
    };
    return { ...t, write, pairAck };
  }

  it('a steady sample whose interval equals the path RTT is valid although the timestamp RTT of every ACK is 10 ms longer', () => {
    const { write, pairAck, sender } = pacedByTheApp();
    for (let k = 1; k <= 10; k++) write(k);
    // ACK of 0 and 1 at 110 ms (echo 0): timestamp RTT 110 ms, segment 1's RTT 100 ms. Sampled
    // segment 1 (recorded delivered 0 at time 0, first_tx 0): 200 bytes over max(10, 110) ms.
    const first = pairAck(2);
    expect(view(first)).toMatchObject({ delivered: 200, sendMs: 10, ackMs: 110, intervalMs: 110 });
    expect(first.rttS).toBeCloseTo(0.1, 12);
    expect(sender.tcb.minRttS).toBeCloseTo(0.11, 12);
    // Segment 11 is written at 110 ms, after that ACK: it records delivered 200, delivered time
    // 110 ms and first_tx 10 ms (segment 1's send, the last one delivered).
    write(11);
    for (let k = 12; k <= 13; k++) write(k);
    // ACKs of the pairs (2,3) ... (8,9) at 130 ... 190 ms: the first flight, intervals 130 ... 190 ms.
    for (let k = 4; k <= 10; k += 2) expect(pairAck(k).intervalS).toBeCloseTo((10 * (k - 1) + 100) / 1000, 12);
    // ACK of (10, 11) at 210 ms, echo 100 ms: timestamp RTT 110 ms; segment 11's RTT 100 ms. Sampled
    // segment 11: delivered 1200 - 200 = 1000 bytes, send interval 110 - 10 = 100 ms, ACK interval
    // 210 - 110 = 100 ms: interval 100 ms, not below the minimum RTT of 100 ms: a valid sample of
    // 80 kbit/s, the application's rate (100 bytes every 10 ms). Checked against the timestamp
    // minimum (110 ms) it was thrown away.
    const steady = pairAck(12);
    expect(sender.tcb.minRttS).toBeCloseTo(0.11, 12);
    expect(steady.rttS).toBeCloseTo(0.1, 12);
    expect(view(steady)).toMatchObject({ delivered: 1000, sendMs: 100, ackMs: 100, intervalMs: 100, priorDelivered: 200, appLimited: true });
    expect(steady.deliveryRateBps).toBeCloseTo(80_000, 6);
    expect(sender.rate!.minRttS).toBeCloseTo(0.1, 12);
  });
});
