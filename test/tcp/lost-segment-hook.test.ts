import { describe, expect, it } from 'vitest';
import type { CongestionControl, LostSegment } from '../../src/cc/types.js';
import { bareSender } from '../helpers/bareSender.js';

/**
 * The sender's lost-segment hook (Linux tcp_mark_skb_lost -> tcp_notify_skb_loss_event ->
 * icsk_ca_ops->skb_marked_lost) on a bare sender: the test sets the clock and hands ACKs in; a
 * rate-based algorithm holding cwnd at 10 segments logs every hook call. MSS 100 bytes, times in ms.
 */
const MSS = 100;
const MS = 1e6;

interface Lost {
  seg: number;
  size: number;
  txInFlight: number;
  lostSinceTx: number;
  appLimited: boolean;
  delivered: number;
  connLost: number;
  tMs: number;
}

function setup(o: { sack?: boolean; appSegments?: number; hook?: boolean } = {}) {
  const log: string[] = [];
  const lost: Lost[] = [];
  const cc: CongestionControl = {
    id: 'bbr3',
    recovery: 'newreno',
    ssthresh: (tcb) => tcb.ssthreshBytes,
    increaseWindow: () => undefined,
    onStateChange: (_tcb, state) => log.push(`state:${state}`),
    congControl: (tcb) => {
      log.push('ack');
      tcb.cwndBytes = 10 * MSS;
    },
  };
  if (o.hook !== false) {
    cc.onPacketLost = (_tcb, p: LostSegment, conn, nowS) => {
      log.push(`lost:${p.seq / MSS}`);
      // conn.lostBytes is the last ACK's count; the sender's scoreboard has the running one.
      lost.push({ seg: p.seq / MSS, size: p.sizeBytes, txInFlight: p.txInFlightBytes, lostSinceTx: p.lostSinceTxBytes, appLimited: p.isAppLimited, delivered: conn.deliveredBytes, connLost: sender.sb.markedLostBytes, tMs: nowS * 1000 });
    };
  }
  const { sender, sim, sent, ack } = bareSender(cc, { mssBytes: MSS, sack: o.sack ?? true });
  sender.startApp(o.appSegments === undefined ? null : o.appSegments * MSS);
  return { sender, sim, ack, sent, lost, log };
}

describe('lost-segment hook (Linux skb_marked_lost; draft-ietf-ccwg-bbr HandleLostPacket)', () => {
  it('RFC 6675 IsLost: the third SACK above a hole reports that segment once, with its send-time state, before the ACK reaches congControl', () => {
    const { ack, lost, log } = setup({ appSegments: 10 });
    ack(100, 1);
    ack(120, 1, [[2, 3]]);
    ack(130, 1, [[2, 4]]);
    expect(lost).toEqual([]);
    log.length = 0;
    ack(140, 1, [[2, 5]]);
    // Segment 1 went out second at t = 0 (pipe 200 with it, nothing lost yet); now tp->lost = 100
    // bytes, this segment; 100 + 3 SACKed segments delivered when it is marked.
    expect(lost).toEqual([{ seg: 1, size: MSS, txInFlight: 200, lostSinceTx: 100, appLimited: false, delivered: 400, connLost: 100, tMs: 140 }]);
    // Marked while the ACK is processed, then recovery starts, then the rate sample (Linux:
    // tcp_fastretrans_alert marks, tcp_enter_recovery, then tcp_cong_control).
    expect(log).toEqual(['lost:1', 'state:recovery', 'ack']);
  });

  it('a retransmission lost again (RFC 8985 sent-after rule) reports the retransmission\'s own send state', () => {
    const { ack, lost, sent } = setup();
    ack(100, 1);
    ack(120, 1, [[2, 3]]);
    ack(130, 1, [[2, 4]]);
    ack(140, 1, [[2, 5]]);
    // At 140 ms segments 1..12 are out, 2..4 SACKed: pipe 900, 800 once segment 1 is marked lost;
    // its retransmission goes first (900 with it, 100 bytes marked lost so far), then segment 13;
    // segment 14 goes out at 150 ms.
    ack(150, 1, [[2, 6]]);
    expect(sent.filter((s) => s.tMs >= 140)).toEqual([
      { seg: 1, retx: true, tMs: 140 },
      { seg: 13, retx: false, tMs: 140 },
      { seg: 14, retx: false, tMs: 150 },
    ]);
    lost.length = 0;
    // Segment 14, sent after the retransmission, is SACKed: the retransmission, still unSACKed below
    // it, was lost too; tp->lost goes 100 -> 200 bytes, 100 of them since the retransmission.
    ack(200, 1, [[2, 6], [14, 15]]);
    expect(lost).toEqual([{ seg: 1, size: MSS, txInFlight: 900, lostSinceTx: 100, appLimited: false, delivered: 600, connLost: 200, tMs: 200 }]);
  });

  it('a timeout reports every unSACKed outstanding segment, after the state change, each counted in tp->lost as it is marked', () => {
    const { sim, sender, lost, log } = setup({ appSegments: 4 });
    log.length = 0;
    sim.nowNs = 1000 * MS;
    sender.onRtoEvent();
    // Segments 0..3 sent at t = 0 into pipes of 100..400 bytes; tx.lost 0; tp->lost grows by one each.
    expect(lost.map((l) => [l.seg, l.txInFlight, l.lostSinceTx, l.connLost])).toEqual([
      [0, 100, 100, 100],
      [1, 200, 200, 200],
      [2, 300, 300, 300],
      [3, 400, 400, 400],
    ]);
    expect(log.slice(0, 5)).toEqual(['state:loss', 'lost:0', 'lost:1', 'lost:2', 'lost:3']);
  });

  it('without SACK the fast retransmit marks the head and reports it', () => {
    const { ack, lost } = setup({ sack: false });
    ack(100, 1);
    for (let k = 0; k < 3; k++) ack(110 + k, 1);
    expect(lost.map((l) => [l.seg, l.lostSinceTx])).toEqual([[1, 100]]);
  });

  it('an algorithm without the hook leaves the scoreboard without a listener (loss-based and BBRv1 runs unchanged)', () => {
    const { sender } = setup({ hook: false });
    expect(sender.sb.onMarkedLost).toBeNull();
  });
});
