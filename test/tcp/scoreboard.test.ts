import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Scoreboard } from '../../src/tcp/scoreboard.js';

const MSS = 100;
const DUP_THRESH = 3;

/** A scoreboard with segments [0, n) sent (segment i = [i MSS, (i+1) MSS)). */
function board(n: number): Scoreboard {
  const sb = new Scoreboard(MSS);
  sb.sentNew(0, n * MSS);
  return sb;
}

/** SACKs segments [a, b) (one block). */
const sackSegs = (sb: Scoreboard, a: number, b: number): number => sb.sack(a * MSS, b * MSS);
const lostSegs = (sb: Scoreboard): number[] => segsWhere(sb, (s) => sb.isLost(s));
function segsWhere(sb: Scoreboard, pred: (seq: number) => boolean): number[] {
  const out: number[] = [];
  for (let seq = sb.una; seq < sb.highTx; seq += MSS) if (pred(seq)) out.push(seq / MSS);
  return out;
}

/**
 * RFC 6675 SetPipe recomputed segment by segment, independently of the scoreboard's counters:
 * for every outstanding unSACKed segment, +1 if not lost, +1 more if retransmitted.
 */
function setPipe(sb: Scoreboard): number {
  let pipe = 0;
  for (let seq = sb.una; seq < sb.highTx; seq += MSS) {
    if (sb.isSacked(seq)) continue;
    const len = Math.min(MSS, sb.highTx - seq);
    if (!sb.isLost(seq)) pipe += len;
    if (sb.isRetransmitted(seq)) pipe += len;
  }
  return pipe;
}

describe('Scoreboard: RFC 6675 IsLost with DupThresh = 3', () => {
  it('a hole is lost once 3 SACKed segments lie above it, not before', () => {
    const sb = board(10);
    sackSegs(sb, 2, 3);
    expect(sb.markLost(DUP_THRESH)).toBe(false);
    sackSegs(sb, 3, 4);
    sb.markLost(DUP_THRESH);
    expect(lostSegs(sb)).toEqual([]); // 2 SACKed segments above 0 and 1: not yet
    sackSegs(sb, 4, 5);
    expect(sb.markLost(DUP_THRESH)).toBe(true);
    expect(lostSegs(sb)).toEqual([0, 1]);
    expect(sb.lostBytes).toBe(2 * MSS);
  });

  it('counts SACKed segments across discontiguous blocks: segment 5 needs three of 6.. above it', () => {
    const sb = board(12);
    sackSegs(sb, 2, 5); // 2,3,4
    sackSegs(sb, 6, 7);
    sackSegs(sb, 8, 9);
    sb.markLost(DUP_THRESH);
    // 0,1: five SACKed above; 5: two (6, 8) above; 7: one above.
    expect(lostSegs(sb)).toEqual([0, 1]);
    sackSegs(sb, 10, 11);
    sb.markLost(DUP_THRESH);
    // 5 now has 6, 8, 10 above; 7 has 8, 10; 9 has 10.
    expect(lostSegs(sb)).toEqual([0, 1, 5]);
    expect(sb.isLost(7 * MSS)).toBe(false);
    expect(sb.isSacked(6 * MSS)).toBe(true);
    expect(sb.isLost(6 * MSS)).toBe(false); // SACKed segments are never lost
  });

  it('a lost mark is cleared when the segment is SACKed later (late arrival)', () => {
    const sb = board(6);
    sackSegs(sb, 1, 4);
    sb.markLost(DUP_THRESH);
    expect(lostSegs(sb)).toEqual([0]);
    sackSegs(sb, 0, 1);
    expect(lostSegs(sb)).toEqual([]);
    expect(sb.lostBytes).toBe(0);
    expect(sb.sackedBytes).toBe(4 * MSS);
  });
});

describe('Scoreboard: RFC 6675 pipe (SetPipe)', () => {
  it('unSACKed octets count once if not lost and once more if retransmitted', () => {
    const sb = board(10);
    expect(sb.pipeBytes).toBe(10 * MSS); // nothing SACKed: pipe = FlightSize
    sackSegs(sb, 2, 5);
    sb.markLost(DUP_THRESH); // 0, 1 lost
    // Outstanding 10, SACKed 3 (2-4), lost 2 (0, 1): pipe = 5 (5..9).
    expect(sb.pipeBytes).toBe(5 * MSS);
    expect(setPipe(sb)).toBe(5 * MSS);
    sb.retransmitted(0);
    expect(sb.pipeBytes).toBe(6 * MSS); // the retransmission of 0 is in flight
    expect(setPipe(sb)).toBe(6 * MSS);
    sb.retransmitted(7 * MSS); // rule 3 style retransmission of a not-lost segment: counts twice
    expect(sb.pipeBytes).toBe(7 * MSS);
    expect(setPipe(sb)).toBe(7 * MSS);
    sackSegs(sb, 7, 8); // the retransmitted and SACKed segment leaves pipe entirely
    expect(sb.pipeBytes).toBe(5 * MSS);
    expect(setPipe(sb)).toBe(5 * MSS);
    expect(sb.recount()).toEqual({ sackedBytes: sb.sackedBytes, lostBytes: sb.lostBytes, retransBytes: sb.retransBytes });
  });

  it('a retransmission counted once even if reported twice', () => {
    const sb = board(4);
    sb.markHeadLost();
    sb.retransmitted(0);
    sb.retransmitted(0);
    expect(sb.retransBytes).toBe(MSS);
    expect(sb.pipeBytes).toBe(4 * MSS); // lost -1, retransmitted +1
  });
});

describe('Scoreboard: NextSeg rules', () => {
  it('rule 1: the first lost segment above HighRxt (below the highest SACK); rule 3: unSACKed above HighRxt below the highest SACK', () => {
    const sb = board(12);
    sackSegs(sb, 2, 4); // 2, 3
    sackSegs(sb, 5, 6); // 5
    sackSegs(sb, 8, 9); // 8
    sb.markLost(DUP_THRESH);
    // Lost: 0, 1 (>= 3 SACKed above); 4 has 5, 8 above: not lost; 6, 7 have 8 only.
    expect(lostSegs(sb)).toEqual([0, 1]);
    expect(sb.nextLost()).toBe(0);
    sb.retransmitted(0);
    expect(sb.highRxt).toBe(MSS);
    expect(sb.nextLost()).toBe(MSS);
    sb.retransmitted(MSS);
    expect(sb.nextLost()).toBe(-1); // no lost segment above HighRxt = 2 MSS
    // Rule 3: unSACKed above HighRxt below the highest SACKed byte (9 MSS): 4, then 6, 7.
    expect(sb.nextUnsackedBelowHighestSack()).toBe(4 * MSS);
    sb.retransmitted(4 * MSS);
    expect(sb.nextUnsackedBelowHighestSack()).toBe(6 * MSS);
    sb.retransmitted(6 * MSS);
    sb.retransmitted(7 * MSS);
    expect(sb.nextUnsackedBelowHighestSack()).toBe(-1); // 9.. lie above the highest SACK
    // Rule 4 (rescue): the highest outstanding unSACKed segment.
    expect(sb.highestUnsacked()).toBe(11 * MSS);
  });

  it('rule 1 never returns a segment at or below HighRxt even if it is lost later', () => {
    const sb = board(10);
    sackSegs(sb, 1, 2);
    sb.retransmitted(3 * MSS); // HighRxt = 4 MSS (a rule 3 retransmission)
    sackSegs(sb, 4, 8);
    sb.markLost(DUP_THRESH);
    expect(lostSegs(sb)).toEqual([0, 2, 3]);
    // 0 and 2 are lost but lie below HighRxt: RFC 6675 (1.a) S2 > HighRxt.
    expect(sb.nextLost()).toBe(-1);
  });

  it('rescue: the highest unSACKed segment when the top of the window is SACKed', () => {
    const sb = board(10);
    sackSegs(sb, 6, 10);
    expect(sb.highestUnsacked()).toBe(5 * MSS);
    sackSegs(sb, 0, 6);
    expect(sb.highestUnsacked()).toBe(-1);
  });
});

describe('Scoreboard: SACK blocks that repeat or grow a known range (RFC 2018 section 4)', () => {
  it('a repeated block SACKs nothing; a first block growing its range SACKs only the new segments, and merges when it reaches the next range', () => {
    const sb = board(20);
    const delivered: number[] = [];
    sb.onDelivered = (seq) => delivered.push(seq / MSS);
    expect(sackSegs(sb, 2, 4)).toBe(2 * MSS);
    expect(sackSegs(sb, 8, 10)).toBe(2 * MSS);
    // The next ACK: the first block grew by one segment, the second repeats.
    expect(sackSegs(sb, 8, 11)).toBe(MSS);
    expect(sackSegs(sb, 2, 4)).toBe(0);
    expect(sackSegs(sb, 8, 11)).toBe(0);
    expect(sackSegs(sb, 3, 4)).toBe(0);
    // Growing [2, 4) up to the next range's start merges the two: [2, 11).
    expect(sackSegs(sb, 2, 8)).toBe(4 * MSS);
    expect(sb.sacked.count).toBe(1);
    expect([sb.sacked.startAt(0), sb.sacked.endAt(0)]).toEqual([2 * MSS, 11 * MSS]);
    expect(delivered).toEqual([2, 3, 8, 9, 10, 4, 5, 6, 7]);
    expect(sb.sackedBytes).toBe(9 * MSS);
    expect(sb.pipeBytes).toBe(setPipe(sb));
  });

  it('a growing block clears the lost and retransmitted marks of the segments it newly covers', () => {
    const sb = board(20);
    sackSegs(sb, 5, 9);
    sb.markLost(DUP_THRESH); // 0..4 lost
    sb.retransmitted(0);
    sackSegs(sb, 0, 1); // block [0, 1) below the range
    expect(sackSegs(sb, 0, 3)).toBe(2 * MSS); // grows [0, 1) to [0, 3), short of [5, 9)
    expect(lostSegs(sb)).toEqual([3, 4]);
    expect(sb.lostBytes).toBe(2 * MSS);
    expect(sb.retransBytes).toBe(0);
    expect(sb.pipeBytes).toBe(setPipe(sb));
  });
});

describe('Scoreboard: cumulative ACKs and timeouts', () => {
  it('ackTo returns the SACKed bytes it covers and drops every mark below SND.UNA', () => {
    const sb = board(10);
    sackSegs(sb, 2, 6);
    sb.markLost(DUP_THRESH);
    sb.retransmitted(0);
    expect(sb.ackTo(MSS)).toBe(0); // segment 0 was not SACKed
    expect([sb.lostBytes, sb.retransBytes]).toEqual([MSS, 0]);
    expect(sb.ackTo(4 * MSS)).toBe(2 * MSS); // 2, 3 were SACKed
    expect([sb.una, sb.sackedBytes, sb.lostBytes, sb.retransBytes]).toEqual([4 * MSS, 2 * MSS, 0, 0]);
    expect(sb.pipeBytes).toBe(4 * MSS); // 6..9
    expect(sb.ackTo(4 * MSS)).toBe(0); // not new
    expect(sb.recount()).toEqual({ sackedBytes: 2 * MSS, lostBytes: 0, retransBytes: 0 });
  });

  it('ackTo beyond SND.MAX is refused (it used to loop forever)', () => {
    const sb = board(3);
    expect(() => sb.ackTo(4 * MSS)).toThrow(RangeError);
    expect(sb.una).toBe(0);
  });

  it('markAllLost after an RTO: every unSACKed segment lost, SACK marks kept, earlier retransmissions no longer in flight', () => {
    const sb = board(10);
    sackSegs(sb, 3, 5);
    sb.markHeadLost();
    sb.retransmitted(0);
    sb.markAllLost();
    expect(lostSegs(sb)).toEqual([0, 1, 2, 5, 6, 7, 8, 9]);
    expect(segsWhere(sb, (s) => sb.isSacked(s))).toEqual([3, 4]);
    expect([sb.sackedBytes, sb.lostBytes, sb.retransBytes, sb.pipeBytes]).toEqual([2 * MSS, 8 * MSS, 0, 0]);
    expect(sb.highRxt).toBe(0);
    // The retransmission queue restarts at SND.UNA, in order, skipping SACKed data.
    const order: number[] = [];
    for (let s = sb.nextLost(); s >= 0; s = sb.nextLost()) {
      order.push(s / MSS);
      sb.retransmitted(s);
    }
    expect(order).toEqual([0, 1, 2, 5, 6, 7, 8, 9]);
    expect(sb.pipeBytes).toBe(8 * MSS);
  });

  it('the flag ring grows past its initial 1024 segments without losing marks', () => {
    const sb = board(10);
    sackSegs(sb, 5, 6);
    sb.sentNew(10 * MSS, 5000 * MSS);
    expect(sb.isSacked(5 * MSS)).toBe(true);
    expect(segsWhere(sb, (s) => sb.isSacked(s))).toEqual([5]);
    sackSegs(sb, 4000, 4001);
    sb.ackTo(4000 * MSS);
    sb.sentNew(5010 * MSS, 1000 * MSS);
    expect(segsWhere(sb, (s) => sb.isSacked(s))).toEqual([4000]);
  });
});

/** A naive reference: one record per outstanding segment, rules applied literally. */
class Model {
  una = 0;
  high = 0;
  highRxt = 0;
  readonly sacked = new Set<number>();
  readonly lost = new Set<number>();
  readonly retx = new Set<number>();

  sentNew(k: number): void {
    this.high += k;
  }
  sack(a: number, b: number): void {
    for (let i = Math.max(a, this.una); i < Math.min(b, this.high); i++) {
      this.sacked.add(i);
      this.lost.delete(i);
      this.retx.delete(i);
    }
  }
  ackTo(n: number): void {
    if (n <= this.una) return;
    for (let i = this.una; i < n; i++) {
      this.sacked.delete(i);
      this.lost.delete(i);
      this.retx.delete(i);
    }
    this.una = n;
    this.highRxt = Math.max(this.highRxt, n);
  }
  /** RFC 6675 IsLost: DupThresh SACKed segments above (all segments full-sized). */
  markLost(dupThresh: number): void {
    for (let i = this.una; i < this.high; i++) {
      if (this.sacked.has(i)) continue;
      let above = 0;
      for (let j = i + 1; j < this.high; j++) if (this.sacked.has(j)) above++;
      if (above >= dupThresh) this.lost.add(i);
    }
  }
  markHeadLost(): void {
    if (this.una < this.high && !this.sacked.has(this.una)) this.lost.add(this.una);
  }
  retransmitted(i: number): void {
    if (!this.sacked.has(i)) this.retx.add(i);
    this.highRxt = Math.max(this.highRxt, i + 1);
  }
  markAllLost(): void {
    for (let i = this.una; i < this.high; i++) {
      if (this.sacked.has(i)) continue;
      this.lost.add(i);
      this.retx.delete(i);
    }
    this.highRxt = this.una;
  }
  get pipe(): number {
    let p = 0;
    for (let i = this.una; i < this.high; i++) {
      if (this.sacked.has(i)) continue;
      if (!this.lost.has(i)) p++;
      if (this.retx.has(i)) p++;
    }
    return p;
  }
  private firstUnsackedFrom(pred: (i: number) => boolean): number {
    for (let i = Math.max(this.highRxt, this.una); i < this.high; i++) if (!this.sacked.has(i) && pred(i)) return i;
    return -1;
  }
  nextLost(): number {
    return this.firstUnsackedFrom((i) => this.lost.has(i));
  }
  nextUnsackedBelowHighestSack(): number {
    let top = -1;
    for (const i of this.sacked) top = Math.max(top, i);
    return this.firstUnsackedFrom((i) => i < top);
  }
  highestUnsacked(): number {
    for (let i = this.high - 1; i >= this.una; i--) if (!this.sacked.has(i)) return i;
    return -1;
  }
}

type Op =
  | { op: 'sentNew'; k: number }
  | { op: 'sack'; a: number; len: number }
  | { op: 'ackTo'; d: number }
  | { op: 'markLost'; t: number }
  | { op: 'markHeadLost' }
  | { op: 'retransmitted'; d: number }
  | { op: 'nextLostRetransmitted' }
  | { op: 'markAllLost' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('sentNew' as const), k: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('sack' as const), a: fc.nat({ max: 60 }), len: fc.integer({ min: 1, max: 8 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('ackTo' as const), d: fc.nat({ max: 20 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('markLost' as const), t: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'markHeadLost' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('retransmitted' as const), d: fc.nat({ max: 60 }) }) },
  { weight: 2, arbitrary: fc.constant({ op: 'nextLostRetransmitted' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'markAllLost' as const }) },
);

describe('Scoreboard: property test against recount() and a naive model', () => {
  it('every counter and every NextSeg query matches after random sentNew / sack / ackTo / markLost / retransmitted / markAllLost', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 80 }), (ops) => {
        const sb = new Scoreboard(MSS);
        const m = new Model();
        // Every sequence of operations must keep one threshold: IsLost's marks are monotone per threshold only.
        let threshold = 0;
        for (const o of ops) {
          switch (o.op) {
            case 'sentNew':
              sb.sentNew(m.high * MSS, o.k * MSS);
              m.sentNew(o.k);
              break;
            case 'sack': {
              // Blocks are relative to SND.UNA, as a receiver's would be (possibly reaching past SND.MAX: clipped).
              const a = m.una + o.a;
              const before = m.sacked.size;
              const newly = sb.sack(a * MSS, (a + o.len) * MSS);
              m.sack(a, a + o.len);
              // The bytes sack reports newly SACKed (what RFC 6675's duplicate-ACK test and the delivery count read).
              expect(newly).toBe((m.sacked.size - before) * MSS);
              break;
            }
            case 'ackTo': {
              const n = Math.min(m.una + o.d, m.high);
              sb.ackTo(n * MSS);
              m.ackTo(n);
              break;
            }
            case 'markLost':
              if (threshold === 0) threshold = o.t;
              sb.markLost(threshold);
              m.markLost(threshold);
              break;
            case 'markHeadLost':
              sb.markHeadLost();
              m.markHeadLost();
              break;
            case 'retransmitted': {
              if (m.high === m.una) break;
              const i = m.una + (o.d % (m.high - m.una));
              sb.retransmitted(i * MSS);
              m.retransmitted(i);
              break;
            }
            case 'nextLostRetransmitted': {
              const s = sb.nextLost();
              expect(s).toBe(m.nextLost() < 0 ? -1 : m.nextLost() * MSS);
              if (s >= 0) {
                sb.retransmitted(s);
                m.retransmitted(s / MSS);
              }
              break;
            }
            case 'markAllLost':
              sb.markAllLost();
              m.markAllLost();
              break;
          }
          const rc = sb.recount();
          expect(rc).toEqual({ sackedBytes: sb.sackedBytes, lostBytes: sb.lostBytes, retransBytes: sb.retransBytes });
          expect([sb.una, sb.highTx]).toEqual([m.una * MSS, m.high * MSS]);
          expect(sb.sackedBytes).toBe(m.sacked.size * MSS);
          expect(sb.lostBytes).toBe(m.lost.size * MSS);
          expect(sb.retransBytes).toBe(m.retx.size * MSS);
          expect(sb.pipeBytes).toBe(m.pipe * MSS);
          expect(sb.highRxt).toBe(m.highRxt * MSS);
          for (let i = m.una; i < m.high; i++) {
            expect([i, sb.isSacked(i * MSS), sb.isLost(i * MSS), sb.isRetransmitted(i * MSS) && !sb.isSacked(i * MSS)]).toEqual([
              i,
              m.sacked.has(i),
              m.lost.has(i),
              m.retx.has(i),
            ]);
          }
          const toSeq = (i: number): number => (i < 0 ? -1 : i * MSS);
          expect(sb.nextLost()).toBe(toSeq(m.nextLost()));
          expect(sb.nextUnsackedBelowHighestSack()).toBe(toSeq(m.nextUnsackedBelowHighestSack()));
          expect(sb.highestUnsacked()).toBe(toSeq(m.highestUnsacked()));
        }
      }),
      { numRuns: 400, seed: 6675 },
    );
  });
});

/**
 * Cost without timing: the scoreboard's per-segment state lives in one flag array; a proxy over it
 * counts the slots each ACK reads or writes. One hole at the head of a W-segment window, every
 * duplicate ACK SACKing one more segment (the receiver's first block growing) and clocking out one
 * new segment: the slots touched per ACK must not depend on W (binary searches over SACK ranges
 * are O(log ranges), and here there is one range).
 */
function flagTouchesPerAck(windowSegs: number): number[] {
  // Size the ring for twice the window first, so that its (amortised, doubling) growth does not
  // land inside the measured ACKs: the window grows by one segment per ACK below.
  const sb = board(2 * windowSegs);
  sb.ackTo(windowSegs * MSS);
  const base = windowSegs;
  let touched = 0;
  const holder = sb as unknown as { flags: Uint8Array };
  const flags = holder.flags;
  holder.flags = new Proxy(flags, {
    get(t, p) {
      if (typeof p === 'string' && /^\d+$/.test(p)) touched++;
      const v = (t as unknown as Record<string | symbol, unknown>)[p];
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
    set(t, p, v) {
      if (typeof p === 'string' && /^\d+$/.test(p)) touched++;
      (t as unknown as Record<string | symbol, unknown>)[p] = v;
      return true;
    },
  });
  const perAck: number[] = [];
  let high = 2 * windowSegs;
  for (let k = 1; k < windowSegs; k++) {
    touched = 0;
    sb.sack((base + 1) * MSS, (base + k + 1) * MSS);
    sb.markLost(DUP_THRESH);
    sb.nextLost();
    sb.nextUnsackedBelowHighestSack();
    void sb.pipeBytes;
    sb.sentNew(high * MSS, MSS);
    high++;
    perAck.push(touched);
  }
  return perAck;
}

describe('Scoreboard: cost per ACK does not grow with the window', () => {
  it('flag slots touched per duplicate ACK: the same bound at 100, 1000 and 6000 segments', () => {
    const maxima = [100, 1000, 6000].map((w) => Math.max(...flagTouchesPerAck(w)));
    // Each ACK SACKs exactly one new segment (one read + one write of its flag); the ACK that
    // crosses DupThresh also marks the hole lost (one more read + write).
    expect(maxima).toEqual([4, 4, 4]);
  });
});
