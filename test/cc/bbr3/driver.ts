/**
 * A scripted ACK stream for bare BBRv3 tests (no network): each call hands the model one ACK whose
 * rate sample the test chooses, keeping the connection's delivered count and clock consistent.
 */
import type { WindowedMax } from '../../../src/cc/bbr3/context.js';
import { Bbr3Model } from '../../../src/cc/bbr3/model.js';
import { bbr3Config } from '../../../src/cc/bbr3/params.js';
import type { Bbr3Ack } from '../../../src/cc/bbr3/state.js';

export const MSS = 1000;
export const IW = 10 * MSS;

/** Exact sliding-window max over (time, value) samples: the reference the filter must match. */
export class ExactWindowedMax implements WindowedMax {
  private samples: Array<{ t: number; v: number }> = [];
  update(value: number, time: number, window: number): number {
    this.samples.push({ t: time, v: value });
    this.samples = this.samples.filter((s) => time - s.t <= window);
    return Math.max(...this.samples.map((s) => s.v));
  }
  reset(value: number, time: number): void {
    this.samples = [{ t: time, v: value }];
  }
}

export interface DriverOptions {
  params?: Record<string, number>;
  sack?: boolean;
  lostPacketEvents?: boolean;
  /** Fixed draws for the probe wait (default 0: 2 s and rounds_since_probe_up = 0). */
  random?: () => number;
}

/** An ACK's rate-sample fields, plus the gap since the last ACK, whether it starts a round, the bytes it acknowledges and SRTT. */
export type AckOptions = Partial<Bbr3Ack> & { dtS?: number; newRound?: boolean; ackedBytes?: number; srttS?: number };

export class Driver {
  readonly model: Bbr3Model;
  nowS = 0;
  deliveredBytes = 0;
  constructor(opts: DriverOptions = {}) {
    this.model = new Bbr3Model(bbr3Config(opts.params ?? {}), {
      mssBytes: MSS,
      initialCwndBytes: IW,
      hasSelectiveAcks: opts.sack ?? true,
      lostPacketEvents: opts.lostPacketEvents ?? true,
      random: opts.random ?? (() => 0),
      extraAckedFilter: new ExactWindowedMax(),
    });
  }

  get s() {
    return this.model.state;
  }

  /**
   * One ACK delivering `ackedBytes` after `dtS`. With `newRound` the sampled packet was sent after
   * the round's sentinel (its prior_delivered is the current count), otherwise inside the round.
   */
  ack(over: AckOptions = {}): Bbr3Ack {
    const dt = over.dtS ?? 0.001;
    const acked = over.ackedBytes ?? MSS;
    this.nowS += dt;
    const prior = over.newRound ? this.deliveredBytes : Math.max(0, this.deliveredBytes - acked);
    this.deliveredBytes += acked;
    const { dtS: _dt, newRound: _nr, ackedBytes: _ab, srttS: _srtt, ...fields } = over;
    const rs: Bbr3Ack = {
      nowS: this.nowS,
      deliveryRateBytesPerS: 1e6,
      deliveredBytes: acked,
      priorDeliveredBytes: over.newRound ? prior : this.model.state.nextRoundDeliveredBytes - 1,
      rttS: 0.1,
      isAppLimited: false,
      txInFlightBytes: over.inflightBytes ?? this.model.cwndBytes,
      lostBytes: 0,
      newlyAckedBytes: acked,
      newlyLostBytes: 0,
      cDeliveredBytes: this.deliveredBytes,
      inflightBytes: this.model.cwndBytes,
      isCwndLimited: false,
      inFastRecovery: false,
      ...fields,
    };
    rs.nowS = this.nowS;
    rs.cDeliveredBytes = this.deliveredBytes;
    this.model.onAck(rs, over.srttS ?? 0.1);
    return rs;
  }

  /** `n` rounds, one ACK each, every sample at `rate` bytes/s and RTT `rttS`. */
  rounds(n: number, rate: number, over: AckOptions = {}): void {
    for (let i = 0; i < n; i++) this.ack({ dtS: over.rttS ?? 0.1, deliveryRateBytesPerS: rate, newRound: true, ...over });
  }
}
