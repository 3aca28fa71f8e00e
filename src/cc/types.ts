import type { Variant } from '../variants.js';

/**
 * The congestion-control plug-in interface of the packet engine, after Linux's `tcp_congestion_ops`
 * and ns-3's `TcpCongestionOps`. An algorithm is a small object of hooks with private per-flow state;
 * it sees only the TCP state below and the ACK facts it is handed, never the simulator, a timer or a
 * packet. The sender owns loss detection, retransmission and the recovery state machine; the algorithm
 * owns the window arithmetic.
 */

/** Linux/ns-3 congestion states. */
export type CaState = 'open' | 'disorder' | 'recovery' | 'loss';

/** What the sender shares with the algorithm (ns-3's TcpSocketState). Windows in bytes, as ns-3. */
export interface TcpState {
  readonly mssBytes: number;
  /** The algorithm writes cwnd in increaseWindow and on state changes. */
  cwndBytes: number;
  /** Set by the sender from ssthresh(); an algorithm may also set it (e.g. HyStart). */
  ssthreshBytes: number;
  /**
   * Data sent and not yet cumulatively acknowledged (RFC 5681 FlightSize). In `onAck` it already
   * excludes what that ACK acknowledges (the packet engine updates it first; HyStart relies on it).
   */
  readonly bytesInFlight: number;
  /** RFC 6298 SRTT; 0 before the first sample. */
  readonly srttS: number;
  /** Smallest RTT sample seen; Infinity before the first sample. */
  readonly minRttS: number;
  readonly caState: CaState;
}

/** Facts about one arriving ACK. */
export interface AckSample {
  nowS: number;
  /** Bytes newly acknowledged cumulatively by this ACK (0 for a duplicate ACK). */
  bytesAcked: number;
  /** Segments newly acknowledged (ns-3's segmentsAcked, rounded up): 2 for a delayed ACK. */
  segmentsAcked: number;
  /** True for a duplicate ACK. */
  duplicate: boolean;
  /** RTT measured by this ACK, when it yields one (Karn's rule / timestamps decide). */
  rttS?: number;
}

/** A tunable knob of an algorithm, with metadata that drives validation, docs and sweeps. */
export interface ParamSpec {
  name: string;
  doc: string;
  unit: string;
  default: number;
  min: number;
  max: number;
}

export type LossKind = 'dupacks' | 'timeout';

export interface CongestionControl {
  readonly id: Variant;
  /**
   * What the sender does after `dupAckThreshold` duplicate ACKs:
   * - 'none': Tahoe; fast retransmit, then cwnd = 1 MSS and slow start (RFC 5681 without 3.2 step 4-6).
   * - 'reno': RFC 5681 fast recovery with window inflation; leaves recovery on the first new ACK.
   * - 'newreno': RFC 6582; partial ACKs retransmit the next hole and stay in recovery.
   */
  readonly recovery: 'none' | 'reno' | 'newreno';
  /** (required) New ssthresh in bytes after a loss event; returns it, does not set it (ns-3 GetSsThresh). */
  ssthresh(tcb: TcpState, kind: LossKind, nowS: number): number;
  /** (required) Grow cwnd for an ACK of new data while in 'open' state: slow start and congestion avoidance. */
  increaseWindow(tcb: TcpState, ack: AckSample): void;
  /** (optional) Every ACK, in any state, before the sender acts on it: RTT samples, bandwidth estimation. */
  onAck?(tcb: TcpState, ack: AckSample): void;
  /** (optional) The sender changed state (entering 'recovery'/'loss' marks a congestion event). */
  onStateChange?(tcb: TcpState, state: CaState, nowS: number): void;
}

/** A registered algorithm: its id, its knobs and a factory for per-flow instances. */
export interface CongestionControlFactory {
  readonly id: Variant;
  readonly title: string;
  readonly params: readonly ParamSpec[];
  create(params: Readonly<Record<string, number>>): CongestionControl;
}
