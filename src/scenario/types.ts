import type { Variant } from '../variants.js';
import type { ProfileName } from './profiles.js';

/**
 * The one contract both engines consume. Everything is in SI units with the unit in the name
 * (seconds `S`, bits per second `Bps`, bytes `Bytes`, packets `Packets`). A Scenario is plain JSON:
 * it can be hashed (sweep cache), written next to results, and re-run.
 */
export interface Scenario {
  /** Human name (preset id or file stem); carried into results and reports. */
  name: string;
  /** Congestion control of every flow that names none (`flows[i].variant`). */
  variant: Variant;
  /** Simulated time. Goodput is measured over [measureFromS, durationS]. */
  durationS: number;
  /** Start of the goodput measurement interval (default 0, as ns-3's example measures). */
  measureFromS: number;
  /** Seed for every random draw of the run (loss pattern, RED). Same seed, same bytes out. */
  seed: number;
  /** Payload bytes per full segment (TCP MSS). */
  mssBytes: number;
  /** Per-packet overhead on the wire (IP + TCP headers, options, link framing). ACKs are this size. */
  headerBytes: number;
  bottleneck: BottleneckSpec;
  /** One entry per sender/receiver pair. Flow i's path: access -> bottleneck -> receiverAccess. */
  flows: FlowSpec[];
  tcp: TcpSpec;
  /**
   * Knobs of the top-level `variant` (e.g. cubic: { hystart: 0 | 1, beta: 0.7, c: 0.4 }), checked
   * against its registry entry. They apply to every flow whose variant is the top-level one.
   */
  ccParams: Record<string, number>;
  /**
   * Knobs per variant set by `tcp.profile` (src/scenario/profiles.ts): under the top-level and a
   * flow's own `ccParams`, so that an explicit knob wins and a flow of another variant gets its own
   * variant's. Absent without a profile.
   */
  ccDefaults?: Partial<Record<Variant, Record<string, number>>>;
  trace: TraceSpec;
}

export interface LinkSpec {
  bandwidthBps: number;
  /** One-way propagation delay. */
  delayS: number;
  /** Output queue (drop-tail) in front of this link, in packets. */
  queuePackets: number;
}

/**
 * The bottleneck's queue discipline: `kind` names an entry of src/net/qdisc/registry.ts, whose
 * ParamSpecs give each parameter's unit, range and default. Parameters left out take their default
 * (resolve with `queueParams`); a scenario keeps what was written.
 */
export type QueueSpec =
  | { kind: 'droptail'; limitPackets: number }
  | {
      kind: 'red';
      limitPackets: number;
      minThPackets?: number;
      maxThPackets?: number;
      maxP?: number;
      /** EWMA weight of the average queue (RFC 2309 / Floyd-Jacobson w_q). */
      weight?: number;
      /** Gentle RED: drop probability rises from maxP to 1 between maxTh and 2 maxTh. */
      gentle?: boolean;
      /** Mark ECN-capable packets CE instead of an early drop. */
      ecn?: boolean;
    }
  | { kind: 'codel'; limitPackets: number; targetS?: number; intervalS?: number; mtuBytes?: number; ecn?: boolean }
  | { kind: 'fq_codel'; limitPackets: number; targetS?: number; intervalS?: number; mtuBytes?: number; flows?: number; quantumBytes?: number; ecn?: boolean }
  | { kind: 'pie'; limitPackets: number; targetS?: number; tUpdateS?: number; alpha?: number; beta?: number; maxBurstS?: number; markEcnThreshold?: number; ecn?: boolean }
  /** Step marking at K (src/net/qdisc/step.ts, DCTCP's switch). */
  | { kind: 'step'; limitPackets: number; thresholdPackets?: number; ecn?: boolean };

export interface LossSpec {
  /** Bernoulli per-packet loss probability on the bottleneck, in [0, 1). */
  rate: number;
  /** 'data': only data packets are dropped; 'both': ACKs crossing the bottleneck too (as ns-3's example). */
  direction: 'data' | 'both';
  /**
   * With direction 'both', where the ACKs' draws come from: 'shared' (default) one stream for both
   * directions in the order packets reach the error model, as ns-3's example's one RateErrorModel on
   * both bottleneck devices; 'own' a stream of their own. The same law either way (each packet an
   * independent Bernoulli(rate)); with 'own' a data packet's fate no longer depends on how many ACKs
   * crossed before it, so a lone flow's fluid run reads its seed's data losses exactly (common random
   * numbers, src/fluid/run/lossThresholds.ts).
   */
  ackStream?: 'shared' | 'own';
}

export interface BottleneckSpec {
  bandwidthBps: number;
  delayS: number;
  queue: QueueSpec;
  loss: LossSpec;
  /**
   * Steps of the bottleneck's forward (data) rate during the run, at increasing times: from `atS` on,
   * the link serialises at `bandwidthBps` (BBR's "bandwidth up/down 10x" tests, a path whose capacity
   * changes). Absent or empty: the rate stays `bandwidthBps`. packet engine only.
   */
  rateChanges?: RateChange[];
}

export interface RateChange {
  atS: number;
  bandwidthBps: number;
}

export interface FlowSpec {
  /** Sender's access link to the left router (its queue is the sender's NIC queue). */
  access: LinkSpec;
  /** Right router to receiver; null = ideal (zero delay, infinite rate), as in ns-3's example. */
  receiverAccess: LinkSpec | null;
  /** When the application starts sending. */
  startS: number;
  /** When the application stops handing new data to TCP (null = runs to the end). */
  stopS: number | null;
  /** Bytes the application sends; null = unlimited bulk transfer. */
  bytes: number | null;
  /** This flow's congestion control; absent = the scenario's `variant`. Resolve with `flowCc`. */
  variant?: Variant;
  /** This flow's knobs, laid over the top-level `ccParams` when the variants match. */
  ccParams?: Record<string, number>;
}

export interface TcpSpec {
  /** RFC 6928 default 10. */
  initialCwndSegments: number;
  /** null = unlimited (the usual, and ns-3's default). */
  initialSsthreshBytes: number | null;
  /** RFC 6298 (2.4) lower bound on RTO; 1 s by the RFC, 0.2 s in Linux. */
  minRtoS: number;
  maxRtoS: number;
  /** Clock granularity G of RFC 6298 (2.2/2.3). */
  clockGranularityS: number;
  /** Segments per delayed ACK (1 = ACK every segment). RFC 5681 allows at most 2. */
  delAckCount: number;
  delAckTimeoutS: number;
  /** Receiver buffer = largest advertised window. */
  rcvBufBytes: number;
  dupAckThreshold: number;
  /**
   * SACK negotiated (RFC 2018 option on every ACK, RFC 6675 loss recovery at the sender). On in
   * every preset and the generic dumbbell, as in Linux, ns-3 and ns-3's example.
   */
  sack: boolean;
  /**
   * Window policy of SACK loss recovery: 'classic' (cwnd = ssthresh for the whole recovery, ns-3's
   * TcpClassicRecovery, the seed example's choice) or 'prr' (RFC 6937, Linux's and ns-3's library
   * default). 'prr' needs SACK.
   */
  recovery: 'classic' | 'prr';
  /**
   * Behaviour profile the fields below were resolved from (src/scenario/profiles.ts): provenance
   * only, the engines read the resolved fields. Absent: cclab's own defaults.
   */
  profile?: ProfileName;
  /**
   * Initial window rule: 'rfc6928' (the default) min(initialCwndSegments x MSS, max(2 MSS, 14600 B));
   * 'segments' initialCwndSegments x MSS whatever the MSS (ns-3, Linux).
   */
  initialWindow?: 'rfc6928' | 'segments';
  /**
   * What ends an RTO back-off: 'newAck' (the default, ns-3 NewAck: any ACK of new data) or
   * 'rttSample' (RFC 6298 with Karn's algorithm, Linux: only a valid RTT sample).
   */
  rtoBackoffReset?: 'newAck' | 'rttSample';
  /**
   * With SACK, the flight an algorithm that cuts from the flight (NewReno, Tahoe) is handed at a fast
   * retransmit: 'pipe' (the default, RFC 6675 pipe as ns-3's BytesInFlight) or 'flightSize'
   * (RFC 6675 4.2 / RFC 5681 eq. (4): SND.MAX - SND.UNA).
   */
  sackSsthreshInput?: 'pipe' | 'flightSize';
  /**
   * Without SACK, which duplicate ACKs may start a new fast retransmit after a loss event (RFC 6582
   * `recover`): 'above' (the default, Linux) an ACK above SND.MAX at the last loss event; 'atLeast'
   * (RFC 6582 3.2, ns-3) one at or above it.
   */
  recoverCheck?: 'above' | 'atLeast';
  /**
   * RFC 6675 NextSeg rule 4 in SACK recovery: one "rescue" retransmission of the highest unSACKed
   * segment per recovery when nothing else may be sent (true, the default: the RFC's SHOULD);
   * false leaves it out, as ns-3 does, so a lost tail waits for the retransmission timer.
   */
  rescueRetransmission?: boolean;
  /**
   * Which partial ACKs of a SACK recovery restart the retransmission timer: 'every' (the default,
   * RFC 6298 5.3, Linux) or 'first' (RFC 6582 3.2 step 5, its "Impatient" variant; ns-3 does this in
   * SACK recovery too), so a long recovery ends in a timeout. Without SACK NewReno is Impatient already.
   */
  sackPartialAckTimer?: 'every' | 'first';
  /**
   * An ACK that moves SND.UNA and also SACKs new data, while the sender is open or in disorder:
   * 'newAck' (the default; RFC 6298 5.3 and RFC 5681: new data acknowledged, so the window grows and
   * the retransmission timer restarts, as Linux's tcp_ack does) or 'dupAck' (ns-3: RFC 6675's
   * duplicate-ACK definition taken alone, TcpSocketBase::ProcessAck isDupack = scoreboardUpdated: it
   * counts toward DupThresh, leaves the sender in disorder, and neither grows the window nor restarts
   * the timer, since ns-3 calls IncreaseWindow and NewAck only in CA_OPEN). At windows of a few
   * segments, where such ACKs are common, 'dupAck' times out more often.
   */
  sackAdvanceAck?: 'newAck' | 'dupAck';
  /**
   * Which ACKs give RTT samples: 'karn' (the default; Karn's rule, RFC 6298 section 3: none from an
   * ACK that covers a retransmitted segment) or 'timestamps' (RFC 6298 section 3's exception for the
   * timestamp option, RFC 7323: the echoed TSval dates the transmission the receiver answered, so
   * ACKs of retransmitted data give samples too; ns-3 CalculateRttSample with the TS option, Linux
   * tcp_ack_update_rtt from tcp_rtt_tsopt_us). Either way only an ACK that covers the oldest segment
   * sent as new data since the last timeout gives one.
   */
  rttSamples?: 'karn' | 'timestamps';
  /**
   * What starts a SACK recovery: 'anyAck' (the default; RFC 6675 section 5 checks IsLost(SND.UNA) on
   * every ACK, Linux tcp_time_to_recover, so the ACK that ends one recovery starts the next when the
   * new SND.UNA is already lost) or 'dupAck' (ns-3: only a duplicate ACK does, TcpSocketBase::DupAck,
   * so the ACK that ends a recovery leaves the sender open and the next duplicate ACK starts the new
   * one; and its fast retransmit resends SND.UNA even if that segment was already resent and is still
   * in flight, EnterRecovery's SendDataPacket(m_highRxAckMark)).
   */
  sackRecoveryStart?: 'anyAck' | 'dupAck';
  /**
   * The SYN / SYN-ACK exchange gives the connection its first RTT sample (true: ns-3
   * TcpSocketBase::DoForwardUp calls EstimateRtt on the SYN-ACK, Linux tcp_ack_update_rtt on the
   * ACK of the SYN; RFC 6298 (2.2) takes the first measurement wherever it comes from). cclab does not
   * simulate the handshake: the sample is the path's handshake RTT (propagation plus a header-only
   * packet serialised on every link each way, src/scenario/path.ts handshakeRttS) and seeds the RTO
   * estimator's SRTT and RTTVAR before the first data segment. It is the smallest RTT the connection
   * ever sees (no payload serialised, no delayed-ACK partner), so ns-3's m_minRtt (the smallest SRTT),
   * which Westwood+ multiplies its bandwidth estimate by, keeps it for the whole run. Absent or false:
   * the first data ACK gives the first sample (cclab's historical default).
   */
  handshakeRtt?: boolean;
  /**
   * Nagle's algorithm for a segment shorter than the MSS (the tail of a transfer, or data the peer's
   * window or the buffer cut short): 'classic' (the default, RFC 896 / RFC 1122 4.2.3.4, ns-3
   * SendPendingData) holds it while any data is unacknowledged, so a transfer whose last segment is
   * partial waits for the ACK of the rest (with delayed ACKs, often the receiver's timer);
   * 'minshall' (Linux tcp_nagle_check / tcp_minshall_check) holds it only while an earlier short
   * segment is unacknowledged; 'off' never holds (TCP_NODELAY).
   */
  nagle?: 'classic' | 'minshall' | 'off';
  /**
   * Pace every flow's departures (src/tcp/pacer.ts: Linux internal pacing / fq, ns-3 m_pacing) at
   * the rate its algorithm sets, or for a window-based one at Linux's cwnd / SRTT x 200% (slow start)
   * or 120%. Absent or false: unpaced, as Linux and ns-3 default for the loss-based algorithms. An
   * algorithm that needs pacing (BBR) is paced whatever this says, as ns-3's TcpBbr forces m_pacing.
   */
  pacing?: boolean;
  /**
   * ECN negotiated by every flow (RFC 3168; src/tcp/ecn.ts): new data is sent ECN-capable, a marking
   * queue discipline may set CE instead of dropping, the receiver echoes it (ECE until CWR, or
   * DCTCP's exact echo) and the sender cuts its window once per window of data without retransmitting.
   * Absent or false: off, as Linux (tcp_ecn = 2: only when asked) and ns-3 (UseEcn Off) default.
   * DCTCP needs it.
   */
  ecn?: boolean;
}

export interface TraceSpec {
  /** Upper bound on points per recorded series; longer runs are decimated keeping min/max per bucket. */
  maxPoints: number;
}
