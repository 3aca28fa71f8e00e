import { TraceRecorder } from '../engine/trace.js';
import type { FlowTrace } from '../result/types.js';
import type { SenderObserver, TcpSender } from '../tcp/sender.js';

/**
 * Per-flow traces and the time-weighted mean of cwnd, fed after every ACK and timeout.
 * The mean is integrated exactly over the measurement window [fromNs, toNs] (cwnd is a step
 * function between sender events); the traces are bounded by TraceRecorder.
 */
export class FlowStats {
  readonly cwnd: TraceRecorder;
  readonly ssthresh: TraceRecorder;
  readonly srtt: TraceRecorder;
  readonly inflight: TraceRecorder;
  private areaByteNs = 0;
  private lastNs: number;
  private lastCwnd: number;

  constructor(
    durationNs: number,
    maxPoints: number,
    private readonly fromNs: number,
    private readonly toNs: number,
    initialCwndBytes: number,
  ) {
    this.cwnd = new TraceRecorder(durationNs, maxPoints);
    this.ssthresh = new TraceRecorder(durationNs, maxPoints);
    this.srtt = new TraceRecorder(durationNs, maxPoints);
    this.inflight = new TraceRecorder(durationNs, maxPoints);
    this.lastNs = fromNs;
    this.lastCwnd = initialCwndBytes;
  }

  update(nowNs: number, s: TcpSender): void {
    const tcb = s.tcb;
    this.integrateTo(nowNs);
    this.lastCwnd = tcb.cwndBytes;
    this.cwnd.record(nowNs, tcb.cwndBytes);
    // ssthresh starts "unlimited" (not representable in JSON): the trace begins at the first cut.
    if (Number.isFinite(tcb.ssthreshBytes)) this.ssthresh.record(nowNs, tcb.ssthreshBytes);
    if (tcb.srttS > 0) this.srtt.record(nowNs, tcb.srttS);
    this.inflight.record(nowNs, tcb.bytesInFlight);
  }

  private integrateTo(nowNs: number): void {
    const t = Math.min(Math.max(nowNs, this.fromNs), this.toNs);
    if (t > this.lastNs) {
      this.areaByteNs += this.lastCwnd * (t - this.lastNs);
      this.lastNs = t;
    }
  }

  /** Time-weighted mean cwnd over the measurement window (bytes). */
  meanCwndBytes(): number {
    this.integrateTo(this.toNs);
    const span = this.toNs - this.fromNs;
    return span > 0 ? this.areaByteNs / span : this.lastCwnd;
  }

  trace(): FlowTrace {
    return {
      cwndBytes: this.cwnd.toSeries(),
      ssthreshBytes: this.ssthresh.toSeries(),
      srttS: this.srtt.toSeries(),
      inflightBytes: this.inflight.toSeries(),
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
    this.stats[sender.flow]!.update(this.clock.nowNs, sender);
  }
}
