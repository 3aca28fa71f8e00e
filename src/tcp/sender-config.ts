import type { TcpSender } from './sender.js';

/**
 * What a {@link TcpSender} is built from and talks to: its configuration (the scenario's TCP settings),
 * the network port it sends through, and the observers and audit that watch it.
 */

/** Where the sender hands its segments (the network). */
export interface DataPort {
  /** @param ecnBits the segment's IP ECN field and TCP CWR flag (src/tcp/ecn.ts; 0 for a flow without ECN). */
  sendData(flow: number, seq: number, len: number, isRetransmission: boolean, ecnBits: number): void;
}

/** Called after the sender handled an ACK or a timeout (traces, statistics). */
export interface SenderObserver {
  onSenderUpdate(sender: TcpSender): void;
}

/** Checks the sender's decisions against what it could know (src/packet/invariants.ts); null in bare tests. */
export interface SenderAudit {
  /** A fast recovery (or Tahoe fast retransmit) starts. */
  recoveryStarts(sender: TcpSender): void;
  /** A segment is about to be retransmitted; `rescue`: RFC 6675 NextSeg rule 4's rescue retransmission. */
  retransmits(sender: TcpSender, seq: number, len: number, rescue: boolean): void;
  /** A paced flow sends `len` payload bytes now at `rateBps` (its pacing rate then). */
  pacedDeparture?(sender: TcpSender, nowNs: number, len: number, rateBps: number): void;
  /** An ECN-Echo is about to cut the window (before `ecn.windowReduced`: `ecn.highSeq` is the previous cut's). */
  ecnReduces?(sender: TcpSender, ackNo: number): void;
}

export interface SenderConfig {
  mssBytes: number;
  initialCwndSegments: number;
  initialSsthreshBytes: number | null;
  minRtoS: number;
  maxRtoS: number;
  clockGranularityS: number;
  dupAckThreshold: number;
  /** Send buffer: unacknowledged + unsent bytes the app may have queued (ns-3 SndBufSize). */
  sndBufBytes: number;
  /** Initial peer window until the first ACK (bytes). */
  initialRwndBytes: number;
  /** SACK negotiated (RFC 2018): the scoreboard reads the ACKs' blocks and recovery follows RFC 6675. */
  sack: boolean;
  /** Window policy in SACK recovery: 'classic' (cwnd = ssthresh) or 'prr' (RFC 6937). */
  recovery: 'classic' | 'prr';
  /** Initial window rule (TcpSpec.initialWindow); default 'rfc6928'. */
  initialWindow?: 'rfc6928' | 'segments';
  /** What clears an RTO back-off (TcpSpec.rtoBackoffReset); default 'newAck'. */
  rtoBackoffReset?: 'newAck' | 'rttSample';
  /** With SACK, the flight handed to ssthresh() at a fast retransmit (TcpSpec.sackSsthreshInput); default 'pipe'. */
  sackSsthreshInput?: 'pipe' | 'flightSize';
  /** Without SACK, the RFC 6582 `recover` reading (TcpSpec.recoverCheck); default 'above'. */
  recoverCheck?: 'above' | 'atLeast';
  /** Which partial ACKs of a SACK recovery restart the timer (TcpSpec.sackPartialAckTimer); default 'every'. */
  sackPartialAckTimer?: 'every' | 'first';
  /**
   * The handshake's RTT sample, s (TcpSpec.handshakeRtt): fed to the RTO estimator when the
   * application starts, before any data. Absent: the first data ACK gives the first sample.
   */
  handshakeRttS?: number;
  /** Nagle's algorithm for short segments (TcpSpec.nagle); default 'classic'. */
  nagle?: 'classic' | 'minshall' | 'off';
  /**
   * An ACK that moves SND.UNA and also SACKs new data (TcpSpec.sackAdvanceAck): 'newAck' (default; RFC
   * 6298 5.3, RFC 5681, Linux: new data acknowledged, the window grows and the timer restarts) or
   * 'dupAck' (ns-3: a duplicate ACK per RFC 6675's definition, so outside recovery it counts toward
   * DupThresh and leaves the sender in disorder, without window growth or timer restart).
   */
  sackAdvanceAck?: 'newAck' | 'dupAck';
  /** Karn's rule for RTT samples, or samples from retransmitted data by the timestamp echo (TcpSpec.rttSamples); default 'karn'. */
  rttSamples?: 'karn' | 'timestamps';
  /** What starts a SACK recovery (TcpSpec.sackRecoveryStart): any ACK (default 'anyAck') or only a duplicate ACK, whose fast retransmit resends SND.UNA ('dupAck', ns-3). */
  sackRecoveryStart?: 'anyAck' | 'dupAck';
  /** RFC 6675 NextSeg rule 4 in SACK recovery (TcpSpec.rescueRetransmission); default true. */
  rescueRetransmission?: boolean;
  /** Pace departures (src/tcp/pacer.ts); forced on for an algorithm with `needsPacing`. Default off. */
  pacing?: boolean;
  /** ECN negotiated (RFC 3168): ECT on new data, the ECN-Echo response, CWR. Absent = off. */
  ecn?: boolean;
}

/**
 * The initial window in bytes. 'rfc6928' (default): IW = min(segments x MSS, max(2 MSS, 14600 bytes))
 * (RFC 6928 2 with the configured segment count); 'segments': segments x MSS (ns-3 InitialCwnd,
 * Linux TCP_INIT_CWND), which differs once MSS > 1460 B.
 */
export function initialWindowBytes(segments: number, mssBytes: number, rule: 'rfc6928' | 'segments' = 'rfc6928'): number {
  if (rule === 'segments') return segments * mssBytes;
  return Math.min(segments * mssBytes, Math.max(2 * mssBytes, 14600));
}
