/**
 * BBRv3's state machine and gains on a bare model (no network), against draft-ietf-ccwg-bbr-06's
 * pseudocode and its table of gains (5.6.1); each case drives the model with scripted ACKs whose
 * rate samples it chooses. Path: 1e6 bytes/s, min RTT 0.1 s, so BDP = 100 000 bytes (100 segments).
 */
import { describe, expect, it } from 'vitest';
import { Driver, IW, MSS } from './driver.js';

const BW = 1e6;
const RTT = 0.1;
const BDP = BW * RTT;

/** STARTUP on a path whose delivery rate doubles per round, then plateaus at BW: full pipe after 3 flat rounds. */
function throughStartup(d: Driver, inflightBytes = 3 * BDP): void {
  for (const rate of [BW / 8, BW / 4, BW / 2, BW]) d.rounds(1, rate, { inflightBytes, ackedBytes: rate * RTT });
  d.rounds(3, BW, { inflightBytes, ackedBytes: BDP });
}

/** Steps until `done` holds; a test that would loop for ever fails instead. */
function until(done: () => boolean, step: () => void, maxSteps = 2000): void {
  for (let i = 0; i < maxSteps; i++) {
    if (done()) return;
    step();
  }
  throw new Error(`condition not reached in ${maxSteps} steps`);
}

/** DRAIN ends with inflight at the BDP: ProbeBW_DOWN, and CRUISE on the same ACK (inflight is already down). */
function toCruise(d: Driver): void {
  throughStartup(d);
  d.rounds(1, BW, { inflightBytes: BDP, ackedBytes: BDP });
  expect(d.s.mode).toBe('probe_bw_cruise');
}

describe('bbr3 STARTUP (draft 4.3.1)', () => {
  it('starts in STARTUP with pacing gain 2.77, cwnd gain 2 and pacing rate 2.77 x InitialCwnd / 1 ms', () => {
    const d = new Driver();
    expect(d.s.mode).toBe('startup');
    expect(d.s.pacingGain).toBe(2.77);
    expect(d.s.cwndGain).toBe(2);
    expect(d.model.pacingRateBytesPerS).toBeCloseTo((2.77 * IW) / 0.001, 6);
    expect(d.model.cwndBytes).toBe(IW);
  });

  it('the first RTT sample re-seeds the pacing rate at 2.77 x InitialCwnd / SRTT (no bandwidth sample yet)', () => {
    const d = new Driver();
    d.ack({ deliveryRateBytesPerS: 0, priorDeliveredBytes: -1, srttS: 0.05 });
    expect(d.model.pacingRateBytesPerS).toBeCloseTo((2.77 * IW) / 0.05, 6);
  });

  it('paces at 2.77 x max_bw x 0.99 and grows cwnd by what each ACK delivered while below 2 x BDP', () => {
    const d = new Driver();
    d.rounds(1, 400_000, { ackedBytes: 5 * MSS });
    expect(d.s.maxBwBytesPerS).toBe(400_000);
    expect(d.model.pacingRateBytesPerS).toBeCloseTo(2.77 * 400_000 * 0.99, 6);
    expect(d.model.cwndBytes).toBe(IW + 5 * MSS);
  });

  it('full pipe: 3 rounds under 25% growth set full_bw_now and full_bw_reached, and STARTUP exits to DRAIN (gain 0.5, cwnd gain 2)', () => {
    const d = new Driver();
    for (const rate of [BW / 8, BW / 4, BW / 2, BW]) d.rounds(1, rate, { inflightBytes: 3 * BDP });
    d.rounds(2, 1.2 * BW, { inflightBytes: 3 * BDP }); // +20%: not growth
    expect(d.s.fullBwCount).toBe(2);
    expect(d.s.mode).toBe('startup');
    d.rounds(1, BW, { inflightBytes: 3 * BDP });
    expect(d.s.fullBwNow).toBe(true);
    expect(d.s.fullBwReached).toBe(true);
    expect(d.s.mode).toBe('drain');
    expect(d.s.pacingGain).toBe(0.5);
    expect(d.s.cwndGain).toBe(2);
    expect(d.s.fullBwBytesPerS).toBe(BW);
  });

  it('a round with 25% growth restarts the count; samples inside a round do not count (draft: round starts only)', () => {
    const d = new Driver();
    d.rounds(1, BW, { inflightBytes: 3 * BDP });
    d.rounds(2, BW, { inflightBytes: 3 * BDP });
    expect(d.s.fullBwCount).toBe(2);
    d.ack({ deliveryRateBytesPerS: 2 * BW, inflightBytes: 3 * BDP }); // mid-round
    expect(d.s.fullBwCount).toBe(2);
    d.rounds(1, 1.25 * BW, { inflightBytes: 3 * BDP });
    expect(d.s.fullBwCount).toBe(0);
    expect(d.s.fullBwBytesPerS).toBe(1.25 * BW);
  });

  it('app-limited rounds never fill the pipe: STARTUP holds (Appendix A.7, STARTUP)', () => {
    const d = new Driver();
    d.rounds(20, BW, { isAppLimited: true, inflightBytes: BDP / 2 });
    expect(d.s.mode).toBe('startup');
    expect(d.s.fullBwCount).toBe(0);
  });
});

describe('bbr3 DRAIN (draft 4.3.2)', () => {
  it('exits to ProbeBW once inflight <= Inflight(1.0) = BDP, starting the cycle clock (Appendix A.3)', () => {
    const d = new Driver();
    throughStartup(d);
    expect(d.s.mode).toBe('drain');
    d.ack({ inflightBytes: BDP + MSS });
    expect(d.s.mode).toBe('drain');
    d.ack({ inflightBytes: BDP });
    // StartProbeBW_DOWN, then on the same ACK IsTimeToCruise (inflight is at the BDP already).
    expect(d.s.mode).toBe('probe_bw_cruise');
    expect(d.s.cycleStampS).toBe(d.nowS);
    expect(d.s.bwProbeWaitS).toBe(2);
  });

  it('exits after 3 rounds even with inflight above the BDP (round_count > drain_start_round + 3)', () => {
    const d = new Driver();
    throughStartup(d);
    const start = d.s.drainStartRound;
    d.rounds(3, BW, { inflightBytes: 2 * BDP });
    expect(d.s.roundCount).toBe(start + 3);
    expect(d.s.mode).toBe('drain');
    d.rounds(1, BW, { inflightBytes: 2 * BDP });
    expect(d.s.mode).toBe('probe_bw_down');
  });

  it('drainMaxRounds = 0 (Google v3) stays in DRAIN until inflight falls; drainPacingGain 0.347 is v3s', () => {
    const d = new Driver({ params: { drainMaxRounds: 0, drainPacingGain: 1000 / 2885 } });
    throughStartup(d);
    expect(d.s.pacingGain).toBeCloseTo(0.3466, 4);
    d.rounds(10, BW, { inflightBytes: 2 * BDP });
    expect(d.s.mode).toBe('drain');
  });
});

describe('bbr3 ProbeBW cycle (draft 4.3.3)', () => {
  it('DOWN -> CRUISE when inflight is at most the BDP of max_bw (no inflight_longterm yet)', () => {
    const d = new Driver();
    toCruise(d);
    expect(d.s.pacingGain).toBe(1);
    expect(d.s.cwndGain).toBe(2);
  });

  it('CRUISE -> REFILL after bw_probe_wait = 2 s + U(0, 1 s) of wall clock; REFILL -> UP after one round (gains 1.25, 2.25)', () => {
    const d = new Driver({ random: () => 0.5 });
    toCruise(d);
    expect(d.s.bwProbeWaitS).toBe(2.5);
    const cycleStart = d.s.cycleStampS;
    until(() => d.s.mode !== 'probe_bw_cruise', () => d.ack({ dtS: 0.05, inflightBytes: BDP, deliveryRateBytesPerS: BW, newRound: false }));
    expect(d.s.mode).toBe('probe_bw_refill');
    expect(d.nowS - cycleStart).toBeGreaterThan(2.5);
    expect(d.nowS - cycleStart).toBeLessThanOrEqual(2.55 + 1e-9);
    expect(d.s.pacingGain).toBe(1);
    expect(d.s.bwShorttermBytesPerS).toBe(Infinity);
    d.ack({ inflightBytes: BDP });
    expect(d.s.mode).toBe('probe_bw_refill');
    d.rounds(1, BW, { inflightBytes: BDP });
    expect(d.s.mode).toBe('probe_bw_up');
    expect(d.s.pacingGain).toBe(1.25);
    expect(d.s.cwndGain).toBe(2.25);
    expect(d.s.isBwProbeSample).toBe(true);
    expect(d.model.pacingRateBytesPerS).toBeCloseTo(1.25 * BW * 0.99, 6);
  });

  it('Reno coexistence: with 10 ms rounds the probe starts after min(BDP in segments, 63) = 63 rounds, 62 when the random start is 1', () => {
    for (const [draw, rounds] of [[0, 63], [0.99, 62]] as const) {
      const d = new Driver({ random: () => draw });
      toCruise(d);
      const from = d.s.roundCount;
      until(() => d.s.mode !== 'probe_bw_cruise', () => d.rounds(1, BW, { dtS: 0.01, inflightBytes: BDP }));
      expect(d.s.roundCount - from).toBe(rounds);
    }
  });

  it('UP -> DOWN on a bandwidth plateau: 3 rounds under 25% growth (Appendix A.5)', () => {
    const d = new Driver();
    toCruise(d);
    until(() => d.s.mode === 'probe_bw_up', () => d.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    d.rounds(2, BW, { inflightBytes: 1.2 * BDP });
    expect(d.s.mode).toBe('probe_bw_up');
    d.rounds(1, BW, { inflightBytes: 1.2 * BDP });
    expect(d.s.mode).toBe('probe_bw_down');
    expect(d.s.prevProbeTooHigh).toBe(false);
    expect(d.s.pacingGain).toBe(0.9);
    expect(d.s.cwndGain).toBe(2);
    expect(d.model.pacingRateBytesPerS).toBeCloseTo(0.9 * BW * 0.99, 6);
    // DOWN holds while inflight is above the BDP (Appendix A.8), then CRUISE.
    d.ack({ inflightBytes: BDP + MSS });
    expect(d.s.mode).toBe('probe_bw_down');
    d.ack({ inflightBytes: BDP });
    expect(d.s.mode).toBe('probe_bw_cruise');
  });

  it('app-limited rounds with no loss never end ProbeBW_UP (Appendix A.7)', () => {
    const d = new Driver();
    toCruise(d);
    until(() => d.s.mode === 'probe_bw_up', () => d.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    // A slightly lower RTT sample keeps ProbeRTT away for this check.
    d.rounds(30, BW / 2, { inflightBytes: BDP / 2, isAppLimited: true, rttS: 0.099 });
    expect(d.s.mode).toBe('probe_bw_up');
  });

  it('app-limited samples below max_bw in REFILL leave max_bw alone; REFILL still ends in UP after its round, which then probes (Appendix A.22)', () => {
    const toRefill = (d: Driver): void => {
      toCruise(d);
      until(() => d.s.mode !== 'probe_bw_cruise', () => d.ack({ dtS: 0.05, inflightBytes: BDP, deliveryRateBytesPerS: BW, newRound: false }));
      expect(d.s.mode).toBe('probe_bw_refill');
    };
    const d = new Driver({ random: () => 0.5 });
    toRefill(d);
    // The application pauses: a quarter of the rate, app-limited, for the whole REFILL round.
    for (let i = 0; i < 5; i++) d.ack({ isAppLimited: true, deliveryRateBytesPerS: BW / 4, inflightBytes: BDP / 4 });
    expect(d.s.mode).toBe('probe_bw_refill');
    expect(d.s.maxBwBytesPerS).toBe(BW);
    d.rounds(1, BW / 4, { isAppLimited: true, inflightBytes: BDP / 4 });
    expect(d.s.mode).toBe('probe_bw_up');
    expect(d.s.maxBwBytesPerS).toBe(BW);
    expect(d.s.bwBytesPerS).toBe(BW);
    expect(d.model.pacingRateBytesPerS).toBeCloseTo(1.25 * BW * 0.99, 6);
    // The application resumes: the probe runs as usual and ends on the plateau (A.5): UP began with
    // full_bw reset and app-limited rounds do not count, so the first round at BW sets full_bw and
    // 3 more without 25% growth end UP.
    const from = d.s.roundCount;
    until(() => d.s.mode !== 'probe_bw_up', () => d.rounds(1, BW, { inflightBytes: 1.2 * BDP }), 10);
    expect(d.s.mode).toBe('probe_bw_down');
    expect(d.s.roundCount - from).toBe(4);
    expect(d.s.prevProbeTooHigh).toBe(false);
    expect(d.s.maxBwBytesPerS).toBe(BW);
    // Against: an app-limited sample above max_bw is taken (draft 5.5.4: it shows at least that much).
    const e = new Driver({ random: () => 0.5 });
    toRefill(e);
    e.ack({ isAppLimited: true, deliveryRateBytesPerS: 1.1 * BW, inflightBytes: BDP / 4 });
    expect(e.s.maxBwBytesPerS).toBeCloseTo(1.1 * BW, 6);
  });

  it('the max_bw filter keeps the current and the previous cycle; a cycle ends one round after UP ends (MaxBwFilterLen = 2)', () => {
    // ProbeRTT also ends in a DOWN that closes a cycle: kept out of the way here.
    const d = new Driver({ params: { probeRttIntervalS: 1000 } });
    toCruise(d);
    expect(d.s.maxBwBytesPerS).toBe(BW);
    const toUp = (rate: number): void => until(() => d.s.mode === 'probe_bw_up', () => d.rounds(1, rate, { inflightBytes: BDP / 2, dtS: 0.5 }));
    const finishCycle = (rate: number): void => {
      until(() => d.s.mode !== 'probe_bw_up', () => d.rounds(1, rate, { inflightBytes: BDP / 2 }));
      d.rounds(1, rate, { inflightBytes: BDP / 2 }); // the round after UP: AdvanceMaxBwFilter
    };
    // The first DOWN round after DRAIN closes STARTUP's slot (ProbeBW's first cycle then begins).
    expect(d.s.cycleCount).toBe(1);
    toUp(BW);
    finishCycle(BW);
    expect(d.s.cycleCount).toBe(2);
    // A cycle at a tenth of the rate: the previous cycle's BW is kept all through it...
    toUp(BW / 10);
    expect(d.s.maxBwBytesPerS).toBe(BW);
    // ...and forgotten when it ends (v3 bw_hi[0] = bw_hi[1]; bw_hi[1] = 0).
    finishCycle(BW / 10);
    expect(d.s.cycleCount).toBe(3);
    expect(d.s.maxBwBytesPerS).toBe(BW / 10);
  });
});

describe('bbr3 loss response (draft 5.5.9)', () => {
  it('InflightAtLoss: 2.5% lost of 100 000 in flight crosses 2% 489.8 bytes into the packet; inflight_longterm = 99 489.8 and UP ends in DOWN', () => {
    const d = new Driver();
    toCruise(d);
    until(() => d.s.mode === 'probe_bw_up', () => d.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    d.model.onLostPacket({ sizeBytes: MSS, txInFlightBytes: 100_000, lostSinceTxBytes: 2_500, isAppLimited: false }, { nowS: d.nowS, cDeliveredBytes: d.deliveredBytes });
    const expected = 99_000 + (0.02 * 99_000 - 1_500) / 0.98;
    expect(d.s.inflightLongtermBytes).toBeCloseTo(expected, 9);
    expect(expected).toBeCloseTo(99_489.796, 3);
    expect(d.s.mode).toBe('probe_bw_down');
    expect(d.s.prevProbeTooHigh).toBe(true);
    expect(d.s.undoState).toBe('probe_bw_up');
    expect(d.s.isBwProbeSample).toBe(false);
  });

  it('a loss at or below 2% of tx_in_flight leaves ProbeBW_UP alone; with SACK off any loss is too high', () => {
    const d = new Driver();
    toCruise(d);
    until(() => d.s.mode === 'probe_bw_up', () => d.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    d.model.onLostPacket({ sizeBytes: MSS, txInFlightBytes: 100_000, lostSinceTxBytes: 2_000, isAppLimited: false }, { nowS: d.nowS, cDeliveredBytes: d.deliveredBytes });
    expect(d.s.mode).toBe('probe_bw_up');
    expect(d.s.inflightLongtermBytes).toBe(Infinity);
    const n = new Driver({ sack: false });
    toCruise(n);
    until(() => n.s.mode === 'probe_bw_up', () => n.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    n.model.onLostPacket({ sizeBytes: MSS, txInFlightBytes: 100_000, lostSinceTxBytes: MSS, isAppLimited: false }, { nowS: n.nowS, cDeliveredBytes: n.deliveredBytes });
    expect(n.s.mode).toBe('probe_bw_down');
  });

  it('an ACK whose own sample lost 3% of its tx_in_flight: the draft leaves UP alone (per-packet path only); ackPathLongtermCut = 1 (Google v3) cuts inflight_longterm to max(tx_in_flight, 0.7 x target) and goes DOWN', () => {
    const lossy = { lostBytes: 3_000, txInFlightBytes: 100_000, inflightBytes: BDP };
    const draft = new Driver();
    toCruise(draft);
    until(() => draft.s.mode === 'probe_bw_up', () => draft.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    expect(draft.s.isBwProbeSample).toBe(true);
    draft.ack(lossy);
    expect(draft.s.mode).toBe('probe_bw_up');
    expect(draft.s.inflightLongtermBytes).toBe(Infinity);

    const v3 = new Driver({ params: { ackPathLongtermCut: 1 } });
    toCruise(v3);
    until(() => v3.s.mode === 'probe_bw_up', () => v3.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    const target = Math.min(v3.s.bwBytesPerS * v3.s.minRttS, v3.model.cwndBytes);
    v3.ack(lossy);
    expect(v3.s.mode).toBe('probe_bw_down');
    expect(v3.s.prevProbeTooHigh).toBe(true);
    expect(v3.s.inflightLongtermBytes).toBeCloseTo(Math.max(100_000, 0.7 * target), 6);
    // 2% exactly is not too high on either path.
    const edge = new Driver({ params: { ackPathLongtermCut: 1 } });
    toCruise(edge);
    until(() => edge.s.mode === 'probe_bw_up', () => edge.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    edge.ack({ ...lossy, lostBytes: 2_000 });
    expect(edge.s.mode).toBe('probe_bw_up');
  });

  it('an app-limited lost packet ends UP but does not set inflight_longterm (Appendix A.6)', () => {
    const d = new Driver();
    toCruise(d);
    until(() => d.s.mode === 'probe_bw_up', () => d.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    d.model.onLostPacket({ sizeBytes: MSS, txInFlightBytes: 50_000, lostSinceTxBytes: 5_000, isAppLimited: true }, { nowS: d.nowS, cDeliveredBytes: d.deliveredBytes });
    expect(d.s.mode).toBe('probe_bw_down');
    expect(d.s.inflightLongtermBytes).toBe(Infinity);
  });

  it('a lossy round outside probing cuts the short-term model: bw_shortterm = max(bw_latest, 0.7 max_bw), inflight_shortterm = max(inflight_latest, 0.7 cwnd)', () => {
    const d = new Driver();
    toCruise(d);
    const cwnd = d.model.cwndBytes;
    d.rounds(1, 0.5 * BW, { inflightBytes: BDP, ackedBytes: 30_000 });
    d.ack({ deliveryRateBytesPerS: 0.5 * BW, newlyLostBytes: MSS, lostBytes: MSS, inflightBytes: BDP });
    // The loss round ends when a packet sent after the loss is acknowledged.
    d.rounds(1, 0.5 * BW, { inflightBytes: BDP, ackedBytes: 30_000 });
    expect(d.s.bwShorttermBytesPerS).toBeCloseTo(0.7 * BW, 6);
    expect(d.s.inflightShorttermBytes).toBeCloseTo(0.7 * cwnd, 6);
    expect(d.s.bwBytesPerS).toBeCloseTo(0.7 * BW, 6);
    expect(d.model.cwndBytes).toBeLessThanOrEqual(Math.ceil(0.7 * cwnd));
  });

  it('STARTUP exits on loss: 6 loss events in a fast-recovery round with loss above 2% (Appendix A.2, app-limited)', () => {
    const d = new Driver();
    d.rounds(3, BW / 4, { inflightBytes: BDP / 2, isAppLimited: true, ackedBytes: 20_000 });
    for (let i = 0; i < 6; i++) d.ack({ newlyLostBytes: MSS, lostBytes: (i + 1) * MSS, txInFlightBytes: 50_000, inFastRecovery: true, isAppLimited: true, deliveryRateBytesPerS: BW / 4 });
    expect(d.s.mode).toBe('startup');
    d.rounds(1, BW / 4, { lostBytes: 6 * MSS, txInFlightBytes: 50_000, inFastRecovery: true, isAppLimited: true, ackedBytes: 20_000, inflightBytes: BDP });
    expect(d.s.fullBwNow).toBe(true);
    expect(d.s.fullBwReached).toBe(true);
    expect(d.s.mode).toBe('drain');
    expect(d.s.inflightLongtermBytes).toBe(Math.max((BW / 4) * RTT, 20_000));
    expect(d.s.undoState).toBe('startup');
  });

  it('5 loss events are not enough to leave STARTUP (startupFullLossCount 6)', () => {
    const d = new Driver();
    d.rounds(3, BW / 4, { inflightBytes: BDP / 2, ackedBytes: 20_000, isAppLimited: true });
    for (let i = 0; i < 5; i++) d.ack({ newlyLostBytes: MSS, lostBytes: (i + 1) * MSS, txInFlightBytes: 50_000, inFastRecovery: true, isAppLimited: true });
    d.rounds(1, BW / 4, { lostBytes: 5 * MSS, txInFlightBytes: 50_000, inFastRecovery: true, ackedBytes: 20_000, isAppLimited: true });
    expect(d.s.mode).toBe('startup');
  });

  it('precautionary probing: after a too-high probe, the next UP stops at inflight_longterm, and a safe one goes straight back to REFILL', () => {
    const d = new Driver({ params: { probeRttIntervalS: 1000 } });
    toCruise(d);
    until(() => d.s.mode === 'probe_bw_up', () => d.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    d.model.onLostPacket({ sizeBytes: MSS, txInFlightBytes: 100_000, lostSinceTxBytes: 5_000, isAppLimited: false }, { nowS: d.nowS, cDeliveredBytes: d.deliveredBytes });
    const longterm = d.s.inflightLongtermBytes;
    until(() => d.s.mode === 'probe_bw_up', () => d.rounds(1, BW, { inflightBytes: 0.8 * longterm, dtS: 0.5 }));
    d.ack({ inflightBytes: longterm });
    expect(d.s.mode).toBe('probe_bw_down');
    expect(d.s.prevProbePrecautionary).toBe(true);
    d.rounds(1, BW, { inflightBytes: 0.8 * longterm });
    expect(d.s.mode).toBe('probe_bw_refill');
  });

  it('a spurious recovery restores the bounds saved at its start and re-enters the probe it cut (draft 5.5.10)', () => {
    const d = new Driver();
    toCruise(d);
    until(() => d.s.mode === 'probe_bw_up', () => d.rounds(1, BW, { inflightBytes: BDP, dtS: 0.5 }));
    d.model.onEnterFastRecovery();
    d.model.onLostPacket({ sizeBytes: MSS, txInFlightBytes: 100_000, lostSinceTxBytes: 5_000, isAppLimited: false }, { nowS: d.nowS, cDeliveredBytes: d.deliveredBytes });
    expect(d.s.mode).toBe('probe_bw_down');
    expect(d.s.undoInflightLongtermBytes).toBe(Infinity);
    d.model.onSpuriousRecovery({ nowS: d.nowS, cDeliveredBytes: d.deliveredBytes });
    expect(d.s.inflightLongtermBytes).toBe(Infinity);
    expect(d.s.mode).toBe('probe_bw_refill');
    expect(d.s.undoState).toBe(null);
  });

  it('an RTO sets cwnd = inflight + 1 SMSS and recovery exit restores the cwnd saved at its start', () => {
    const d = new Driver();
    toCruise(d);
    const before = d.model.cwndBytes;
    d.model.onEnterRto(0);
    expect(d.model.cwndBytes).toBe(MSS);
    expect(d.s.priorCwndBytes).toBe(before);
    d.model.onExitRecovery();
    expect(d.model.cwndBytes).toBe(before);
  });
});

describe('bbr3 ProbeRTT (draft 4.3.4)', () => {
  it('enters 5 s after the last lower RTT sample with cwnd gain 0.5 and cwnd = 0.5 BDP; leaves after 200 ms and a round to CRUISE (Appendix A.10)', () => {
    const d = new Driver();
    toCruise(d);
    const stamp = d.s.probeRttMinStampS;
    until(() => d.s.mode === 'probe_rtt', () => d.ack({ dtS: 0.05, inflightBytes: BDP, deliveryRateBytesPerS: BW, newRound: true }));
    expect(d.nowS - stamp).toBeGreaterThan(5);
    expect(d.nowS - stamp).toBeLessThanOrEqual(5.05 + 1e-9);
    expect(d.s.cwndGain).toBe(0.5);
    expect(d.s.pacingGain).toBe(1);
    expect(d.model.cwndBytes).toBe(0.5 * BDP);
    expect(d.model.takeAppLimitedRequest()).toBe(true);
    d.ack({ dtS: 0.01, inflightBytes: 0.5 * BDP });
    const doneAt = d.s.probeRttDoneStampS;
    expect(doneAt).toBeCloseTo(d.nowS + 0.2, 9);
    until(() => d.s.mode !== 'probe_rtt', () => d.ack({ dtS: 0.05, inflightBytes: 0.5 * BDP, newRound: true, isAppLimited: true }));
    expect(d.nowS).toBeGreaterThan(doneAt);
    expect(d.nowS).toBeLessThanOrEqual(doneAt + 0.05 + 1e-9);
    expect(d.s.mode).toBe('probe_bw_cruise');
    expect(d.s.probeRttMinStampS).toBe(d.nowS);
    expect(d.model.cwndBytes).toBeGreaterThan(0.5 * BDP);
  });

  it('ProbeRTT cwnd has a floor of MinPipeCwnd = 4 segments', () => {
    const d = new Driver();
    toCruise(d);
    until(() => d.s.mode === 'probe_rtt', () => d.ack({ dtS: 0.05, inflightBytes: 1000, deliveryRateBytesPerS: 10_000, newRound: true, isAppLimited: true }));
    expect(d.model.cwndBytes).toBe(Math.max(0.5 * d.s.bwBytesPerS * RTT, 4 * MSS));
  });

  it('ProbeRTT entered before the pipe is full returns to STARTUP (Appendix A.21)', () => {
    const d = new Driver();
    until(() => d.s.mode === 'probe_rtt', () => d.rounds(1, BW / 10, { dtS: 0.25, isAppLimited: true, inflightBytes: BDP / 20 }));
    d.ack({ dtS: 0.01, inflightBytes: 0 });
    until(() => d.s.mode !== 'probe_rtt', () => d.rounds(1, BW / 10, { dtS: 0.1, isAppLimited: true, inflightBytes: 0 }));
    expect(d.s.mode).toBe('startup');
    expect(d.s.pacingGain).toBe(2.77);
  });

  it('a restart from idle with ProbeRTT due skips ProbeRTT (Appendix A.11)', () => {
    const d = new Driver();
    toCruise(d);
    d.nowS += 6; // idle, nothing in flight
    d.model.onTransmit({ nowS: d.nowS, cDeliveredBytes: d.deliveredBytes }, 0, true);
    expect(d.s.idleRestart).toBe(true);
    expect(d.model.pacingRateBytesPerS).toBeCloseTo(BW * 0.99, 6);
    d.ack({ inflightBytes: MSS, deliveredBytes: 0, deliveryRateBytesPerS: 0 });
    expect(d.s.probeRttExpired).toBe(true);
    // Not ProbeRTT: the 2-3 s probe wait has run out too, so the ACK starts a bandwidth probe.
    expect(d.s.mode).toBe('probe_bw_refill');
    // That ACK's RTT sample refreshed probe_rtt_min_delay: no ProbeRTT on the next one either.
    d.ack({ inflightBytes: 2 * MSS });
    expect(d.s.probeRttExpired).toBe(false);
    expect(d.s.mode).toBe('probe_bw_refill');
  });
});

describe('bbr3 cwnd bounds (draft 5.6.4)', () => {
  it('InflightWithHeadroom = 0.85 x inflight_longterm (>= 1 SMSS of headroom, >= 4 SMSS): CRUISE caps cwnd there', () => {
    const d = new Driver();
    toCruise(d);
    d.s.inflightLongtermBytes = 60_000;
    d.ack({ inflightBytes: BDP / 2, txInFlightBytes: BDP / 2 });
    expect(d.model.cwndBytes).toBe(0.85 * 60_000);
    d.s.inflightLongtermBytes = 5_000;
    d.ack({ inflightBytes: 1000, txInFlightBytes: 1000 });
    expect(d.model.cwndBytes).toBe(4_000);
  });

  it('the quantization budget: cwnd is at least 3 send quanta (send quantum = max(2 SMSS, 1 ms of pacing)) and 4 SMSS', () => {
    const d = new Driver();
    d.rounds(1, 1000, { ackedBytes: MSS, rttS: 0.001 });
    // pacing 2.77 x 1000 B/s: 1 ms of it is 2.8 bytes, so the quantum is 2 SMSS and the budget 6 SMSS.
    expect(d.s.sendQuantumBytes).toBe(2 * MSS);
    expect(d.s.maxInflightBytes).toBe(6 * MSS);
  });
});
