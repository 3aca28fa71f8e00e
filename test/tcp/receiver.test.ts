import { describe, expect, it } from 'vitest';
import { Simulator } from '../../src/engine/simulator.js';
import { TcpReceiver } from '../../src/tcp/receiver.js';

function setup(delAckCount = 2) {
  const acks: { t: number; ack: number; ts: number; rwnd: number }[] = [];
  const sim: Simulator = new Simulator((_kind, _arg) => rx.onDelAckTimer());
  const rx = new TcpReceiver(0, sim, { sendAck: (_f, ack, ts, rwnd) => acks.push({ t: sim.nowNs, ack, ts, rwnd }) }, delAckCount, 200_000_000, 10_000, 9);
  return { acks, sim, rx };
}

describe('TcpReceiver', () => {
  it('ACKs every 2nd in-order segment and echoes the first one\'s timestamp', () => {
    const { acks, rx } = setup();
    rx.onData(0, 100, 11);
    expect(acks).toEqual([]);
    rx.onData(100, 100, 22);
    expect(acks).toEqual([{ t: 0, ack: 200, ts: 11, rwnd: 10_000 }]);
    expect(rx.deliveredBytes).toBe(200);
  });

  it('the delayed-ACK timer sends a lone segment\'s ACK after delAckTimeout', () => {
    const { acks, rx, sim } = setup();
    rx.onData(0, 100, 5);
    sim.run(199_999_999);
    expect(acks).toEqual([]);
    sim.run(300_000_000);
    expect(acks).toEqual([{ t: 200_000_000, ack: 100, ts: 5, rwnd: 10_000 }]);
  });

  it('out-of-order data is ACKed at once (duplicate ACK), buffered, and a filled hole is ACKed at once', () => {
    const { acks, rx } = setup();
    rx.onData(0, 100, 1);
    rx.onData(200, 100, 3); // hole at [100, 200)
    expect(acks.map((a) => a.ack)).toEqual([100]);
    expect(acks[0]!.rwnd).toBe(10_000 - 100);
    rx.onData(300, 100, 4);
    expect(acks.map((a) => a.ack)).toEqual([100, 100]);
    rx.onData(100, 100, 5); // fills the hole
    expect(acks.map((a) => a.ack)).toEqual([100, 100, 400]);
    expect(acks[2]!.rwnd).toBe(10_000);
    expect(rx.deliveredBytes).toBe(400);
  });

  it('a duplicate segment is ACKed at once and not delivered twice', () => {
    const { acks, rx } = setup();
    rx.onData(0, 100, 1);
    rx.onData(100, 100, 2);
    rx.onData(0, 100, 3);
    expect(acks.map((a) => a.ack)).toEqual([200, 200]);
    expect(rx.deliveredBytes).toBe(200);
    expect(rx.arrivedBytes).toBe(300);
  });
});
