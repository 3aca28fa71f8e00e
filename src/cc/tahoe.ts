/**
 * Tahoe: RFC 5681 congestion control WITHOUT fast recovery (Jacobson 1988, "Congestion Avoidance
 * and Control"; RFC 5681 sections 3.1 and 3.2 steps 1-2 only). ns-3 no longer ships Tahoe, so there
 * is no reference class; the window rules are those of ns-3's `TcpNewReno` so that Tahoe differs
 * from `newreno` only in loss recovery.
 *
 * - Recovery: 'none'. On the dupack threshold the sender fast-retransmits, sets cwnd = 1 MSS and
 *   slow-starts; on a timeout it does the same. No window inflation, no partial-ACK handling.
 * - ssthresh is cut from the FLIGHT SIZE: max(FlightSize / 2, 2 MSS) (RFC 5681 eq. (4)).
 * - Counting choice: slow start by acknowledged segments (RFC 3465, L = 2), congestion avoidance
 *   per ACK (RFC 5681 eq. (3), MSS x MSS / cwnd), exactly as `newreno` — see newreno.ts for why.
 */
import type { CongestionControlFactory } from './types.js';
import { FlightSizeWindow } from './newreno.js';

export const tahoe: CongestionControlFactory = {
  id: 'tahoe',
  title: 'Tahoe (RFC 5681 without fast recovery)',
  params: [],
  create: () => new FlightSizeWindow('tahoe', 'none'),
};
