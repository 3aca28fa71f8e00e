import { describe, expect, it } from 'vitest';
import type { AckSample, CaState, CongestionControl, TcpState } from '../../src/cc/types.js';
import { Simulator } from '../../src/engine/simulator.js';
import { TcpSender } from '../../src/tcp/sender.js';

const MSS = 100;

/** A tiny Reno-like algorithm for sender tests: +1 MSS per ACKed segment below ssthresh, ssthresh = flight / 2. */
function miniReno(recovery: 'none' | 'reno' | 'newreno'): CongestionControl & { states: CaState[] } {
  const states: CaState[] = [];
  return {
    id: 'reno',
    recovery,
    states,
    ssthresh: (tcb: TcpState) => Math.max(2 * tcb.mssBytes, Math.floor(tcb.bytesInFlight / 2)),
    increaseWindow: (tcb: TcpState, ack: AckSample) => {
      if (tcb.cwndBytes < tcb.ssthreshBytes) tcb.cwndBytes += ack.segmentsAcked * tcb.mssBytes;
      else tcb.cwndBytes += Math.max(1, Math.floor((tcb.mssBytes * tcb.mssBytes) / tcb.cwndBytes));
    },
    onStateChange: (_tcb: TcpState, s: CaState) => {
      states.push(s);
    },
  };
}

function setup(recovery: 'none' | 'reno' | 'newreno', cwndSegments = 10, ns3HeadSackArtefact = false) {
  const sent: { seq: number; retx: boolean; t: number }[] = [];
  const sim: Simulator = new Simulator(() => sender.onRtoEvent());
  const cc = miniReno(recovery);
  const sender: TcpSender = new TcpSender(0, sim, cc, { sendData: (_f, seq, _len, retx) => sent.push({ seq, retx, t: sim.nowNs }) }, {
    mssBytes: MSS,
    initialCwndSegments: cwndSegments,
    initialSsthreshBytes: null,
    minRtoS: 1,
    maxRtoS: 60,
    clockGranularityS: 0.001,
    dupAckThreshold: 3,
    sndBufBytes: 1e9,
    initialRwndBytes: 1e9,
    rtoKind: 1,
    ns3HeadSackArtefact,
  });
  sender.startApp(null);
  return { sent, sim, sender, cc };
}

const ack = (s: TcpSender, n: number): void => s.onAck(n * MSS, 0, 1e9);

describe('TcpSender', () => {
  it('sends the initial window, then one new segment per ACKed segment plus slow-start growth', () => {
    const { sent, sender } = setup('newreno');
    expect(sent.map((x) => x.seq / MSS)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    ack(sender, 2);
    expect(sender.tcb.cwndBytes).toBe(12 * MSS);
    expect(sent.length).toBe(14);
  });

  it('newreno: 3 dupACKs -> fast retransmit; a partial ACK retransmits the next hole; a full ACK ends recovery with cwnd = ssthresh', () => {
    const { sent, sender, cc } = setup('newreno');
    // Segments 0 and 3 lost: the receiver ACKs 0 for segments 1, 2 (dupACKs), ...
    for (let i = 0; i < 3; i++) ack(sender, 0);
    expect(sender.tcb.caState).toBe('recovery');
    expect(sender.fastRecoveries).toBe(1);
    const retx = sent.filter((x) => x.retx).map((x) => x.seq / MSS);
    expect(retx).toEqual([0]);
    // RFC 5681 limited transmit sent 2 new segments on dupACKs 1-2 (10, 11); ssthresh from pipe.
    expect(sent.filter((x) => !x.retx).length).toBe(12);
    const ssthresh = sender.tcb.ssthreshBytes;
    expect(ssthresh).toBe(Math.floor((12 - 3) * MSS / 2));
    expect(sender.tcb.cwndBytes).toBe(ssthresh);
    ack(sender, 3); // partial: 0-2 acknowledged, 3 still missing
    expect(sender.tcb.caState).toBe('recovery');
    expect(sent.filter((x) => x.retx).map((x) => x.seq / MSS)).toEqual([0, 3]);
    ack(sender, 12); // everything up to recover (12)
    expect(sender.tcb.caState).toBe('open');
    expect(sender.tcb.cwndBytes).toBeGreaterThanOrEqual(ssthresh);
    expect(cc.states).toEqual(['disorder', 'recovery', 'open']);
  });

  it('reno: the first new ACK ends recovery even if it is partial', () => {
    const { sender } = setup('reno');
    for (let i = 0; i < 3; i++) ack(sender, 0);
    expect(sender.tcb.caState).toBe('recovery');
    ack(sender, 3);
    expect(sender.tcb.caState).toBe('open');
    expect(sender.tcb.cwndBytes).toBe(sender.tcb.ssthreshBytes + Math.max(1, Math.floor((MSS * MSS) / sender.tcb.ssthreshBytes)));
  });

  it('tahoe: 3 dupACKs -> retransmit the hole only, cwnd = 1 MSS, no go-back-N', () => {
    const { sent, sender } = setup('none');
    for (let i = 0; i < 3; i++) ack(sender, 0);
    expect(sender.tcb.caState).toBe('loss');
    expect(sender.tcb.cwndBytes).toBe(MSS);
    expect(sent.filter((x) => x.retx).map((x) => x.seq / MSS)).toEqual([0]);
    expect(sender.sndNxt).toBe(12 * MSS);
  });

  it('timeout: RTO 1 s, cwnd = 1 MSS, go-back-N from SND.UNA, back-off 2 s, 4 s; a new ACK restores RTO', () => {
    const { sent, sender, sim } = setup('newreno');
    sim.run(999_999_999);
    expect(sender.timeouts).toBe(0);
    sim.run(1_000_000_000);
    expect(sender.timeouts).toBe(1);
    expect(sender.tcb.caState).toBe('loss');
    expect(sender.tcb.cwndBytes).toBe(MSS);
    expect(sender.tcb.ssthreshBytes).toBe(5 * MSS);
    expect(sent.at(-1)).toEqual({ seq: 0, retx: true, t: 1e9 });
    sim.run(2_999_999_999);
    expect(sender.timeouts).toBe(1);
    sim.run(3e9);
    expect(sender.timeouts).toBe(2);
    expect(sender.rto.rtoS).toBe(4);
    // ssthresh is not cut again: the head was already resent by the timer (RFC 5681 (4)).
    expect(sender.tcb.ssthreshBytes).toBe(5 * MSS);
    ack(sender, 1);
    expect(sender.rto.rtoS).toBe(1);
    // Go-back-N continues from the cursor: segment 1 next, then 2 (slow start: cwnd 2 MSS).
    expect(sent.slice(-2).map((x) => [x.seq / MSS, x.retx])).toEqual([
      [1, true],
      [2, true],
    ]);
  });

  it('ns-3 artefact: dupACK marks left over after recovery make the sender resend the in-flight head', () => {
    for (const artefact of [false, true]) {
      const { sent, sender } = setup('newreno', 10, artefact);
      // Segment 0 lost; 9 dupACKs (segments 1-9 arrived) and more from new data sent in recovery.
      for (let i = 0; i < 12; i++) ack(sender, 0);
      expect(sender.tcb.caState).toBe('recovery');
      const before = sent.filter((x) => x.retx).length;
      expect(sender.recover).toBe(12 * MSS);
      ack(sender, 12); // full ACK up to recover: marks are left on the segments above 12
      expect(sender.tcb.caState).toBe('open');
      const retx = sent.filter((x) => x.retx).map((x) => x.seq / MSS);
      if (artefact) {
        expect(sender.sackedSegs).toBeGreaterThan(0);
        expect(retx.slice(before)).toEqual([12]); // spurious: segment 12 is in flight, not lost
      } else {
        expect(retx.length).toBe(before);
      }
    }
  });
});
