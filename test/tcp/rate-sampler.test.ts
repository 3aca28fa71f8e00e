import { describe, expect, it } from 'vitest';
import type { CongestionControl, RateSample } from '../../src/cc/types.js';
import { Simulator } from '../../src/engine/simulator.js';
import { LazyTimer } from '../../src/engine/timer.js';
import { TcpSender } from '../../src/tcp/sender.js';

/**
 * Delivery-rate samples on a bare sender (no network): the test sets the clock, hands ACKs in, and
 * checks each sample against Linux tcp_rate.c's rules worked out by hand. MSS 100 bytes, times in ms.
 * The algorithm holds cwnd at 10 segments, so what the sender sends is known.
 */
const MSS = 100;
const MS = 1e6;

function setup(o: { sack?: boolean; appSegments?: number | null } = {}) {
  const samples: RateSample[] = [];
  const sent: { seg: number; retx: boolean; tMs: number }[] = [];
  const sim: Simulator = new Simulator(() => sender.onRtoEvent());
  const cc: CongestionControl = {
    id: 'reno',
    recovery: 'newreno',
    ssthresh: (tcb) => tcb.ssthreshBytes,
    increaseWindow: () => {
      throw new Error('increaseWindow must not be called when congControl is present');
    },
    congControl: (tcb, rs) => {
      samples.push({ ...rs });
      tcb.cwndBytes = 10 * MSS;
    },
  };
  const port = { sendData: (_f: number, seq: number, _len: number, retx: boolean) => sent.push({ seg: seq / MSS, retx, tMs: sim.nowNs / MS }) };
  const sender: TcpSender = new TcpSender(
    0,
    sim,
    cc,
    port,
    {
      mssBytes: MSS,
      initialCwndSegments: 10,
      initialSsthreshBytes: null,
      minRtoS: 1,
      maxRtoS: 60,
      clockGranularityS: 0.001,
      dupAckThreshold: 3,
      sndBufBytes: 1e9,
      initialRwndBytes: 1e9,
      sack: o.sack ?? true,
      recovery: 'classic',
    },
    new LazyTimer(sim, 1, 0),
  );
  const app = o.appSegments === undefined ? null : o.appSegments;
  sender.startApp(app === null ? null : app * MSS);
  /** An ACK at tMs of segment n (cumulative) with SACK blocks in segments; timestamps echo t = 0. */
  const ack = (tMs: number, n: number, blocks: [number, number][] = []): RateSample => {
    sim.nowNs = tMs * MS;
    const b = new Float64Array(2 * blocks.length);
    blocks.forEach(([s, e], i) => {
      b[2 * i] = s * MSS;
      b[2 * i + 1] = e * MSS;
    });
    sender.onAck(n * MSS, 0, 1e9, blocks.length, b);
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

  it('a sample whose interval is below the minimum RTT is invalid (Linux: interval_us < tcp_min_rtt)', () => {
    const { ack, sender } = setup();
    ack(100, 1);
    expect(sender.tcb.minRttS).toBeCloseTo(0.1, 12);
    // Segment 10 (sent at 100 ms) ACKed with segments 1..9 at 150 ms: send interval 100 ms, ACK
    // interval 50 ms: 100 ms, valid.
    expect(view(ack(150, 11))).toMatchObject({ sendMs: 100, ackMs: 50, intervalMs: 100 });
    // Nothing was outstanding when segment 11 left at 150 ms: first_tx and the delivered time restart
    // there (Linux !packets_out). Its ACK at 190 ms: send interval 0, ACK interval 40 ms < 100 ms.
    const rs = ack(190, 12);
    expect(view(rs)).toMatchObject({ delivered: 100, sendMs: 0, ackMs: 40, intervalMs: -1 });
    expect(rs.deliveryRateBps).toBe(0);
  });
});
