import type { CongestionControl } from '../../src/cc/types.js';
import { Simulator } from '../../src/engine/simulator.js';
import { LazyTimer } from '../../src/engine/timer.js';
import type { SenderConfig } from '../../src/tcp/sender-config.js';
import { TcpSender } from '../../src/tcp/sender.js';

/** One segment the bare sender handed to the network: its number (seq / MSS), whether a retransmission, when (ms). */
export interface SentSegment {
  seg: number;
  retx: boolean;
  tMs: number;
}

/**
 * A sender with no network (the bare-TCB tests' counterpart for the sender): the test moves the clock
 * and hands ACKs in, and every segment sent is logged. Segments of `mssBytes` (100 in these tests),
 * RTO 1-60 s at 1 ms granularity, dupthresh 3, buffers and receive window that never limit, classic
 * recovery; `config` overrides any of it.
 */
export function bareSender(cc: CongestionControl, config: Partial<SenderConfig> & { mssBytes: number }) {
  const mss = config.mssBytes;
  const sent: SentSegment[] = [];
  const sim: Simulator = new Simulator(() => sender.onRtoEvent());
  const port = { sendData: (_f: number, seq: number, _len: number, retx: boolean) => sent.push({ seg: seq / mss, retx, tMs: sim.nowNs / 1e6 }) };
  const sender: TcpSender = new TcpSender(
    0,
    sim,
    cc,
    port,
    {
      initialCwndSegments: 10,
      initialSsthreshBytes: null,
      minRtoS: 1,
      maxRtoS: 60,
      clockGranularityS: 0.001,
      dupAckThreshold: 3,
      sndBufBytes: 1e9,
      initialRwndBytes: 1e9,
      sack: true,
      recovery: 'classic',
      ...config,
    },
    new LazyTimer(sim, 1, 0),
  );
  /** An ACK, now, of segment n (cumulative) with SACK blocks [start, end) in segments; timestamps echo t = 0. */
  const ackNow = (n: number, blocks: [number, number][] = []): void => {
    const b = new Float64Array(2 * blocks.length);
    blocks.forEach(([s, e], i) => {
      b[2 * i] = s * mss;
      b[2 * i + 1] = e * mss;
    });
    sender.onAck(n * mss, 0, 1e9, blocks.length, b);
  };
  /** The same at tMs. */
  const ack = (tMs: number, n: number, blocks: [number, number][] = []): void => {
    sim.nowNs = tMs * 1e6;
    ackNow(n, blocks);
  };
  return { sender, sim, sent, ack, ackNow };
}
