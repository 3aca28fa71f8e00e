import type { Simulator } from '../engine/simulator.js';
import type { TraceRecorder } from '../engine/trace.js';
import type { Dumbbell } from '../net/dumbbell.js';
import type { TcpReceiver } from '../tcp/receiver.js';
import type { TcpSender } from '../tcp/sender.js';
import type { FlowStats } from './flow-stats.js';
import type { QueueDelayStats } from './queue-delay.js';

/** Counters of one flow at the start of the measurement window. */
export interface FlowSnapshot {
  deliveredBytes: number;
  sentBytes: number;
}

/** Everything a run builds, exposed for white-box tests (conservation, RTT samples). */
export interface PacketModel {
  sim: Simulator;
  net: Dumbbell;
  senders: TcpSender[];
  receivers: TcpReceiver[];
  stats: FlowStats[];
  queueTrace: TraceRecorder;
  /** Queueing delay of data packets at the traced queue. */
  queueDelay: QueueDelayStats;
  /** Per flow: when a finite transfer's last byte reached the receiver in order (ns), NaN until then or for bulk flows. */
  completedNs: Float64Array;
  /** Per flow: counters at the start of the measurement window. */
  atMeasureStart: FlowSnapshot[];
}
