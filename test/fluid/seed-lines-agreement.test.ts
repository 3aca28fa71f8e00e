import { describe, expect, it } from 'vitest';
import { secondsToNs } from '../../src/engine/simulator.js';
import { fluidSystem, runFluid } from '../../src/fluid/run/runFluid.js';
import { buildPacketModel, runPacket } from '../../src/packet/run.js';
import { solve } from '../../src/solver/index.js';
import type { Scenario } from '../../src/scenario/types.js';
import { reportSeed } from '../../src/report/replicates.js';
import { modelAgreement } from '../../src/runs/agreement.js';
import { fluidRunPlan, randomLossEvents } from '../../src/runs/modelRuns.js';
import { presetScenario, type PresetName } from '../../src/scenario/presets.js';
import { applyProfile } from '../../src/scenario/resolveProfile.js';
import type { Series } from '../../src/result/types.js';

/**
 * Issue 21: the seed study's own-bottleneck lines, where the CUBIC and Westwood+ models missed the
 * packet engine (models/README.md, "CUBIC", "At a few segments with timeouts"; "Westwood+", "The
 * receive window"). Run as the seed study runs them: the page's seeds (report/replicates.ts
 * reportSeed), the one comparison method (runs/agreement.ts), 100 s. An agreement suite (~8 CPU-s):
 * `npm test`, not the quick tier.
 */

/** Mean of a trace over [fromS, toS] (record-on-change: each value holds until the next point). */
function meanOver(s: Series, fromS: number, toS: number): number {
  let area = 0;
  for (let i = 0; i < s.t.length; i++) {
    const a = Math.max(fromS, s.t[i]!);
    const b = Math.min(toS, s.t[i + 1] ?? toS);
    if (b > a) area += s.v[i]! * (b - a);
  }
  return area / (toS - fromS);
}

/**
 * When a packet Westwood+ run leaves the low mode: the time of its first cut (ssthresh from BWE x
 * RTTmin) to at least `segments` (scripts/westwoodLowMode.ts), or Infinity if none comes.
 */
function packetEscapeS(s: Scenario, segments: number): number {
  const m = buildPacketModel(s, { record: 'summary' });
  const cc = m.senders[0]!.cc;
  const ssthresh = cc.ssthresh.bind(cc);
  let escapeS = Infinity;
  cc.ssthresh = (tcb, kind, nowS) => {
    const v = ssthresh(tcb, kind, nowS);
    if (escapeS === Infinity && v >= segments * s.mssBytes) escapeS = nowS;
    return v;
  };
  m.sim.run(secondsToNs(s.durationS));
  return escapeS;
}

/** When the fluid Westwood+ leaves its low mode (its state `low` drops to 0), to 0.1 s; Infinity if it does not. */
function fluidEscapeS(s: Scenario): number {
  const sys = fluidSystem(s);
  const sol = solve(sys.problem, { rtol: 1e-5, atol: 1e-7 });
  const y = new Float64Array(sys.layout.n);
  for (let t = 0.1; t <= s.durationS; t += 0.1) {
    sol.stateInto(t, y);
    if (y[sys.layout.yFlow(0, 'low')] === 0) return t;
  }
  return Infinity;
}

describe('the seed study\'s own-bottleneck lines (issue 21)', () => {
  it('lossy CUBIC (1 Mbit/s, 24 ms, p = 0.1 both ways): the model within 10% of the packet median over the page\'s 6 seeds (was +60%, then -25%)', () => {
    const s = presetScenario('lossy', 'cubic');
    const seeds = Array.from({ length: 6 }, (_, rep) => reportSeed(1, 'lossy', rep));
    const packet = seeds.map((seed) => runPacket({ ...s, seed }).summary.goodputBps);
    const fluid = fluidRunPlan(randomLossEvents()(s), seeds).map((f) => runFluid({ ...s, seed: f.seed }, f.lossProcess ? { lossProcess: f.lossProcess } : {}).summary.goodputBps);
    const a = modelAgreement(packet, fluid);
    expect(Math.abs(a.error!), `fluid ${a.fluid.median} against the packet median ${a.packet.median}`).toBeLessThanOrEqual(0.1);
  }, 120_000);

  it('lfn Westwood+ (100 Mbit/s, 200 ms, p = 1e-3, receive window 6168 segments): the span from SND.UNA, not the flight, meets the receive window; the model\'s window settles where the packet flow\'s does', () => {
    const s = presetScenario('lfn', 'westwood', { seed: reportSeed(1, 'lfn', 1) });
    s.trace.maxPoints = 2000;
    const mss = s.mssBytes;
    const rwnd = s.tcp.rcvBufBytes / mss;
    const packet = meanOver(runPacket(s).flows[0]!.trace.cwndBytes, 60, 95) / mss;
    const fluid = meanOver(runFluid(s).flows[0]!.trace.cwndBytes, 60, 95) / mss;
    // Both run away (ns-3's estimator, models/README.md gap 2) and settle below the receive window:
    // a pending hole holds SND.UNA back for 2 R + D gaps, so at W p >> 1 the span is about twice the flight.
    expect(packet).toBeLessThan(0.85 * rwnd);
    expect(fluid).toBeLessThan(0.85 * rwnd);
    expect(Math.abs(fluid / packet - 1), `fluid ${fluid.toFixed(0)} against packet ${packet.toFixed(0)} segments`).toBeLessThanOrEqual(0.1);
  }, 120_000);

  it('lossy CUBIC under the ns3 profile (ns-3\'s whole-segment cnt arithmetic) on both setups: the model with cntArithmetic within 10% of the packet median over the page\'s seeds; the real-valued cut is > 40% above it', () => {
    for (const [name, reps] of [['ns3-lossy', 10], ['lossy', 6]] as [PresetName, number][]) {
      const s = applyProfile(presetScenario(name, 'cubic'), 'ns3');
      expect(s.ccDefaults?.cubic?.cntArithmetic).toBe(1);
      const seeds = Array.from({ length: reps }, (_, rep) => reportSeed(1, name, rep));
      const packet = seeds.map((seed) => runPacket({ ...s, seed }).summary.goodputBps);
      const fluid = (params: Record<string, number>) => seeds.map((seed) => runFluid({ ...s, seed }, { lossProcess: 'poisson', params }).summary.goodputBps);
      const a = modelAgreement(packet, fluid({}));
      expect(Math.abs(a.error!), `${name}: fluid ${a.fluid.median} against the packet median ${a.packet.median}`).toBeLessThanOrEqual(0.1);
      // The mechanism: RFC 9438's real-valued cut (2.8 segments from 4, where ns-3 cuts to 2) overestimates the flow.
      const real = modelAgreement(packet, fluid({ cntArithmetic: 0 }));
      expect(real.error!, `${name}: the real-valued model against the integer engine`).toBeGreaterThan(0.4);
    }
  }, 120_000);

  it('ns3-normal CUBIC under the ns3 profile (ns-3\'s HyStart thresholds): the model leaves its first slow start within 20% of the packet engine\'s window; with Linux\'s thresholds it left at 1.22 BDP, > 35% below', () => {
    const s = applyProfile(presetScenario('ns3-normal', 'cubic', { durationS: 5, seed: reportSeed(1, 'ns3-normal', 0) }), 'ns3');
    expect(s.ccDefaults?.cubic?.hystartNs3).toBe(1);
    const mss = s.mssBytes;
    // The window slow start ended at: the first finite ssthresh (the packet engine's HyStart sets
    // ssthresh = cwnd; the model reports beta cwnd_prior, cwnd_prior = W at the exit).
    const firstSsthresh = (t: Series): number => t.v.find((v) => v < 1e8 * mss)!;
    const packet = firstSsthresh(runPacket(s).flows[0]!.trace.ssthreshBytes) / mss;
    const fluid = (params: Record<string, number>) => firstSsthresh(runFluid(s, { params }).flows[0]!.trace.ssthreshBytes) / mss / 0.7;
    // Measured: 614 segments (2.1 BDP of the 10 Mbit/s access link, 289 segments); the model 716.
    expect(packet).toBeGreaterThan(1.8 * 289);
    expect(Math.abs(fluid({}) / packet - 1), `fluid ${fluid({}).toFixed(0)} against packet ${packet.toFixed(0)} segments`).toBeLessThanOrEqual(0.2);
    expect(fluid({ hystartNs3: 0 }) / packet, 'Linux\'s thresholds').toBeLessThan(0.65);
  }, 60_000);

  it('lossy Reno under the ns3 profile on both setups (30 seeds): with the ACK after a hole counted as a duplicate (advanceDup) the model is within 10% of the packet median; without the term it is more than 10% above it on both', () => {
    for (const name of ['ns3-lossy', 'lossy'] as PresetName[]) {
      const s = applyProfile(presetScenario(name, 'reno'), 'ns3');
      expect(s.tcp.sackAdvanceAck).toBe('dupAck');
      const seeds = Array.from({ length: 30 }, (_, rep) => reportSeed(1, name, rep));
      const packet = seeds.map((seed) => runPacket({ ...s, seed }).summary.goodputBps);
      const fluid = (params: Record<string, number>) => [runFluid(s, { params }).summary.goodputBps];
      const a = modelAgreement(packet, fluid({}));
      expect(Math.abs(a.error!), `${name}: fluid ${a.fluid.median} against the packet median ${a.packet.median}`).toBeLessThanOrEqual(0.1);
      expect(modelAgreement(packet, fluid({ advanceDup: 0 })).error!, `${name}: without the term`).toBeGreaterThan(0.1);
    }
  }, 240_000);

  it('lossy Tahoe under the ns3 profile on both setups (30 seeds): the model with its post-loss rounds, detection delay and ACK-clock deaths as loss events is within 6% of the packet median (own lossy was -9.1%)', () => {
    // Measured (models/README.md, "Tahoe at one or two segments"): own lossy -9.1% -> -3.4% (packet
    // 20.9 kbit/s), ns3-lossy +0.3% -> +4.4%; the model's budget on own lossy now follows the packet
    // runs' (idle 72.1 s against 71.4, timeout sequences 45.5 against 46.0, ACK-clock deaths 19.1
    // against 20.2), where before its idle share (86.4 s) was made up by sending twice as fast while active.
    for (const name of ['lossy', 'ns3-lossy'] as PresetName[]) {
      const s = applyProfile(presetScenario(name, 'tahoe'), 'ns3');
      const seeds = Array.from({ length: 30 }, (_, rep) => reportSeed(1, name, rep));
      const packet = seeds.map((seed) => runPacket({ ...s, seed }).summary.goodputBps);
      const fluid = fluidRunPlan(randomLossEvents()(s), seeds).map((f) => runFluid({ ...s, seed: f.seed }, f.lossProcess ? { lossProcess: f.lossProcess } : {}).summary.goodputBps);
      const a = modelAgreement(packet, fluid);
      expect(Math.abs(a.error!), `${name}: fluid ${a.fluid.median} against the packet median ${a.packet.median}`).toBeLessThanOrEqual(0.06);
    }
  }, 240_000);

  it('lossy Westwood+ under the ns3 profile on both setups (30 seeds): the model of the low mode and its escape rate is within 10% of the packet median; the model that starts above it (synRtt 0) is more than 30% above on both', () => {
    for (const name of ['ns3-lossy', 'lossy'] as PresetName[]) {
      const s = applyProfile(presetScenario(name, 'westwood'), 'ns3');
      expect(s.tcp.handshakeRtt).toBe(true);
      const seeds = Array.from({ length: 30 }, (_, rep) => reportSeed(1, name, rep));
      const packet = seeds.map((seed) => runPacket({ ...s, seed }).summary.goodputBps);
      const fluid = (params: Record<string, number>) => [runFluid(s, { params }).summary.goodputBps];
      const a = modelAgreement(packet, fluid({}));
      expect(Math.abs(a.error!), `${name}: fluid ${a.fluid.median} against the packet median ${a.packet.median}`).toBeLessThanOrEqual(0.1);
      // Without the low mode (the estimate from the initial window's rate) the model sits in the upper
      // mode: ns3-lossy +35%, own lossy +2086% (the packet runs there mostly never leave the low mode);
      // with it +4.8% and -6.0%.
      expect(modelAgreement(packet, fluid({ synRtt: 0 })).error!, `${name}: without the low mode`).toBeGreaterThan(0.3);
    }
  }, 240_000);

  it('Westwood+ under the ns3 profile on ns3-lossy (30 seeds): the packet runs leave the low mode at a near-constant rate, and the model leaves it at their median escape time', () => {
    const s = applyProfile(presetScenario('ns3-lossy', 'westwood'), 'ns3');
    const escapes = Array.from({ length: 30 }, (_, rep) => packetEscapeS({ ...s, seed: reportSeed(1, 'ns3-lossy', rep) }, 6)).sort((a, b) => a - b);
    // Measured: 29 of 30 escape (3.8-83 s), median 19.5 s; the maximum-likelihood rate 0.0308/s.
    const median = (escapes[14]! + escapes[15]!) / 2;
    const escaped = escapes.filter(Number.isFinite);
    const rate = escaped.length / escapes.reduce((a, t) => a + Math.min(t, s.durationS), 0);
    // Exponential first passage: the median is ln 2 over the rate (within the sampling spread of 30 runs).
    expect(Math.abs(median * rate / Math.log(2) - 1), `median ${median.toFixed(1)} s, rate ${rate.toFixed(4)}/s`).toBeLessThan(0.35);
    const model = fluidEscapeS(s);
    expect(Math.abs(model / median - 1), `model ${model.toFixed(1)} s against the packet median ${median.toFixed(1)} s`).toBeLessThan(0.15);
    // Without the handshake's RTT sample there is no low mode in the model.
    expect(fluidEscapeS({ ...s, tcp: { ...s.tcp, handshakeRtt: false } })).toBe(0.1);
  }, 240_000);
});
