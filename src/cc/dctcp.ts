/**
 * DCTCP: Data Center TCP (RFC 8257; Alizadeh et al., SIGCOMM 2010), after Linux `tcp_dctcp.c` and
 * ns-3's `TcpDctcp` (src/internet/model/tcp-dctcp.cc).
 *
 * - The sender keeps alpha, a moving estimate of the fraction of bytes the network marked CE, updated
 *   once per window of data (RFC 8257 3.3): per ACK, the bytes it delivered are added to BytesAcked,
 *   and to BytesMarked when it carries ECN-Echo; when the ACK goes beyond WindowEnd,
 *   alpha = (1 - g) alpha + g M with M = BytesMarked / BytesAcked, WindowEnd = SND.NXT and both
 *   counters restart. g = 1/16 (Linux dctcp_shift_g = 4, ns-3 DctcpShiftG 0.0625), alpha starts at 1
 *   (RFC 8257 3.3 and both implementations: a new flow reacts to its first marks as Reno would).
 *   As RFC 8257 writes it, the update is due when the ACK number exceeds WindowEnd (Linux: reaches it).
 * - On ECN-Echo, once per window (the sender's RFC 3168 response, src/tcp/sender.ts):
 *   cwnd = ssthresh = cwnd (1 - alpha / 2), at least 2 MSS (RFC 8257 3.4; Linux dctcp_ssthresh,
 *   ns-3 TcpDctcp::GetSsThresh).
 * - On loss, as Reno: ssthresh = max(cwnd / 2, 2 MSS) for fast recovery and timeouts alike (RFC 8257
 *   3.5: "react to loss episodes in the same way as conventional TCP"; Linux dctcp_react_to_loss in
 *   recovery, although its timeout path calls dctcp_ssthresh, and ns-3 uses the alpha cut for both).
 * - Growth as Reno (Linux `.cong_avoid = tcp_reno_cong_avoid`; ns-3 TcpDctcp derives from
 *   TcpLinuxReno): slow start by segments, +1 MSS per window of acknowledged segments.
 * - The receiver's exact CE echo with delayed ACKs (RFC 8257 3.2) is the receiver's, chosen by
 *   `needsEcn` (src/tcp/ecn.ts). A scenario running DCTCP without `tcp.ecn` is refused.
 */
import { linuxRenoIncrease } from './reno.js';
import { renoSsthresh, type AiCredit } from './common.js';
import type { AckSample, CaState, CongestionControl, CongestionControlFactory, EcnAck, LossKind, ParamSpec, TcpState } from './types.js';

const PARAMS: readonly ParamSpec[] = [
  {
    name: 'g',
    doc: 'Gain of the marked-fraction EWMA: alpha = (1 - g) alpha + g F once per window (RFC 8257 3.3: 1/16; Linux dctcp_shift_g = 4, ns-3 DctcpShiftG)',
    unit: 'ratio',
    default: 1 / 16,
    min: 1 / 1024,
    max: 1,
  },
  {
    name: 'initialAlpha',
    doc: 'alpha before the first window is measured (RFC 8257 3.3: 1, a cut by half on the first marks; Linux dctcp_alpha_on_init = 1024/1024, ns-3 DctcpAlphaOnInit)',
    unit: 'ratio',
    default: 1,
    min: 0,
    max: 1,
  },
];

export class Dctcp implements CongestionControl {
  readonly id = 'dctcp' as const;
  readonly recovery = 'newreno' as const;
  private readonly credit: AiCredit = { cnt: 0 };
  private readonly g: number;
  /** DCTCP.Alpha: the estimated fraction of bytes marked, in [0, 1]. */
  alpha: number;
  /** DCTCP.WindowEnd: the alpha update is due once an ACK goes beyond it. */
  private windowEnd = 0;
  /** DCTCP.BytesAcked / DCTCP.BytesMarked of the current observation window. */
  private bytesAcked = 0;
  private bytesMarked = 0;
  /** Completed observation windows (alpha updates), for tests and traces. */
  windows = 0;

  constructor(params: Readonly<Record<string, number>>) {
    this.g = params.g ?? 1 / 16;
    this.alpha = params.initialAlpha ?? 1;
  }

  /** RFC 8257 3.3 steps 1-8 for one ACK. */
  onEcnAck(_tcb: TcpState, ecn: EcnAck): void {
    this.bytesAcked += ecn.deliveredBytes;
    if (ecn.ece) this.bytesMarked += ecn.deliveredBytes;
    if (ecn.ackNo <= this.windowEnd) return;
    const marked = this.bytesAcked > 0 ? this.bytesMarked / this.bytesAcked : 0;
    this.alpha = (1 - this.g) * this.alpha + this.g * marked;
    this.windows++;
    this.windowEnd = ecn.sndNxt;
    this.bytesAcked = 0;
    this.bytesMarked = 0;
  }

  ssthresh(tcb: TcpState, kind: LossKind, _nowS: number): number {
    if (kind !== 'ecn') return renoSsthresh(tcb);
    return Math.max(Math.floor(tcb.cwndBytes * (1 - this.alpha / 2)), 2 * tcb.mssBytes);
  }

  increaseWindow(tcb: TcpState, ack: AckSample): void {
    linuxRenoIncrease(tcb, this.credit, ack);
  }

  onStateChange(_tcb: TcpState, state: CaState, _nowS: number): void {
    if (state === 'cwr' || state === 'recovery' || state === 'loss') this.credit.cnt = 0;
  }
}

export const dctcp: CongestionControlFactory = {
  id: 'dctcp',
  title: 'DCTCP (RFC 8257; Linux tcp_dctcp, ns-3 TcpDctcp)',
  params: PARAMS,
  needsEcn: true,
  create: (params) => new Dctcp(params),
};
