import type { Engine, Variant } from '../variants.js';
import type { Scenario } from '../scenario/types.js';

/** A time series in columns: t in seconds, v in the unit named by the field holding it. */
export interface Series {
  t: number[];
  v: number[];
}

export interface FlowTrace {
  cwndBytes: Series;
  ssthreshBytes: Series;
  /** Smoothed RTT (packet: RFC 6298 SRTT; fluid: R(t) = Tp + q/C). */
  srttS: Series;
  inflightBytes: Series;
}

export interface FlowSummary {
  flowId: number;
  /** Bytes delivered in order to the receiving application during the measurement interval, x 8 / interval. */
  goodputBps: number;
  /** Bytes (payload, incl. retransmissions) put on the wire by the sender, x 8 / interval. */
  throughputBps: number;
  /** Time-weighted mean of cwnd over the measurement interval. */
  meanCwndBytes: number;
  meanCwndSegments: number;
  bytesDelivered: number;
  bytesSent: number;
  /**
   * Counts over the whole run, from t = 0, in both engines (the rates and means above cover the
   * measurement interval): segments retransmitted (fluid: expected lost packets), retransmission
   * timeouts (packet: every expiry, back-offs included; fluid: the expected entries into the RTO, one
   * per back-off sequence, which on `lossy` is 1 expiry in 1.2), fast recoveries (window reductions by
   * duplicate ACKs or SACKs; fluid: expected, or the hybrid models' loss events).
   */
  retransmits: number;
  timeouts: number;
  fastRecoveries: number;
  /** Data segments lost (any cause) / data segments sent, over the whole run. */
  lossRate: number;
  /**
   * Packet engine: this flow's queueing delay at the traced queue (see RunResult.queue) over the
   * measurement interval; absent when none of its packets crossed it there.
   */
  queueDelay?: QueueDelaySummary;
  /** Packet engine, flows that negotiated ECN (tcp.ecn): marks and the sender's response, whole run. */
  ecn?: EcnFlowStats;
  /** Packet engine, finite transfers only (flows[i].bytes set): its size and completion time. */
  transfer?: TransferStats;
}

/**
 * A finite transfer's flow completion time: from the application's start (flows[i].startS) to the
 * receiver's in-order delivery of its last byte (what the receiving application sees; ns-3's
 * FlowMonitor measures first transmission to last reception, the same interval here since the
 * sender transmits at its start). null when the last byte had not arrived by the end of the run.
 */
export interface TransferStats {
  bytes: number;
  completionS: number | null;
}

/** ECN counts of one flow (RFC 3168; src/tcp/ecn.ts). */
export interface EcnFlowStats {
  /** Data segments a queue marked CE that left the network (reached the receiver, or were lost after the mark). */
  marks: number;
  /** ACKs that carried ECN-Echo. */
  eceAcks: number;
  /** Window reductions ECN-Echo started (at most one per window of data, RFC 3168 6.1.2). */
  reductions: number;
  /** Data segments sent with CWR. */
  cwrSent: number;
}

/** Queueing delay (sojourn: arrival at the queue to start of transmission) of data packets. */
export interface QueueDelaySummary {
  meanS: number;
  /** 99th percentile, from log bins 2% wide (exact to 1%). */
  p99S: number;
  packets: number;
}

/** What the traced queue's discipline did (packet engine): drops and CE marks by reason. */
export interface QueueDisciplineStats {
  kind: string;
  drops: Record<string, number>;
  marks: Record<string, number>;
}

export interface DropCounters {
  /** Data packets dropped by a full queue (or RED) anywhere on the path. */
  queue: number;
  /** Data packets dropped by the random loss model. */
  random: number;
  /** ACKs dropped by the random loss model. */
  ackRandom: number;
  /** ACKs dropped by a full queue. */
  ackQueue: number;
}

export interface RunSummary {
  goodputBps: number;
  throughputBps: number;
  /** Mean over flows of each flow's time-weighted mean cwnd. */
  meanCwndBytes: number;
  meanCwndSegments: number;
  /** Whole-run counts, summed over flows (see FlowSummary). */
  retransmits: number;
  timeouts: number;
  fastRecoveries: number;
  drops: DropCounters;
  lossRate: number;
  /** With tcp.ecn: CE marks and ECN window reductions summed over flows (see FlowSummary.ecn). */
  ecn?: { marks: number; reductions: number };
}

export interface RunStats {
  /** Wall-clock seconds for the run: the only field allowed to differ between identical runs. */
  wallS: number;
  /** Packet engine: events processed. */
  events?: number;
  /** Fluid engine: solver statistics. */
  solver?: { steps: number; rejected: number; rhsEvaluations: number; events: number };
}

export interface RunResult {
  engine: Engine;
  variant: Variant;
  /** Scenario name. */
  scenario: string;
  /** The exact scenario that produced this result (for re-runs and cache keys). */
  spec: Scenario;
  durationS: number;
  mssBytes: number;
  /** 'failed' runs carry a reason and no numbers may be trusted (e.g. a fluid model blew up). */
  status: 'ok' | 'failed';
  failure?: string;
  summary: RunSummary;
  flows: { summary: FlowSummary; trace: FlowTrace }[];
  /**
   * Length (packets) of the queue where packets wait: the slowest link on flow 0's path (the
   * bottleneck unless an access link is slower). `link` names it (packet engine: `bottleneck`,
   * `access0`, ...; fluid engine: the link its queue equation stands for).
   */
  queue: {
    packets: Series;
    link?: string;
    /** Packet engine: the traced queue's discipline and its drops and marks by reason, over the whole run. */
    discipline?: QueueDisciplineStats;
    /** Packet engine: each data packet's queueing delay (s) at the traced queue, at the start of its transmission. */
    delayS?: Series;
    /**
     * Mean and 99th percentile of that delay over the measurement interval, all flows. Packet engine:
     * per data packet; fluid engine: per admitted packet (the mean exact, the p99 on a 5000-point
     * grid; src/fluid/run/measure.ts queueDelaySummary).
     */
    delay?: QueueDelaySummary;
  };
  stats: RunStats;
}
