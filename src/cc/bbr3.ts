/**
 * BBRv3 (`bbr3`) in the packet engine: draft-ietf-ccwg-bbr-06 (July 2026, the revision with the
 * Appendix A test cases), with Google's v3 tree (google/bbr branch v3, net/ipv4/tcp_bbr.c) where the
 * draft leaves a choice. The algorithm is src/cc/bbr3/ (the draft's procedures, bare-tested); this
 * file binds it to the sender's rate-based hook (Linux cong_control, ns-3 CongControl):
 *
 * - Each ACK's rate sample (src/tcp/rate-sampler.ts, Linux tcp_rate.c plus v3's tx_in_flight and
 *   tx.lost per segment) becomes the draft's RS; C.inflight is the sender's pipe after the ACK.
 * - C.is_cwnd_limited (Linux tp->is_cwnd_limited, set when a send finds the window full): an ACK
 *   finding in flight within one segment of cwnd marks its round cwnd-limited; the flag holds for
 *   that round and the next ("at any point in the last packet-timed round trip").
 * - Losses reach BBR per lost segment (onPacketLost, Linux skb_marked_lost -> bbr_skb_marked_lost;
 *   draft HandleLostPacket), at the moment the sender marks each one, with the segment's send-time
 *   tx_in_flight / lost / app-limited state: a probe that overflows the buffer sets inflight_hi at
 *   the packet where the loss rate crossed LossThresh (draft InflightAtLoss, v3
 *   bbr_inflight_hi_from_lost_skb), before that ACK's rate sample is looked at. As the draft, the
 *   ACK's own sample then no longer cuts inflight_hi (Google v3's bbr_adapt_upper_bounds also
 *   reacts to it while probing: `--cc-param ackPathLongtermCut=1`; see probe-bw.ts
 *   adaptLongTermModel).
 * - Recovery: entering fast recovery or RTO saves cwnd and the model bounds (draft
 *   OnEnterFastRecovery / OnEnterRTO); leaving restores cwnd; in between cwnd is BBR's own (draft
 *   -06 has no packet conservation; Linux skips PRR for cong_control algorithms).
 * - ProbeRTT marks the connection application-limited through RateConnection.appLimitedUntilBytes
 *   (Linux tp->app_limited = delivered + in flight).
 * - Not bound: restart from idle (draft OnTransmit / Linux CA_EVENT_TX_START: the sender has no
 *   transmit-start event, and its applications never pause), spurious-recovery undo (no DSACK), and
 *   ECN: draft -06 specifies no ECN response and Google v3's (ecn_alpha, inflight_lo cut, ECN-driven
 *   STARTUP exit) waits for the ECN work to give rate-based algorithms their CE counts.
 */
import { rngStream } from '../engine/rng.js';
import { Bbr3Model } from './bbr3/model.js';
import { bbr3Config, BBR3_PARAMS, type Bbr3Config } from './bbr3/params.js';
import type { Bbr3Ack } from './bbr3/state.js';
import type { WindowedMax } from './bbr3/context.js';
import type { Moment } from './bbr3/probe-bw.js';
import type { CaState, CcEnvironment, CongestionControl, CongestionControlFactory, LostSegment, RateConnection, RateSample, TcpState } from './types.js';
import { WindowedFilter } from './windowedFilter.js';

/**
 * BBR.extra_acked_filter on the shared Linux win_minmax filter (src/cc/windowedFilter.ts). Its window
 * is fixed per instance and the draft's changes once (1 round in STARTUP, extraAckedFilterRounds
 * after): a new window starts a new filter holding the current best.
 */
class ExtraAckedFilter implements WindowedMax {
  private filter = new WindowedFilter('max', 1, 0);
  update(value: number, time: number, window: number): number {
    if (window !== this.filter.window) {
      const best = this.filter.best;
      this.filter = new WindowedFilter('max', window, 0);
      this.filter.reset(time, best);
    }
    this.filter.update(time, value);
    return this.filter.best;
  }
  reset(value: number, time: number): void {
    this.filter.reset(time, value);
  }
}

const RECOVERING: ReadonlySet<CaState> = new Set(['recovery', 'loss']);

export class Bbr3 implements CongestionControl {
  readonly id = 'bbr3' as const;
  readonly recovery = 'newreno' as const;
  readonly needsPacing = true;
  private readonly cfg: Bbr3Config;
  private readonly random: () => number;
  /** Built at init, when the segment size and the initial window are known. */
  model: Bbr3Model | null = null;
  private caState: CaState = 'open';
  private cwndLimitedThisRound = false;
  private cwndLimitedLastRound = false;
  /** The ACK handed to the model (reused). */
  private readonly ack: Bbr3Ack = {
    nowS: 0,
    deliveryRateBytesPerS: 0,
    deliveredBytes: 0,
    priorDeliveredBytes: -1,
    rttS: -1,
    isAppLimited: false,
    txInFlightBytes: 0,
    lostBytes: 0,
    newlyAckedBytes: 0,
    newlyLostBytes: 0,
    cDeliveredBytes: 0,
    inflightBytes: 0,
    isCwndLimited: false,
    inFastRecovery: false,
  };

  /** The moment handed to the model with a lost segment (reused). */
  private readonly lossMoment: Moment = { nowS: 0, cDeliveredBytes: 0 };

  constructor(params: Readonly<Record<string, number>>, env?: CcEnvironment) {
    this.cfg = bbr3Config(params);
    this.random = rngStream(env?.seed ?? 0, `bbr3:${env?.flow ?? 0}`);
  }

  /** Draft OnInit: STARTUP, pacing at 2.77 x InitialCwnd / 1 ms until an RTT sample. */
  init(tcb: TcpState, nowS: number): void {
    tcb.ssthreshBytes = Infinity;
    this.model = new Bbr3Model(this.cfg, {
      mssBytes: tcb.mssBytes,
      initialCwndBytes: tcb.cwndBytes,
      hasSelectiveAcks: tcb.sackEnabled,
      lostPacketEvents: true,
      random: this.random,
      extraAckedFilter: new ExtraAckedFilter(),
    });
    this.model.start(nowS);
    tcb.pacingRateBps = 8 * this.model.pacingRateBytesPerS;
  }

  private get m(): Bbr3Model {
    if (this.model === null) throw new Error('bbr3: init() was not called');
    return this.model;
  }

  /** Loss events reach BBR through onStateChange; ssthresh is not BBR's (Linux bbr_ssthresh returns it unchanged). */
  ssthresh(tcb: TcpState): number {
    return tcb.ssthreshBytes;
  }

  increaseWindow(): void {
    // Never called: congControl sets cwnd.
  }

  onStateChange(tcb: TcpState, state: CaState): void {
    const m = this.m;
    const was = this.caState;
    this.caState = state;
    m.ctx.cwndBytes = tcb.cwndBytes;
    m.ctx.inLossRecovery = RECOVERING.has(was);
    if (state === 'recovery' && was !== 'recovery') m.onEnterFastRecovery();
    else if (state === 'loss' && was !== 'loss') m.onEnterRto(tcb.bytesInFlight);
    else if (RECOVERING.has(was) && !RECOVERING.has(state)) m.onExitRecovery();
    m.ctx.inLossRecovery = RECOVERING.has(state);
    tcb.cwndBytes = m.cwndBytes;
  }

  /**
   * Draft HandleLostPacket(P) (v3 bbr_skb_marked_lost): notes the loss round and, while the flight
   * is a bandwidth probe whose loss rate up to P exceeds LossThresh, bounds inflight_hi at the
   * crossing and ends ProbeBW_UP. cwnd follows at this ACK's congControl, as Linux's does.
   */
  onPacketLost(_tcb: TcpState, lost: LostSegment, conn: RateConnection, nowS: number): void {
    const at = this.lossMoment;
    at.nowS = nowS;
    at.cDeliveredBytes = conn.deliveredBytes;
    this.m.onLostPacket(lost, at);
  }

  congControl(tcb: TcpState, rs: RateSample, conn: RateConnection): void {
    const m = this.m;
    const ack = this.fillAck(tcb, rs, conn);
    m.ctx.cwndBytes = tcb.cwndBytes;
    m.onAck(ack, tcb.srttS);
    if (m.state.roundStart) {
      this.cwndLimitedLastRound = this.cwndLimitedThisRound;
      this.cwndLimitedThisRound = false;
    }
    tcb.cwndBytes = m.cwndBytes;
    tcb.pacingRateBps = 8 * m.pacingRateBytesPerS;
    // Linux tp->app_limited = (tp->delivered + tcp_packets_in_flight(tp)) ? : 1.
    if (m.takeAppLimitedRequest()) conn.appLimitedUntilBytes = conn.deliveredBytes + tcb.bytesInFlight || 1;
  }

  /** The draft's RS and C for this ACK, from the sender's rate sample and state. */
  private fillAck(tcb: TcpState, rs: RateSample, conn: RateConnection): Bbr3Ack {
    const ack = this.ack;
    // A sample exists when the ACK delivered a segment (its prior_delivered counts rounds, draft
    // UpdateRound); its rate only when the interval is valid (not below the minimum RTT). The sampler
    // checks intervals against the sender's SRTT-timestamp minimum, which delayed ACKs raise above the
    // newest-segment RTT Linux uses (tcp_min_rtt from ca_rtt_us): gating rounds on it, as v3 does,
    // stalls the round count in ProbeRTT, whose ACK intervals are exactly one RTT.
    const sampled = rs.deliveredBytes >= 0;
    const valid = sampled && rs.intervalS > 0;
    if (rs.priorInFlightBytes + tcb.mssBytes > tcb.cwndBytes) this.cwndLimitedThisRound = true;
    ack.nowS = rs.nowS;
    ack.deliveryRateBytesPerS = valid ? rs.deliveryRateBps / 8 : 0;
    ack.deliveredBytes = sampled ? rs.deliveredBytes : 0;
    ack.priorDeliveredBytes = sampled ? rs.priorDeliveredBytes : -1;
    ack.rttS = rs.rttS;
    ack.isAppLimited = rs.isAppLimited;
    ack.txInFlightBytes = rs.txInFlightBytes;
    ack.lostBytes = rs.lostSinceTxBytes;
    ack.newlyAckedBytes = rs.ackedSackedBytes;
    ack.newlyLostBytes = rs.lostBytes;
    ack.cDeliveredBytes = conn.deliveredBytes;
    ack.inflightBytes = tcb.bytesInFlight;
    ack.isCwndLimited = this.cwndLimitedThisRound || this.cwndLimitedLastRound;
    ack.inFastRecovery = tcb.caState === 'recovery';
    return ack;
  }
}

export const bbr3: CongestionControlFactory = {
  id: 'bbr3',
  title: 'BBRv3 (draft-ietf-ccwg-bbr-06; Google v3 tcp_bbr.c)',
  params: BBR3_PARAMS,
  create: (params, env) => new Bbr3(params, env),
};
