/**
 * Reno: RFC 5681 slow start, congestion avoidance, fast retransmit and fast recovery with window
 * inflation, with the window arithmetic of Linux `tcp_reno_cong_avoid` / `tcp_reno_ssthresh`
 * (net/ipv4/tcp_cong.c) as ported by ns-3's `TcpLinuxReno` (src/internet/model/tcp-linux-reno.cc),
 * its counterpart in the ns-3 agreement check.
 *
 * - Recovery: with SACK (the default) RFC 6675, whatever this says. Without SACK, 'newreno' by
 *   default: Linux's Reno and ns-3's TcpLinuxReno (under TcpClassicRecovery) both stay in recovery on
 *   partial ACKs. Param `partialAcks` = 0 selects RFC 5681 Reno recovery ('reno': the first ACK of
 *   new data ends recovery, a second hole needs new duplicate ACKs or the timer).
 * - ssthresh is cut from CWND: max(cwnd / 2, 2 MSS) (Linux `tcp_reno_ssthresh`: snd_cwnd >> 1).
 * - Counting choice: per acknowledged SEGMENT. Congestion avoidance adds 1 MSS once cwnd-in-segments
 *   segments have been acknowledged (Linux `tcp_cong_avoid_ai` with the `snd_cwnd_cnt` credit), so a
 *   delayed ACK counts 2 and growth stays ~1 MSS per RTT with or without delayed ACKs, like RFC 3465
 *   byte counting. Slow start adds segmentsAcked x MSS; segments left over at ssthresh go to
 *   congestion avoidance as in Linux.
 * - The credit is cleared when a congestion episode begins, an ECN reduction included (Linux clears
 *   snd_cwnd_cnt in tcp_init_cwnd_reduction and tcp_enter_loss).
 */
import type { AckSample, CaState, CongestionControl, CongestionControlFactory, LossKind, ParamSpec, TcpState } from './types.js';
import { congAvoidAI, cwndSegments, inSlowStart, renoSsthresh, slowStart, type AiCredit } from './common.js';

/**
 * Linux `tcp_reno_cong_avoid` in bytes: slow start by segments, then the leftover segments into
 * additive increase with w = cwnd in segments. Shared with Westwood+ (segment counting) and DCTCP.
 * No growth while the window is not what limits sending (Linux `if (!tcp_is_cwnd_limited(sk))
 * return;`, ns-3 TcpLinuxReno::IncreaseWindow).
 */
export function linuxRenoIncrease(tcb: TcpState, credit: AiCredit, ack: AckSample): void {
  if (!tcb.isCwndLimited) return;
  let segs = ack.segmentsAcked;
  if (inSlowStart(tcb)) {
    segs = slowStart(tcb, segs);
    if (segs <= 0) return;
  }
  congAvoidAI(tcb, credit, cwndSegments(tcb), segs);
}

const PARAMS: readonly ParamSpec[] = [
  {
    name: 'partialAcks',
    doc: 'Loss recovery without SACK: 1 = stay in recovery on partial ACKs (RFC 6582), as Linux and ns-3 run Reno; 0 = RFC 5681 Reno (leave fast recovery on the first new ACK)',
    unit: 'flag',
    default: 1,
    min: 0,
    max: 1,
  },
];

class Reno implements CongestionControl {
  readonly id = 'reno' as const;
  readonly recovery: 'reno' | 'newreno';
  private readonly credit: AiCredit = { cnt: 0 };

  constructor(params: Readonly<Record<string, number>>) {
    this.recovery = (params.partialAcks ?? 1) === 1 ? 'newreno' : 'reno';
  }

  ssthresh(tcb: TcpState, _kind: LossKind, _nowS: number): number {
    return renoSsthresh(tcb);
  }

  increaseWindow(tcb: TcpState, ack: AckSample): void {
    linuxRenoIncrease(tcb, this.credit, ack);
  }

  onStateChange(_tcb: TcpState, state: CaState, _nowS: number): void {
    if (state === 'recovery' || state === 'loss' || state === 'cwr') this.credit.cnt = 0;
  }
}

export const reno: CongestionControlFactory = {
  id: 'reno',
  title: 'Reno (RFC 5681 fast recovery; Linux/ns-3 TcpLinuxReno counting)',
  params: PARAMS,
  create: (params) => new Reno(params),
};
