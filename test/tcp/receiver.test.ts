import { describe, expect, it } from 'vitest';
import { Simulator } from '../../src/engine/simulator.js';
import { LazyTimer } from '../../src/engine/timer.js';
import { TcpReceiver } from '../../src/tcp/receiver.js';
import { MAX_SACK_BLOCKS_WITH_TIMESTAMPS, sackOptionBytes } from '../../src/tcp/sack-blocks.js';

const SEG = 100;
const RCVBUF = 10_000;

interface Ack {
  t: number;
  ack: number;
  ts: number;
  rwnd: number;
  /** SACK blocks in segment numbers, [start, end) each. */
  blocks: [number, number][];
}

function setup(delAckCount = 2, sack = false) {
  const acks: Ack[] = [];
  const sim: Simulator = new Simulator(() => rx.onDelAckTimer());
  const timer = new LazyTimer(sim, 0, 0);
  const port = {
    sendAck(_f: number, ack: number, ts: number, rwnd: number, n: number, b: Float64Array): void {
      const blocks: [number, number][] = [];
      for (let i = 0; i < n; i++) blocks.push([b[2 * i]! / SEG, b[2 * i + 1]! / SEG]);
      acks.push({ t: sim.nowNs, ack, ts, rwnd, blocks });
    },
  };
  const rx: TcpReceiver = new TcpReceiver(0, port, { delAckCount, rcvBufBytes: RCVBUF, sack }, timer, 200_000_000, sim);
  /** Segment i arrives with timestamp ts. */
  const seg = (i: number, ts = i): void => rx.onData(i * SEG, SEG, ts);
  return { acks, sim, rx, seg };
}

describe('TcpReceiver: cumulative and delayed ACKs (RFC 5681 4.2)', () => {
  it("ACKs every 2nd in-order segment and echoes the first one's timestamp", () => {
    const { acks, rx, seg } = setup();
    seg(0, 11);
    expect(acks).toEqual([]);
    seg(1, 22);
    expect(acks).toEqual([{ t: 0, ack: 200, ts: 11, rwnd: RCVBUF, blocks: [] }]);
    expect(rx.deliveredBytes).toBe(200);
  });

  it("the delayed-ACK timer sends a lone segment's ACK after delAckTimeout (200 ms), not before", () => {
    const { acks, seg, sim } = setup();
    seg(0, 5);
    sim.run(199_999_999);
    expect(acks).toEqual([]);
    sim.run(300_000_000);
    expect(acks).toEqual([{ t: 200_000_000, ack: 100, ts: 5, rwnd: RCVBUF, blocks: [] }]);
  });

  it('the timer is not restarted by later segments and is stopped by the ACK it would have sent', () => {
    const { acks, seg, sim } = setup(3);
    seg(0);
    sim.run(150_000_000);
    seg(1);
    sim.run(250_000_000);
    // Started by segment 0 at t = 0: fires at 200 ms with both segments.
    expect(acks.map((a) => [a.t, a.ack])).toEqual([[200_000_000, 200]]);
    seg(2);
    seg(3);
    seg(4); // third pending: ACK at once, timer stopped
    sim.run(1_000_000_000);
    expect(acks.map((a) => [a.t, a.ack])).toEqual([
      [200_000_000, 200],
      [250_000_000, 500],
    ]);
  });

  it('out-of-order data is ACKed at once (a duplicate ACK) and a filled hole is ACKed at once; the window stays the buffer', () => {
    const { acks, rx, seg } = setup();
    seg(0);
    seg(2); // hole at segment 1
    expect(acks.map((a) => a.ack)).toEqual([100]);
    seg(3);
    expect(acks.map((a) => a.ack)).toEqual([100, 100]);
    seg(1); // fills the hole
    expect(acks.map((a) => a.ack)).toEqual([100, 100, 400]);
    // Out-of-order data sits inside the advertised window: the right edge never moves left.
    expect(acks.map((a) => a.rwnd)).toEqual([RCVBUF, RCVBUF, RCVBUF]);
    expect(rx.deliveredBytes).toBe(400);
    expect(acks.every((a) => a.blocks.length === 0)).toBe(true); // SACK off
  });

  it('a duplicate segment is ACKed at once and not delivered twice', () => {
    const { acks, rx, seg } = setup();
    seg(0);
    seg(1);
    seg(0);
    expect(acks.map((a) => a.ack)).toEqual([200, 200]);
    expect(rx.deliveredBytes).toBe(200);
    expect(rx.arrivedBytes).toBe(300);
  });
});

describe('TcpReceiver: SACK blocks (RFC 2018 section 4)', () => {
  it('first block = the block holding the segment that triggered the ACK, then the most recently reported others, at most 3', () => {
    const { acks, seg } = setup(2, true);
    seg(0);
    seg(2);
    expect(acks.at(-1)).toMatchObject({ ack: 100, blocks: [[2, 3]] });
    seg(4);
    expect(acks.at(-1)!.blocks).toEqual([
      [4, 5],
      [2, 3],
    ]);
    seg(6);
    expect(acks.at(-1)!.blocks).toEqual([
      [6, 7],
      [4, 5],
      [2, 3],
    ]);
    seg(8);
    // Four blocks exist, three fit beside the timestamp option: the oldest report ([2, 3)) drops out.
    expect(acks.at(-1)!.blocks).toEqual([
      [8, 9],
      [6, 7],
      [4, 5],
    ]);
    seg(3); // segment 3 joins [2, 3) and [4, 5) into [2, 5)
    // The merged blocks disappear as separate entries; [2, 5) comes first, then 8, then 6.
    expect(acks.at(-1)!.blocks).toEqual([
      [2, 5],
      [8, 9],
      [6, 7],
    ]);
    seg(7); // joins [6, 7) and [8, 9) into [6, 9): both old entries go, [6, 9) first
    expect(acks.at(-1)!.blocks).toEqual([
      [6, 9],
      [2, 5],
    ]);
  });

  it('a block that joins its neighbour on both sides replaces both', () => {
    const { acks, seg } = setup(2, true);
    seg(0);
    seg(2);
    seg(4);
    seg(3); // [2, 3) + 3 + [4, 5) = [2, 5)
    expect(acks.at(-1)!.blocks).toEqual([[2, 5]]);
  });

  it('blocks at or below the cumulative ACK disappear; the segment that advanced the ACK gets no block', () => {
    const { acks, seg } = setup(2, true);
    seg(0);
    seg(2);
    seg(5);
    seg(1); // ACK moves to 3: [2, 3) is now below it
    expect(acks.at(-1)).toMatchObject({ ack: 300, blocks: [[5, 6]] });
    seg(3);
    seg(4); // ACK to 6: no block left
    expect(acks.at(-1)).toMatchObject({ ack: 600, blocks: [] });
  });

  it('an out-of-order segment adjacent above a reported block extends it in place rather than adding one', () => {
    const { acks, seg } = setup(2, true);
    seg(0);
    seg(2);
    seg(6);
    seg(3);
    expect(acks.at(-1)!.blocks).toEqual([
      [2, 4],
      [6, 7],
    ]);
  });

  // RFC 2018 section 4: "The first SACK block ... MUST specify the contiguous block of data
  // containing the segment which triggered this ACK, unless that segment advanced the
  // Acknowledgment Number". A duplicate of an already-SACKed segment triggers an immediate ACK
  // (receiver.ts), but the receiver returns before updating the block list, so its block keeps its
  // old place (here third). D-SACK (RFC 2883) is not required; the ordering rule still applies.
  it('a duplicate of an out-of-order segment puts its block first (RFC 2018 section 4 MUST)', () => {
    const { acks, seg } = setup(2, true);
    seg(0);
    seg(2);
    seg(4);
    seg(6);
    seg(2); // duplicate: triggers the ACK
    expect(acks.at(-1)!.blocks[0]).toEqual([2, 3]);
  });

  it('ACK option bytes: 4 + 8 per block (kind, length, two NOPs); 3 blocks fill the 40 option bytes beside timestamps', () => {
    expect([0, 1, 2, 3].map(sackOptionBytes)).toEqual([0, 12, 20, 28]);
    const timestampOptionBytes = 10 + 2; // RFC 7323 TSopt, padded by two NOPs
    const maxTcpOptionBytes = 40; // data offset 15 words - 20-byte header
    expect(timestampOptionBytes + sackOptionBytes(MAX_SACK_BLOCKS_WITH_TIMESTAMPS)).toBe(maxTcpOptionBytes);
    expect(timestampOptionBytes + sackOptionBytes(MAX_SACK_BLOCKS_WITH_TIMESTAMPS + 1)).toBeGreaterThan(maxTcpOptionBytes);
  });
});
