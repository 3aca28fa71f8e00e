import { TraceGroup } from '../engine/trace.js';
import type { FlowTrace, Series } from '../result/types.js';
import type { SenderObserver, TcpSender } from '../tcp/sender.js';

/**
 * Per-flow traces and the time-weighted mean of cwnd, fed after every ACK and timeout.
 * The mean is integrated exactly over the measurement window [fromNs, toNs] (cwnd is a step
 * function between sender events); the four traces are one bounded TraceGroup (one clock, one
 * state array per flow).
 */
const CWND = 0;
const SSTHRESH = 1;
const SRTT = 2;
const INFLIGHT = 3;

export class FlowStats {
  /** null when the run records no series (RunOptions.record 'summary'): the mean is still integrated. */
  private readonly traces: TraceGroup | null;
  private areaByteNs = 0;
  // Numbers from the start (set again in the constructor): a field only declared is emitted as an
  // ES2022 class field that starts undefined, V8 then keeps it in a tagged slot, and every
  // fractional or > 2^30 number stored there (lastNs once per ACK) is a new heap number
  // (bench/packet.ts --target --alloc: integrateTo 2.4 B per event).
  private lastNs = 0;
  private lastCwnd = 0;

  constructor(
    durationNs: number,
    maxPoints: number,
    private readonly fromNs: number,
    private readonly toNs: number,
    initialCwndBytes: number,
    series = true,
  ) {
    this.traces = series ? new TraceGroup(4, durationNs, maxPoints) : null;
    this.lastNs = fromNs;
    this.lastCwnd = initialCwndBytes;
  }

  /** After a sender event: `clock` rather than its time, which would be boxed as an argument past 2^31 ns. */
  update(clock: { readonly nowNs: number }, s: TcpSender): void {
    const tcb = s.tcb;
    this.integrateTo(clock);
    this.lastCwnd = tcb.cwndBytes;
    const traces = this.traces;
    if (traces === null) return;
    // recordNow, not record(k, nowNs, v): the time (past 2^30 ns) would be boxed per call, four per
    // ACK, whenever V8 does not inline record here (bench/packet.ts --target --alloc).
    traces.recordNow(CWND, clock, tcb.cwndBytes);
    // ssthresh starts "unlimited" (not representable in JSON): the trace begins at the first cut.
    if (Number.isFinite(tcb.ssthreshBytes)) traces.recordNow(SSTHRESH, clock, tcb.ssthreshBytes);
    if (tcb.srttS > 0) traces.recordNow(SRTT, clock, tcb.srttS);
    traces.recordNow(INFLIGHT, clock, tcb.bytesInFlight);
  }

  /** Up to `clock`'s time: the clock, not its time, which would be boxed per ACK when V8 does not inline this (2.3 B/event in bench/packet.ts --target --alloc). */
  private integrateTo(clock: { readonly nowNs: number }): void {
    const t = Math.min(Math.max(clock.nowNs, this.fromNs), this.toNs);
    if (t > this.lastNs) {
      this.areaByteNs += this.lastCwnd * (t - this.lastNs);
      this.lastNs = t;
    }
  }

  /** Time-weighted mean cwnd over the measurement window (bytes). */
  meanCwndBytes(): number {
    this.integrateTo({ nowNs: this.toNs });
    const span = this.toNs - this.fromNs;
    return span > 0 ? this.areaByteNs / span : this.lastCwnd;
  }

  /** The four series; empty ones when the run records none. */
  trace(): FlowTrace {
    const traces = this.traces;
    const series = (k: number): Series => (traces === null ? { t: [], v: [] } : traces.toSeries(k));
    return {
      cwndBytes: series(CWND),
      ssthreshBytes: series(SSTHRESH),
      srttS: series(SRTT),
      inflightBytes: series(INFLIGHT),
    };
  }
}

/** Adapter: one observer for all senders, routing to their FlowStats. */
export class StatsObserver implements SenderObserver {
  constructor(
    private readonly stats: FlowStats[],
    private readonly clock: { nowNs: number },
  ) {}

  onSenderUpdate(sender: TcpSender): void {
    this.stats[sender.flow]!.update(this.clock, sender);
  }
}
