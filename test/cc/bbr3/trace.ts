/**
 * Packet-engine runs of bbr3 with the algorithm's state recorded after every ACK: what the Appendix A
 * tests of draft-ietf-ccwg-bbr-06 read (states, gains, the model's estimates, inflight, cwnd).
 */
import { Bbr3 } from '../../../src/cc/bbr3.js';
import { bbr3 } from '../../../src/cc/bbr3.js';
import type { Bbr3Mode } from '../../../src/cc/bbr3/state.js';
import type { RateConnection, RateSample, TcpState } from '../../../src/cc/types.js';
import { validateCcParams } from '../../../src/cc/registry.js';
import { simulate } from '../../packet/helpers.js';
import { line, type LineOptions } from '../../packet/scenarios.js';
import type { Scenario } from '../../../src/scenario/types.js';
import type { PacketModel } from '../../../src/packet/model.js';
import type { RunResult } from '../../../src/result/types.js';

export interface Point {
  t: number;
  mode: Bbr3Mode;
  pacingGain: number;
  cwndGain: number;
  maxBw: number;
  bw: number;
  bwShortterm: number;
  inflightLongterm: number;
  inflightShortterm: number;
  cwnd: number;
  inflight: number;
  pacingRateBps: number;
  roundCount: number;
  fullBwCount: number;
  fullBwNow: boolean;
  fullBwReached: boolean;
  prevProbeTooHigh: boolean;
  minRtt: number;
  lostBytes: number;
  caState: string;
}

/** Bbr3 that records its state after every ACK. */
export class Bbr3Spy extends Bbr3 {
  readonly trace: Point[] = [];
  override congControl(tcb: TcpState, rs: RateSample, conn: RateConnection): void {
    super.congControl(tcb, rs, conn);
    const s = this.model!.state;
    this.trace.push({
      t: rs.nowS,
      mode: s.mode,
      pacingGain: s.pacingGain,
      cwndGain: s.cwndGain,
      maxBw: s.maxBwBytesPerS,
      bw: s.bwBytesPerS,
      bwShortterm: s.bwShorttermBytesPerS,
      inflightLongterm: s.inflightLongtermBytes,
      inflightShortterm: s.inflightShorttermBytes,
      cwnd: tcb.cwndBytes,
      inflight: tcb.bytesInFlight,
      pacingRateBps: tcb.pacingRateBps,
      roundCount: s.roundCount,
      fullBwCount: s.fullBwCount,
      fullBwNow: s.fullBwNow,
      fullBwReached: s.fullBwReached,
      prevProbeTooHigh: s.prevProbeTooHigh,
      minRtt: s.minRttS,
      lostBytes: rs.lostBytes,
      caState: tcb.caState,
    });
  }
}

/** Payload bytes per second of a link of `bps` with 1448-byte segments in 1500-byte packets. */
export function payloadRate(bps: number): number {
  return (bps * 1448) / 1500 / 8;
}

/** A one-flow bbr3 line (MSS 1448, 52 B headers): bottleneck rate, one-way bottleneck delay, buffer. */
export function bbr3Line(o: LineOptions & { ccParams?: Record<string, number> }): Scenario {
  const s = line({ ...o, variant: 'bbr3' });
  s.ccParams = o.ccParams ?? {};
  return s;
}

export function runTraced(s: Scenario): { spy: Bbr3Spy; model: PacketModel; trace: Point[]; result: RunResult } {
  let spy: Bbr3Spy | null = null;
  const { model, result } = simulate(s, {
    makeCc: () => {
      spy = new Bbr3Spy(validateCcParams('bbr3', s.ccParams), { seed: s.seed, flow: 0 });
      return spy;
    },
  });
  return { spy: spy!, model, trace: spy!.trace, result };
}

/** The points where the mode changes: [from, to, point at the change]. */
export function transitions(trace: Point[]): Array<{ from: Bbr3Mode; to: Bbr3Mode; at: Point; before: Point }> {
  const out: Array<{ from: Bbr3Mode; to: Bbr3Mode; at: Point; before: Point }> = [];
  for (let i = 1; i < trace.length; i++) {
    if (trace[i]!.mode !== trace[i - 1]!.mode) out.push({ from: trace[i - 1]!.mode, to: trace[i]!.mode, at: trace[i]!, before: trace[i - 1]! });
  }
  return out;
}

export { bbr3 };
