/** Bare TCP states and ACK clocks for the congestion-control tests (no network, as ns-3's tcp-*-test.cc). */
import type { AckSample, CaState, CongestionControl, TcpState } from '../../src/cc/types.js';

/** A TcpState whose every field the test may write. */
export type MutableTcb = { -readonly [K in keyof TcpState]: TcpState[K] };

export const MSS = 1000;

export function makeTcb(over: Partial<MutableTcb> = {}): MutableTcb {
  return {
    mssBytes: MSS,
    cwndBytes: 10 * MSS,
    ssthreshBytes: Infinity,
    bytesInFlight: 10 * MSS,
    srttS: 0.1,
    minRttS: 0.1,
    caState: 'open' as CaState,
    pacingRateBps: Infinity,
    sackEnabled: true,
    isCwndLimited: true,
    ...over,
  };
}

/** An ACK of `segments` new full segments at `nowS`. */
export function newAck(nowS: number, segments = 1, mss = MSS, rttS?: number): AckSample {
  return { nowS, bytesAcked: segments * mss, segmentsAcked: segments, duplicate: false, rttS };
}

export function dupAck(nowS: number): AckSample {
  return { nowS, bytesAcked: 0, segmentsAcked: 0, duplicate: true };
}

/** Deliver one ACK the way the sender does in 'open' state: onAck, then increaseWindow. */
export function deliver(cc: CongestionControl, tcb: MutableTcb, ack: AckSample): void {
  cc.onAck?.(tcb, ack);
  cc.increaseWindow(tcb, ack);
}

export interface ClockOptions {
  /** Round-trip time of every round, s. */
  rttS: number;
  /** Segments per ACK (2 = delayed ACKs). */
  segsPerAck?: number;
  /** Time of the first round's start, s. */
  startS?: number;
  /** RTT sample reported on each ACK (default rttS); a function of time for rising RTTs. */
  rttSample?: (nowS: number) => number;
}

/**
 * A loss-free ACK clock: each round, the whole window (floor(cwnd / MSS) segments) is ACKed,
 * `segsPerAck` segments per ACK, ACKs evenly spaced over the round, and the next round starts one
 * RTT later. Returns the time after the last round and records (t, cwnd segments) at round starts.
 */
export function runRounds(
  cc: CongestionControl,
  tcb: MutableTcb,
  rounds: number,
  opts: ClockOptions,
  trace?: Array<{ t: number; cwnd: number }>,
): number {
  const per = opts.segsPerAck ?? 1;
  let t = opts.startS ?? 0;
  for (let r = 0; r < rounds; r++) {
    trace?.push({ t, cwnd: tcb.cwndBytes / tcb.mssBytes });
    const segs = Math.floor(tcb.cwndBytes / tcb.mssBytes);
    const acks = Math.ceil(segs / per);
    tcb.bytesInFlight = segs * tcb.mssBytes;
    for (let i = 0; i < acks; i++) {
      const now = t + ((i + 1) * opts.rttS) / acks;
      const n = Math.min(per, segs - i * per);
      const ack = newAck(now, n, tcb.mssBytes, opts.rttSample ? opts.rttSample(now) : opts.rttS);
      // As the packet engine: the flight already excludes this ACK's bytes when the hooks run.
      tcb.bytesInFlight -= n * tcb.mssBytes;
      deliver(cc, tcb, ack);
    }
    t += opts.rttS;
  }
  trace?.push({ t, cwnd: tcb.cwndBytes / tcb.mssBytes });
  return t;
}
