import { describe, expect, it } from 'vitest';
import type { AckSample, CaState, CongestionControl, EcnAck, LossKind, TcpState } from '../../src/cc/types.js';
import { Simulator } from '../../src/engine/simulator.js';
import { LazyTimer } from '../../src/engine/timer.js';
import { IP_CE, IP_ECT0, TCP_CWR_BIT, type EcnEchoMode } from '../../src/tcp/ecn.js';
import { TcpReceiver } from '../../src/tcp/receiver.js';
import { TcpSender } from '../../src/tcp/sender.js';

/** RFC 3168 6.1 at the sender and the receiver, and RFC 8257 3.2 at the receiver, on bare endpoints. */

const MSS = 100;

interface Sent {
  seg: number;
  retx: boolean;
  bits: number;
}

/** Reno-like arithmetic (ssthresh = max(FlightSize / 2, 2 MSS)), recording the kinds, states and ECN ACKs it sees. */
function recordingCc() {
  const kinds: LossKind[] = [];
  const states: CaState[] = [];
  const ecnAcks: EcnAck[] = [];
  const cc: CongestionControl = {
    id: 'reno',
    recovery: 'newreno',
    ssthresh: (tcb: TcpState, kind: LossKind) => {
      kinds.push(kind);
      return Math.max(2 * tcb.mssBytes, Math.floor(tcb.bytesInFlight / 2));
    },
    increaseWindow: (tcb: TcpState, ack: AckSample) => {
      if (tcb.cwndBytes < tcb.ssthreshBytes) tcb.cwndBytes += ack.segmentsAcked * tcb.mssBytes;
      else tcb.cwndBytes += Math.max(1, Math.floor((tcb.mssBytes * tcb.mssBytes) / tcb.cwndBytes));
    },
    onStateChange: (_tcb: TcpState, s: CaState) => void states.push(s),
    onEcnAck: (_tcb: TcpState, e: EcnAck) => void ecnAcks.push({ ...e }),
  };
  return { cc, kinds, states, ecnAcks };
}

function sender(ecn = true, sack = false) {
  const sent: Sent[] = [];
  const sim: Simulator = new Simulator(() => s.onRtoEvent());
  const algo = recordingCc();
  const port = { sendData: (_f: number, seq: number, _len: number, retx: boolean, bits: number) => void sent.push({ seg: seq / MSS, retx, bits }) };
  const config = {
    mssBytes: MSS, initialCwndSegments: 10, initialSsthreshBytes: null, minRtoS: 1, maxRtoS: 60, clockGranularityS: 0.001,
    dupAckThreshold: 3, sndBufBytes: 1e9, initialRwndBytes: 1e9, sack, recovery: 'classic' as const, ecn,
  };
  const s: TcpSender = new TcpSender(0, sim, algo.cc, port, config, new LazyTimer(sim, 1, 0));
  s.startApp(null);
  /** A cumulative ACK of segments [0, n), with or without ECN-Echo. */
  const ack = (n: number, ece = false): void => s.onAck(n * MSS, 0, 1e9, 0, null, ece);
  return { s, sent, ack, ...algo };
}

describe('ECN sender (RFC 3168 6.1)', () => {
  it('sends new data ECT(0) and a flow without ECN Not-ECT', () => {
    expect(sender(true).sent.map((x) => x.bits)).toEqual(Array(10).fill(IP_ECT0));
    expect(sender(false).sent.map((x) => x.bits)).toEqual(Array(10).fill(0));
  });

  it('6.1.5: a retransmission is Not-ECT, new data sent beside it stays ECT(0)', () => {
    const { s, sent, ack } = sender();
    for (let i = 0; i < 3; i++) ack(0);
    expect(s.tcb.caState).toBe('recovery');
    const retx = sent.filter((x) => x.retx);
    expect(retx.map((x) => [x.seg, x.bits])).toEqual([[0, 0]]);
    expect(sent.filter((x) => !x.retx).every((x) => (x.bits & 0b11) === IP_ECT0)).toBe(true);
  });

  it('6.1.2: the first ECN-Echo cuts once (ssthresh as for a loss, cwnd = ssthresh), no retransmission; CWR on the next new segment only', () => {
    const { s, sent, ack, kinds, states } = sender();
    ack(1, true);
    // FlightSize after the ACK = 9 segments: ssthresh = 450 bytes, cwnd = ssthresh.
    expect([s.tcb.ssthreshBytes, s.tcb.cwndBytes, s.tcb.caState]).toEqual([450, 450, 'cwr']);
    expect(kinds).toEqual(['ecn']);
    expect(states).toEqual(['cwr']);
    expect(s.retransmits).toBe(0);
    expect(s.ecn!.reductions).toBe(1);
    // pipe 900 > cwnd 450: nothing new until cwnd - pipe >= 1 MSS, at the ACK up to segment 7 (pipe 300).
    expect(sent.length).toBe(10);
    for (let n = 2; n <= 6; n++) ack(n, true);
    expect(sent.length).toBe(10);
    ack(7, true);
    const fresh = sent.slice(10);
    expect(fresh.map((x) => x.seg)).toEqual([10]);
    ack(8, true);
    expect(sent.slice(10).map((x) => x.seg)).toEqual([10, 11]);
    expect(fresh[0]!.bits).toBe(IP_ECT0 | TCP_CWR_BIT);
    expect(sent[11]!.bits).toBe(IP_ECT0);
    expect(s.ecn!.cwrSent).toBe(1);
  });

  it('6.1.2: one reduction per window however many ECN-Echoes, none while the window is held, the next one after SND.NXT at the cut is passed', () => {
    const { s, ack } = sender();
    ack(1, true); // cut at SND.NXT = 10 segments
    const cwndAfterCut = s.tcb.cwndBytes;
    for (let n = 2; n <= 10; n++) ack(n, true);
    // Up to and including segment 10 (= high_seq) the window is held: no second cut, no growth.
    expect([s.ecn!.reductions, s.ecn!.eceAcks, s.tcb.caState, s.tcb.cwndBytes]).toEqual([1, 10, 'cwr', cwndAfterCut]);
    ack(11, true); // above high_seq: CWR ends, and this ECE belongs to the next window
    expect([s.ecn!.reductions, s.tcb.caState]).toEqual([2, 'cwr']);
    expect(s.retransmits).toBe(0);
  });

  it('after the held window, ACKs without ECE return to open and grow cwnd again', () => {
    const { s, ack, states } = sender();
    ack(1, true);
    for (let n = 2; n <= 10; n++) ack(n);
    const held = s.tcb.cwndBytes;
    ack(11);
    expect(states).toEqual(['cwr', 'open']);
    expect(s.tcb.cwndBytes).toBeGreaterThan(held);
  });

  it('6.1.2: a loss in the window ECN already cut starts fast recovery without a second cut; ECE during recovery is ignored', () => {
    const { s, ack, kinds, states } = sender();
    ack(1, true);
    const ssthresh = s.tcb.ssthreshBytes;
    for (let i = 0; i < 3; i++) ack(1, true);
    expect(states).toEqual(['cwr', 'recovery']);
    expect(kinds).toEqual(['ecn']);
    expect(s.tcb.ssthreshBytes).toBe(ssthresh);
    expect(s.retransmits).toBe(1);
    ack(1, true);
    expect(s.ecn!.reductions).toBe(1);
  });

  it('hands the algorithm every ACK with its ECE flag, delivered bytes, ACK number and SND.NXT', () => {
    const { ack, ecnAcks } = sender();
    ack(2);
    ack(3, true);
    expect(ecnAcks.map((e) => [e.ece, e.deliveredBytes, e.ackNo, e.sndNxt])).toEqual([
      [false, 200, 200, 1000],
      [true, 100, 300, 1400],
    ]);
  });
});

interface Ack {
  ack: number;
  ece: boolean;
}

function receiver(mode: EcnEchoMode, delAckCount = 2) {
  const acks: Ack[] = [];
  const sim: Simulator = new Simulator(() => rx.onDelAckTimer());
  const port = { sendAck: (_f: number, ack: number, _ts: number, _rwnd: number, _n: number, _b: Float64Array, ece: boolean) => void acks.push({ ack: ack / MSS, ece }) };
  const rx: TcpReceiver = new TcpReceiver(0, port, { delAckCount, rcvBufBytes: 1e6, sack: false, ecn: mode }, new LazyTimer(sim, 0, 0), 200_000_000, sim);
  /** In-order segment i with ECN byte `bits`. */
  const seg = (i: number, bits = IP_ECT0): void => rx.onData(i * MSS, MSS, 0, bits);
  return { acks, rx, seg, sim };
}

describe('ECN receiver, classic (RFC 3168 6.1.3)', () => {
  it('a CE segment is ACKed at once with ECE, and every ACK carries ECE until a CWR segment arrives', () => {
    const { acks, rx, seg } = receiver('classic');
    seg(0);
    seg(1);
    seg(2, IP_CE);
    seg(3);
    seg(4);
    seg(5, IP_ECT0 | TCP_CWR_BIT);
    seg(6);
    expect(acks).toEqual([
      { ack: 2, ece: false },
      { ack: 3, ece: true }, // the CE segment, at once
      { ack: 5, ece: true },
      { ack: 7, ece: false }, // CWR seen at segment 5: the echo stops
    ]);
    expect([rx.ecn!.ceArrivals, rx.ecn!.ectArrivals]).toEqual([1, 7]);
  });

  it('a CWR segment that is itself CE keeps the echo on (CWR read before CE)', () => {
    const { acks, seg } = receiver('classic', 1);
    seg(0, IP_CE);
    seg(1, IP_CE | TCP_CWR_BIT);
    seg(2);
    expect(acks.map((a) => a.ece)).toEqual([true, true, true]);
  });

  it('a receiver without ECN never sets ECE', () => {
    const acks: boolean[] = [];
    const sim = new Simulator(() => undefined);
    const port = { sendAck: (..._a: unknown[]) => void acks.push(_a[6] as boolean) };
    const rx = new TcpReceiver(0, port, { delAckCount: 1, rcvBufBytes: 1e6, sack: false }, new LazyTimer(sim, 0, 0), 1, sim);
    rx.onData(0, MSS, 0, IP_CE);
    expect([acks, rx.ecn]).toEqual([[false], null]);
  });
});

describe('ECN receiver, DCTCP (RFC 8257 3.2: the two-state machine)', () => {
  it('ECE equals the CE state; a change of state ACKs the pending segments at once with the old state', () => {
    const { acks, seg } = receiver('dctcp');
    seg(0); // pending 1, state 0
    seg(1, IP_CE); // state 0 -> 1 with segment 0 pending: ACK 1 with ECE = 0, then segment 1 pends
    seg(2, IP_CE); // 2 pending: delayed ACK with ECE = 1
    seg(3, IP_CE); // pending 1
    seg(4); // state 1 -> 0: ACK 4 with ECE = 1, segment 4 pends
    seg(5); // delayed ACK with ECE = 0
    expect(acks).toEqual([
      { ack: 1, ece: false },
      { ack: 3, ece: true },
      { ack: 4, ece: true },
      { ack: 6, ece: false },
    ]);
  });

  it('a change of state with nothing pending sends no extra ACK, and CWR is ignored', () => {
    const { acks, seg } = receiver('dctcp');
    seg(0);
    seg(1);
    seg(2, IP_CE | TCP_CWR_BIT);
    seg(3, IP_CE);
    expect(acks).toEqual([
      { ack: 2, ece: false },
      { ack: 4, ece: true },
    ]);
  });

  it('the echoed fraction equals the marked fraction: every marked segment is ACKed with ECE and no unmarked one', () => {
    const { acks, seg } = receiver('dctcp');
    // A deterministic pattern of marks: segment i is CE when i mod 7 is 2, 3 or 5.
    const marked = (i: number) => [2, 3, 5].includes(i % 7);
    for (let i = 0; i < 700; i++) seg(i, marked(i) ? IP_CE : IP_ECT0);
    let prev = 0;
    let ackedMarked = 0;
    for (const a of acks) {
      for (let i = prev; i < a.ack; i++) expect([i, a.ece]).toEqual([i, marked(i)]);
      if (a.ece) ackedMarked += a.ack - prev;
      prev = a.ack;
    }
    expect(ackedMarked).toBe(300);
  });
});
