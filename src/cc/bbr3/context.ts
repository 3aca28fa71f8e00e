/**
 * What every BBRv3 step function works on: the algorithm state, its knobs, and the few pieces of
 * connection state BBR reads or writes (C.cwnd, C.SMSS, C.InitialCwnd). The step functions in the
 * modules beside this one are the draft's pseudocode procedures, one job each, taking this context.
 */
import type { Bbr3Config } from './params.js';
import type { Bbr3State } from './state.js';

/** A windowed max filter over a virtual time (Kathleen Nichols' algorithm, Linux win_minmax). */
export interface WindowedMax {
  /** Offers a sample at `time` with the window `window` (same unit as time); returns the windowed max. */
  update(value: number, time: number, window: number): number;
  /** Forgets everything: the max is `value` from `time`. */
  reset(value: number, time: number): void;
}

export interface Bbr3Ctx {
  readonly s: Bbr3State;
  readonly cfg: Bbr3Config;
  /** C.SMSS, bytes. */
  readonly mssBytes: number;
  /** C.InitialCwnd, bytes. */
  readonly initialCwndBytes: number;
  /** C.cwnd, bytes: BBR writes it; the sender reads it. */
  cwndBytes: number;
  /** C.has_selective_acks. */
  readonly hasSelectiveAcks: boolean;
  /**
   * The sender reports each packet it marks lost (draft HandleLostPacket, Linux skb_marked_lost).
   * Without that, a probe's loss rate is judged on each ACK's rate sample, as Google v3 also does.
   */
  readonly lostPacketEvents: boolean;
  /** U[0, 1) draws for the randomised probe wait (a seeded stream: same seed, same run). */
  readonly random: () => number;
  /** BBR.extra_acked_filter. */
  readonly extraAckedFilter: WindowedMax;
  /** The sender is in loss recovery (fast recovery or RTO recovery): draft InLossRecovery(). */
  inLossRecovery: boolean;
  /**
   * Set when BBR asks the sender to mark the connection application-limited (draft
   * MarkConnectionAppLimited in ProbeRTT; Linux sets tp->app_limited). The adapter forwards it.
   */
  markAppLimited: boolean;
  /** Per-cycle maxima of the max_bw filter: slot cycle_count mod maxBwFilterCycles is the current cycle. */
  readonly maxBwSlots: number[];
}

/** Bytes of `segments` full segments. */
export function segs(ctx: Bbr3Ctx, segments: number): number {
  return segments * ctx.mssBytes;
}
