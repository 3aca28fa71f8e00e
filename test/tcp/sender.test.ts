import { describe, expect, it } from 'vitest';
import type { AckSample, CaState, CongestionControl, TcpState } from '../../src/cc/types.js';
import type { SackPrrRecovery } from '../../src/tcp/recovery/sack.js';
import { initialWindowBytes, TcpSender, type SenderConfig } from '../../src/tcp/sender.js';
import { bareSender } from '../helpers/bareSender.js';

const MSS = 100;

/**
 * A tiny Reno-like algorithm: +1 MSS per ACKed segment below ssthresh, +MSS^2/cwnd above, and
 * ssthresh = max(FlightSize / 2, 2 MSS) from tcb.bytesInFlight (RFC 5681 eq. (4)), unless the test
 * hands its own rule. Records states and the cwnd it found on each increaseWindow call.
 */
function miniReno(recovery: 'none' | 'reno' | 'newreno', ssthresh?: () => number) {
  const states: CaState[] = [];
  const cwndAtIncrease: number[] = [];
  const cc: CongestionControl = {
    id: 'reno',
    recovery,
    ssthresh: (tcb: TcpState) => ssthresh?.() ?? Math.max(2 * tcb.mssBytes, Math.floor(tcb.bytesInFlight / 2)),
    increaseWindow: (tcb: TcpState, ack: AckSample) => {
      cwndAtIncrease.push(tcb.cwndBytes);
      if (tcb.cwndBytes < tcb.ssthreshBytes) tcb.cwndBytes += ack.segmentsAcked * tcb.mssBytes;
      else tcb.cwndBytes += Math.max(1, Math.floor((tcb.mssBytes * tcb.mssBytes) / tcb.cwndBytes));
    },
    onStateChange: (_tcb: TcpState, s: CaState) => {
      states.push(s);
    },
  };
  return { cc, states, cwndAtIncrease };
}

interface Options {
  recovery?: 'none' | 'reno' | 'newreno';
  sack?: boolean;
  policy?: 'classic' | 'prr';
  cwndSegments?: number;
  /** Segments the application hands over (null: unlimited). */
  appSegments?: number | null;
  /** ssthresh rule replacing FlightSize / 2 (gets the sender). */
  ssthresh?: (s: TcpSender) => number;
  /** The profile-bound rules (src/scenario/profiles.ts) and any other config field. */
  config?: Partial<SenderConfig>;
}

function setup(o: Options = {}) {
  const algo = miniReno(o.recovery ?? 'newreno', o.ssthresh ? () => o.ssthresh!(sender) : undefined);
  const { sender, sim, sent, ackNow: ack } = bareSender(algo.cc, { mssBytes: MSS, initialCwndSegments: o.cwndSegments ?? 10, sack: o.sack ?? false, recovery: o.policy ?? 'classic', ...o.config });
  sender.startApp(o.appSegments === undefined || o.appSegments === null ? null : o.appSegments * MSS);
  const retx = (): number[] => sent.filter((x) => x.retx).map((x) => x.seg);
  const fresh = (): number[] => sent.filter((x) => !x.retx).map((x) => x.seg);
  return { sent, sim, sender, ack, retx, fresh, ...algo };
}

const range = (a: number, b: number): number[] => Array.from({ length: b - a }, (_, i) => a + i);

describe('TcpSender, SACK off', () => {
  it('sends the initial window, then one new segment per ACKed segment plus slow-start growth', () => {
    const { fresh, sender, ack } = setup();
    expect(fresh()).toEqual(range(0, 10));
    ack(2);
    expect(sender.tcb.cwndBytes).toBe(12 * MSS);
    expect(fresh()).toEqual(range(0, 14));
  });

  it('RFC 5681 / RFC 3042: limited transmit on dupACKs 1-2, fast retransmit on exactly the 3rd, cwnd = ssthresh with the send window inflated by 1 MSS per further dupACK', () => {
    const { sender, ack, retx, fresh, states } = setup();
    ack(0);
    expect([sender.tcb.caState, retx(), fresh()]).toEqual(['disorder', [], range(0, 11)]);
    ack(0);
    expect([sender.tcb.caState, retx(), fresh()]).toEqual(['disorder', [], range(0, 12)]);
    ack(0);
    expect(sender.tcb.caState).toBe('recovery');
    expect(sender.fastRecoveries).toBe(1);
    expect(retx()).toEqual([0]);
    expect(fresh()).toEqual(range(0, 12)); // cwnd + 3 MSS = ssthresh + 3 MSS < FlightSize: nothing new yet
    const ssthresh = sender.tcb.ssthreshBytes;
    expect(sender.tcb.cwndBytes).toBe(ssthresh);
    // RFC 5681 3.2 steps 3-5: window = ssthresh + k MSS after the k-th dupACK; one new segment
    // whenever window - FlightSize >= 1 MSS, FlightSize = 12 segments + what recovery sent.
    for (let k = 4; k <= 11; k++) {
      ack(0);
      const expectedNew = Math.max(0, Math.floor((ssthresh + k * MSS - 12 * MSS) / MSS));
      expect([k, fresh().length - 12]).toEqual([k, expectedNew]);
      expect(sender.tcb.cwndBytes).toBe(ssthresh); // the inflation is kept apart from cwnd
    }
    expect(retx()).toEqual([0]);
    expect(states).toEqual(['disorder', 'recovery']);
  });

  // RFC 5681 3.2 step 2: "When [RFC3042] is in use, additional data sent in limited transmit MUST
  // NOT be included in this calculation" (ssthresh = max(FlightSize / 2, 2 SMSS)). FlightSize at the
  // third dupACK without the two limited-transmit segments is 10 segments, so ssthresh = 500 bytes.
  // The sender hands the algorithm bytesInFlight = pipe = 12 segments (limited transmit included): 600.
  it('RFC 5681 3.2 step 2: ssthresh at fast retransmit excludes the limited-transmit segments (500, not 600)', () => {
    const { sender, ack } = setup();
    for (let i = 0; i < 3; i++) ack(0);
    expect(sender.tcb.ssthreshBytes).toBe(5 * MSS);
  });

  it('RFC 6582 NewReno: a partial ACK retransmits the first unacknowledged segment, deflates by what it acknowledged (+1 MSS) and stays in recovery; the full ACK exits at cwnd = ssthresh', () => {
    const { sender, ack, retx, fresh, states, cwndAtIncrease } = setup();
    // Segments 0 and 5 lost: dupACKs for 1, 2, 3, 4, 6, 7, 8, 9 and limited-transmit 10, 11.
    for (let i = 0; i < 10; i++) ack(0);
    const ssthresh = sender.tcb.ssthreshBytes;
    const newBefore = fresh().length;
    // Inflated window after 10 dupACKs: ssthresh + 10 MSS; FlightSize = newBefore segments.
    expect(newBefore).toBe(12 + Math.max(0, Math.floor((ssthresh + 10 * MSS - 12 * MSS) / MSS)));
    expect(sender.recoverEnd).toBe(12 * MSS); // RFC 6582 recover = highest sequence sent at the fast retransmit
    ack(5); // the retransmission of 0 filled the first hole: partial ACK
    expect(sender.tcb.caState).toBe('recovery');
    expect(sender.fastRecoveries).toBe(1);
    expect(retx()).toEqual([0, 5]);
    // RFC 6582 3.2 step 3: inflated cwnd - 5 MSS acknowledged + 1 MSS; new data if it exceeds FlightSize.
    const window = ssthresh + 10 * MSS - 5 * MSS + MSS;
    const flight = (newBefore - 5) * MSS;
    expect(fresh().length - newBefore).toBe(Math.max(0, Math.floor((window - flight) / MSS)));
    expect(sender.tcb.cwndBytes).toBe(ssthresh);
    const high = fresh().length;
    ack(high); // full ACK: covers recover
    expect(sender.tcb.caState).toBe('open');
    // RFC 6582 3.2 step 3 (full ACK), option 2: cwnd = ssthresh; the algorithm then sees this ACK in
    // congestion avoidance (one MSS^2 / cwnd step, as ns-3 does after ExitRecovery).
    expect(cwndAtIncrease.at(-1)).toBe(ssthresh);
    expect(sender.tcb.cwndBytes).toBe(ssthresh + Math.max(1, Math.floor((MSS * MSS) / ssthresh)));
    expect(states).toEqual(['disorder', 'recovery', 'open']);
  });

  it('RFC 6582: no fast retransmit when the three dupACKs do not cover more than recover (go-back-N copies after a timeout)', () => {
    const { sender, sim, ack, retx, fresh } = setup();
    // Segments 0-3 lost, 4-9 delivered, all their dupACKs lost: the timer fires at 1 s.
    sim.run(1e9);
    expect(sender.timeouts).toBe(1);
    expect(sender.recoverEnd).toBe(10 * MSS);
    expect(retx()).toEqual([0]);
    ack(1); // slow start: cwnd 2 -> resend 1, 2
    ack(2); // cwnd 3 -> 3, 4
    ack(3); // cwnd 4 -> 5, 6
    expect(retx()).toEqual(range(0, 7));
    ack(10); // the copy of 3 completes the window: ACK = recover + 1, repaired
    expect(sender.tcb.caState).toBe('open');
    const newAfterRepair = fresh().length;
    // The go-back-N copies of 4, 5, 6 (already held) bring three dupACKs of 10 = recover + 1.
    ack(10);
    ack(10);
    ack(10);
    expect(sender.dupAcks).toBe(3);
    expect(sender.fastRecoveries).toBe(0);
    expect(sender.tcb.caState).toBe('disorder');
    expect(retx()).toEqual(range(0, 7)); // segment 10 is not resent
    expect(fresh().length).toBeGreaterThanOrEqual(newAfterRepair); // limited transmit only
  });

  it('RFC 5681 Reno: the first new ACK ends recovery even if it is partial', () => {
    const { sender, ack, retx, states } = setup({ recovery: 'reno' });
    for (let i = 0; i < 3; i++) ack(0);
    expect(sender.tcb.caState).toBe('recovery');
    const ssthresh = sender.tcb.ssthreshBytes;
    ack(3);
    expect(sender.tcb.caState).toBe('open');
    expect(retx()).toEqual([0]); // no retransmission of 3 on the partial ACK
    expect(sender.tcb.cwndBytes).toBe(ssthresh + Math.max(1, Math.floor((MSS * MSS) / ssthresh)));
    expect(states).toEqual(['disorder', 'recovery', 'open']);
  });

  it("Tahoe: the 3rd dupACK sends it to 'loss' with cwnd 1 MSS; the window is resent in order as cwnd opens", () => {
    const { sender, ack, retx, states } = setup({ recovery: 'none' });
    for (let i = 0; i < 3; i++) ack(0);
    expect(sender.tcb.caState).toBe('loss');
    expect(sender.tcb.cwndBytes).toBe(MSS);
    expect(retx()).toEqual([0]);
    for (let i = 0; i < 8; i++) ack(0); // more dupACKs: nothing (cwnd 1 MSS, 'loss')
    expect(retx()).toEqual([0]);
    expect(sender.fastRecoveries).toBe(1);
    // 5 was lost too. The ACK of 5 segments grows cwnd by 5 MSS (the test algorithm counts
    // segments acknowledged) to 6 MSS, and everything above SND.UNA is presumed lost: go-back-N
    // resends 5..10 in order, including the copies of 6..10 the receiver may already hold.
    ack(5);
    expect(sender.tcb.cwndBytes).toBe(6 * MSS);
    expect(retx()).toEqual([0, 5, 6, 7, 8, 9, 10]);
    expect(states).toEqual(['disorder', 'loss']);
  });

  it('RFC 6298 timer: RTO 1 s, then 2 s and 4 s back-off; cwnd 1 MSS; ssthresh held on a repeated timeout (RFC 5681 (4))', () => {
    const { sender, sim, sent } = setup();
    sim.run(999_999_999);
    expect(sender.timeouts).toBe(0);
    sim.run(1_000_000_000);
    expect(sender.timeouts).toBe(1);
    expect([sender.tcb.caState, sender.tcb.cwndBytes, sender.tcb.ssthreshBytes]).toEqual(['loss', MSS, 5 * MSS]);
    expect(sent.at(-1)).toEqual({ seg: 0, retx: true, tMs: 1000 });
    expect(sender.rto.rtoS).toBe(2);
    sim.run(2_999_999_999);
    expect(sender.timeouts).toBe(1);
    sim.run(3e9);
    expect(sender.timeouts).toBe(2);
    expect(sender.rto.rtoS).toBe(4);
    expect(sender.tcb.ssthreshBytes).toBe(5 * MSS); // not 2 MSS from the 1-segment flight
    expect(sent.at(-1)).toEqual({ seg: 0, retx: true, tMs: 3000 });
    sim.run(6_999_999_999);
    expect(sender.timeouts).toBe(2);
    sim.run(7e9);
    expect(sender.timeouts).toBe(3);
    expect(sender.tcb.ssthreshBytes).toBe(5 * MSS);
    expect(sent.filter((x) => x.retx).map((x) => [x.seg, x.tMs])).toEqual([
      [0, 1000],
      [0, 3000],
      [0, 7000],
    ]);
  });
});

/** Blocks for a receiver holding the listed segment ranges [a, b). */
const blocks = (...r: [number, number][]): [number, number][] => r;

describe('TcpSender, SACK on (RFC 6675)', () => {
  it('recovery starts once IsLost(SND.UNA) holds: 3 SACKed segments above the hole, not before', () => {
    const { sender, ack, retx, fresh } = setup({ sack: true });
    ack(0, blocks([1, 2]));
    ack(0, blocks([1, 3]));
    expect(sender.tcb.caState).toBe('disorder');
    expect(retx()).toEqual([]);
    // pipe = outstanding - SACKed leaves room: one new segment per SACKed one (as limited transmit).
    expect(fresh()).toEqual(range(0, 12));
    ack(0, blocks([1, 4]));
    expect(sender.tcb.caState).toBe('recovery');
    expect(retx()).toEqual([0]);
  });

  it('a single ACK SACKing 3 segments is enough (IsLost, not a count of dupACKs)', () => {
    const { sender, ack, retx } = setup({ sack: true });
    ack(0, blocks([1, 4]));
    expect(sender.dupAcks).toBe(1);
    expect(sender.tcb.caState).toBe('recovery');
    expect(retx()).toEqual([0]);
  });

  it('three dupACKs SACKing segments far apart from the hole still wait for IsLost', () => {
    const { sender, ack, retx } = setup({ sack: true, cwndSegments: 10 });
    // Segment 8 SACKed, then 9: two SACKed segments above 0..7 -> nothing is lost yet.
    ack(0, blocks([8, 9]));
    ack(0, blocks([8, 10]));
    expect(sender.tcb.caState).toBe('disorder');
    expect(retx()).toEqual([]);
  });

  it('NextSeg order, classic: lost holes first (rule 1), then the rescue (rule 4) when nothing else is sendable, then rule 3; nothing sent while pipe >= ssthresh', () => {
    // 20 segments, the application has no more. Lost: 0, 4, 17. ssthresh = FlightSize / 2 = 10 segments.
    const { sender, ack, sent, retx } = setup({ sack: true, cwndSegments: 20, appSegments: 20, ssthresh: (s) => s.sb.outstandingBytes / 2 });
    const sendsAt: Record<number, number[]> = {};
    const deliver = (j: number, b: [number, number][]): void => {
      const before = sent.length;
      ack(0, b);
      sendsAt[j] = sent.slice(before).map((x) => x.seg);
    };
    deliver(1, blocks([1, 2]));
    deliver(2, blocks([1, 3]));
    deliver(3, blocks([1, 4])); // IsLost(0): recovery, cwnd = ssthresh = 10, fast retransmit of 0
    expect(sender.tcb.caState).toBe('recovery');
    expect(sender.tcb.cwndBytes).toBe(10 * MSS);
    for (let k = 6; k <= 16; k++) deliver(k - 2, blocks([5, k], [1, 4]));
    deliver(15, blocks([18, 19], [5, 17], [1, 4]));
    expect(sendsAt[3]).toEqual([0]);
    // pipe (segments): 17 after the retransmission of 0; -1 per SACKed segment; 4 becomes lost
    // (5, 6, 7 SACKed) at ACK 6, removing it too: 13, 12, 11, 10 at ACK 9.
    for (let j = 4; j <= 9; j++) expect([j, sendsAt[j]]).toEqual([j, []]);
    // ACK 10 brings pipe to 9 < ssthresh: rule 1 resends 4.
    expect(sendsAt[10]).toEqual([4]);
    // ACK 11: pipe 9 again; no lost segment above HighRxt, no new data, no unSACKed hole below the
    // highest SACK (5..12 SACKed): the rescue retransmission of the highest unSACKed segment, 19.
    expect(sendsAt[11]).toEqual([19]);
    for (let j = 12; j <= 14; j++) expect([j, sendsAt[j]]).toEqual([j, []]);
    // ACK 15 SACKs 18: 17 is unSACKed below the highest SACK and not lost (2 SACKed above): rule 3.
    expect(sendsAt[15]).toEqual([17]);
    expect(retx()).toEqual([0, 4, 19, 17]);
    expect(sender.sb.isLost(17 * MSS)).toBe(false);
  });

  it('NextSeg order with unlimited data: rule 1 before new data, new data before rule 3', () => {
    const { sender, ack, sent, retx } = setup({ sack: true, cwndSegments: 20, ssthresh: (s) => s.sb.outstandingBytes / 2 });
    ack(0, blocks([1, 2]));
    ack(0, blocks([1, 3]));
    ack(0, blocks([1, 4]));
    const afterEntry = sent.length;
    for (let k = 6; k <= 17; k++) ack(0, blocks([5, k], [1, 4]));
    for (let k = 19; k <= 20; k++) ack(0, blocks([18, k], [5, 17], [1, 4]));
    const later = sent.slice(afterEntry);
    expect(later[0]).toMatchObject({ seg: 4, retx: true });
    expect(later.slice(1).every((x) => !x.retx && x.seg >= 22)).toBe(true);
    expect(later.length).toBeGreaterThan(3);
    // 17 is unSACKed below the highest SACK but not lost (only 18, 19 above it): new data first (rule 2 before rule 3).
    expect(retx()).toEqual([0, 4]);
    // A third SACKed segment above 17 (20) makes it lost: rule 1 resends it before any new data.
    const before = sent.length;
    ack(0, blocks([18, 21], [5, 17], [1, 4]));
    expect(sender.sb.isLost(17 * MSS)).toBe(true);
    expect(sent[before]).toMatchObject({ seg: 17, retx: true });
    expect(sender.tcb.caState).toBe('recovery');
  });

  it('after an RTO the SACK marks are kept: go-back-N resends only unSACKed segments (RFC 6675 5.1, as Linux and ns-3)', () => {
    const { sender, sim, ack, retx } = setup({ sack: true });
    ack(0, blocks([3, 5])); // two SACKed segments: not enough for IsLost
    expect(sender.tcb.caState).toBe('disorder');
    sim.run(1e9);
    expect(sender.timeouts).toBe(1);
    expect([sender.sb.isSacked(3 * MSS), sender.sb.isSacked(4 * MSS)]).toEqual([true, true]);
    expect(retx()).toEqual([0]);
    ack(1, blocks([3, 5])); // cwnd 2 MSS: 1, 2
    ack(2, blocks([3, 5])); // cwnd 3 MSS, 2 in flight: 5, 6 (3 and 4 are held)
    expect(retx()).toEqual([0, 1, 2, 5, 6]);
  });

  it('PRR vs classic, one loss, ssthresh = RecoverFS / 2: PRR sends one segment per two delivered from the start; classic sends nothing until pipe < ssthresh', () => {
    const perAck = (policy: 'classic' | 'prr') => {
      const { ack, sent, sender } = setup({ sack: true, policy, cwndSegments: 20, ssthresh: (s) => s.sb.outstandingBytes / 2 });
      ack(0, blocks([1, 2])); // limited transmit of 20
      ack(0, blocks([1, 3])); // and 21: RecoverFS = 22 segments, ssthresh 11
      const counts: number[] = [];
      for (let j = 3; j <= 14; j++) {
        const before = sent.length;
        ack(0, blocks([1, j + 1]));
        counts.push(sent.length - before);
      }
      expect(sender.tcb.caState).toBe('recovery');
      expect(sender.tcb.ssthreshBytes).toBe(11 * MSS);
      return { counts, sender };
    };
    const prr = perAck('prr');
    // RFC 6937: sndcnt = CEIL(prr_delivered * 11 / 22) - prr_out = 50 k bytes - prr_out on the k-th
    // ACK of recovery (pipe stays above ssthresh); full segments only, the first ACK always sends one.
    expect(prr.counts).toEqual([1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    const rec = prr.sender.recovery as SackPrrRecovery;
    expect([rec.recoverFs, rec.prrDelivered, rec.prrOut]).toEqual([22 * MSS, 12 * MSS, 6 * MSS]);
    const classic = perAck('classic');
    // Classic: cwnd = ssthresh = 11; pipe = 19 after the retransmission and one less per ACK, so
    // the k-th ACK can send once 11 - (20 - k) >= 1, i.e. from k = 10 on, one per ACK.
    expect(classic.counts).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
  });
});

/** The switches behaviour profiles set (src/scenario/profiles.ts), each against its rule. */
describe('TcpSender, profile-bound rules', () => {
  /** The RFC 6582 scenario above: a timeout, repair up to recover + 1, then three dupACKs of exactly recover + 1. */
  function dupAcksAtRecover(recoverCheck: 'above' | 'atLeast') {
    const t = setup({ config: { recoverCheck } });
    t.sim.run(1e9);
    for (const n of [1, 2, 3, 10, 10, 10, 10]) t.ack(n);
    return t;
  }

  it("recoverCheck 'atLeast' (RFC 6582 3.2 step 1 with recover = the highest sequence number sent, ns-3): dupACKs of exactly SND.MAX at the loss start a fast retransmit; 'above' (Linux) waits", () => {
    const strict = dupAcksAtRecover('above');
    expect(strict.sender.fastRecoveries).toBe(0);
    expect(strict.retx()).not.toContain(10);
    const eq = dupAcksAtRecover('atLeast');
    expect(eq.sender.fastRecoveries).toBe(1);
    expect(eq.sender.tcb.caState).toBe('recovery');
    expect(eq.retx()).toContain(10);
  });

  it("rtoBackoffReset 'rttSample' (RFC 6298 with Karn, Linux) keeps the backed-off RTO over an ACK of retransmitted data; 'newAck' (ns-3) drops it", () => {
    for (const [rule, rto] of [['newAck', 1], ['rttSample', 2]] as const) {
      const { sender, sim, ack } = setup({ config: { rtoBackoffReset: rule } });
      sim.run(1e9);
      expect(sender.rto.rtoS).toBe(2);
      ack(1); // acknowledges the retransmission: no RTT sample (Karn)
      expect(sender.rto.rtoS, rule).toBe(rto);
    }
  });

  it("sackSsthreshInput: a NewReno-style cut from pipe (6 segments: 10 sent, 3 SACKed, 1 lost) or from RFC 6675 4.2's FlightSize (10)", () => {
    for (const [rule, ssthresh] of [['pipe', 3], ['flightSize', 5]] as const) {
      const { sender, ack } = setup({ sack: true, config: { sackSsthreshInput: rule } });
      ack(0, [[1, 4]]);
      expect(sender.tcb.caState).toBe('recovery');
      expect(sender.tcb.ssthreshBytes, rule).toBe(ssthresh * MSS);
    }
  });

  it("initialWindow: RFC 6928's min(10 MSS, max(2 MSS, 14600 B)) or ns-3/Linux's 10 segments, apart once MSS > 1460 B", () => {
    expect(initialWindowBytes(10, 1448)).toBe(14480);
    expect(initialWindowBytes(10, 1448, 'segments')).toBe(14480);
    expect(initialWindowBytes(10, 9000)).toBe(18000);
    expect(initialWindowBytes(10, 9000, 'segments')).toBe(90000);
    expect(initialWindowBytes(4, 4000, 'rfc6928')).toBe(14600);
  });

  it('rescueRetransmission false (ns-3 declines NextSeg rule 4): the app-limited tail above is not resent before the timer', () => {
    for (const [rescue, expected] of [[true, [0, 4, 19]], [false, [0, 4]]] as const) {
      const { ack, retx } = setup({ sack: true, cwndSegments: 20, appSegments: 20, ssthresh: (s) => s.sb.outstandingBytes / 2, config: { rescueRetransmission: rescue } });
      ack(0, blocks([1, 2]));
      ack(0, blocks([1, 3]));
      ack(0, blocks([1, 4]));
      for (let k = 6; k <= 13; k++) ack(0, blocks([5, k], [1, 4]));
      expect(retx(), `rescue ${rescue}`).toEqual(expected);
    }
  });

  it("sackPartialAckTimer 'first' (RFC 6582 Impatient, ns-3): only the first partial ACK of a SACK recovery restarts the timer; 'every' (RFC 6298 5.3) each one", () => {
    for (const policy of ['every', 'first'] as const) {
      const { sender, sim, ack } = setup({ sack: true, config: { sackPartialAckTimer: policy } });
      ack(0, blocks([1, 2]));
      ack(0, blocks([1, 3]));
      ack(0, blocks([1, 4]));
      ack(0, blocks([1, 4], [6, 7])); // 0 and 4, 5 missing
      expect(sender.tcb.caState).toBe('recovery');
      sim.run(0.3e9);
      ack(4, blocks([6, 7])); // first partial ACK at 0.3 s: the timer runs to 0.3 + 1 s
      sim.run(0.6e9);
      ack(5, blocks([6, 7])); // second partial ACK at 0.6 s
      sim.run(1.29e9);
      expect(sender.timeouts, policy).toBe(0);
      sim.run(1.31e9);
      // 'first' expires 1 s after the first partial ACK; 'every' was pushed past it by the second.
      expect([policy, sender.timeouts]).toEqual([policy, policy === 'first' ? 1 : 0]);
    }
  });
});
