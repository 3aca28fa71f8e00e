import { rateSample, type RateConnection, type RateSample } from './types.js';

/**
 * BBRv1's long-term (policer) bandwidth sampling (Linux tcp_bbr.c bbr_lt_bw_sampling and its helpers,
 * the lt_* fields; ns-3 TcpBbr has none). A token-bucket policer lets a burst through and then drops
 * everything above its rate: BBR sees loss at a steady delivery rate. Sampling starts at the first
 * loss; an interval of 4..16 rounds whose losses exceed 20% of what it delivered yields a rate, and two
 * consecutive intervals within 1/8 (or 4 kbit/s) of each other mean a policer: BBR then paces at
 * their mean with gain 1 for 48 rounds before probing again.
 */

/** What bbr_set_state hands the long-term sampler at an RTO: one loss, nothing else. */
export const RTO_LOSS_SAMPLE: RateSample = rateSample({ deliveredBytes: 0, intervalS: 0, lostBytes: 1 });

/** What a sample meant for the state machine. */
export const LT_NOTHING = 0;
/** A policer was found: pace at the long-term rate with gain 1 from now on. */
export const LT_POLICER_FOUND = 1;
/** The long-term rate has been used for its rounds: sampling restarts and PROBE_BW starts afresh. */
export const LT_EXPIRED = 2;
export type LtOutcome = typeof LT_NOTHING | typeof LT_POLICER_FOUND | typeof LT_EXPIRED;

/** The long-term sampling parameters (BBR_PARAMS lt* and pacingMarginPercent). */
export interface LtParams {
  readonly ltIntervalMinRounds: number;
  readonly ltLossThresh: number;
  readonly ltBwRatio: number;
  readonly ltBwDiffBps: number;
  readonly ltBwMaxRounds: number;
  readonly pacingMarginPercent: number;
}

export class BbrLongTermSampler {
  /** A policer was found: BBR uses {@link bwBytesPerS} (Linux lt_use_bw). */
  useBw = false;
  /** The long-term rate, bytes/s (Linux lt_bw); 0 before the first lossy interval. */
  bwBytesPerS = -0;
  private isSampling = false;
  /** Rounds in the interval, or since the policed rate was taken (Linux lt_rtt_cnt). */
  private roundCount = 0;
  private lastDeliveredBytes = -0;
  private lastStampS = -0;
  private lastLostBytes = -0;

  constructor(private readonly p: LtParams) {
    // Declared `= -0`, held as doubles from the start, +0 from here (src/tcp/rate-sampler.ts says why).
    this.bwBytesPerS = this.lastDeliveredBytes = this.lastStampS = this.lastLostBytes = 0;
  }

  /** bbr_lt_bw_sampling: one rate sample; `inProbeBw` when BBR is in PROBE_BW. */
  sample(rs: RateSample, conn: RateConnection, roundStart: boolean, inProbeBw: boolean): LtOutcome {
    if (this.useBw) {
      if (inProbeBw && roundStart && ++this.roundCount >= this.p.ltBwMaxRounds) {
        this.reset(conn);
        return LT_EXPIRED;
      }
      return LT_NOTHING;
    }
    if (!this.isSampling) {
      if (rs.lostBytes <= 0) return LT_NOTHING;
      this.resetInterval(conn);
      this.isSampling = true;
    }
    if (rs.isAppLimited) {
      this.reset(conn);
      return LT_NOTHING;
    }
    if (roundStart) this.roundCount++;
    const minRounds = this.p.ltIntervalMinRounds;
    if (this.roundCount < minRounds) return LT_NOTHING;
    if (this.roundCount > 4 * minRounds) {
      this.reset(conn);
      return LT_NOTHING;
    }
    if (rs.lostBytes <= 0) return LT_NOTHING;
    const lost = conn.lostBytes - this.lastLostBytes;
    const delivered = conn.deliveredBytes - this.lastDeliveredBytes;
    if (delivered <= 0 || lost < this.p.ltLossThresh * delivered) return LT_NOTHING;
    const t = conn.deliveredTimeS - this.lastStampS;
    if (t < 0.001) return LT_NOTHING; // Linux: an interval under 1 ms waits
    return this.intervalDone(delivered / t, conn);
  }

  /** bbr_lt_bw_interval_done: a lossy interval delivered at `bw` bytes/s. */
  private intervalDone(bw: number, conn: RateConnection): LtOutcome {
    const p = this.p;
    if (this.bwBytesPerS > 0) {
      const diff = Math.abs(bw - this.bwBytesPerS);
      const diffRateBps = diff * 8 * (1 - p.pacingMarginPercent / 100);
      if (diff <= p.ltBwRatio * this.bwBytesPerS || diffRateBps <= p.ltBwDiffBps) {
        this.bwBytesPerS = (bw + this.bwBytesPerS) / 2;
        this.useBw = true;
        this.roundCount = 0;
        return LT_POLICER_FOUND;
      }
    }
    this.bwBytesPerS = bw;
    this.resetInterval(conn);
    return LT_NOTHING;
  }

  /** bbr_reset_lt_bw_sampling_interval. */
  private resetInterval(conn: RateConnection): void {
    this.lastStampS = conn.deliveredTimeS;
    this.lastDeliveredBytes = conn.deliveredBytes;
    this.lastLostBytes = conn.lostBytes;
    this.roundCount = 0;
  }

  /** bbr_reset_lt_bw_sampling. */
  private reset(conn: RateConnection): void {
    this.bwBytesPerS = 0;
    this.useBw = false;
    this.isSampling = false;
    this.resetInterval(conn);
  }
}
