/**
 * draft-ietf-ccwg-bbr-06 Appendix A ("BBR Example Test Cases") on the packet engine: one bbr3 flow
 * over a dumbbell line, each test named after the section it scripts, asserting what the section
 * asks to verify with the algorithm's state recorded after every ACK. Sections the engine cannot
 * express are scripted on the bare model in state-machine.test.ts or listed in the README.
 *
 * Path unless a test says otherwise: 10 Mbit/s bottleneck, RTT 40 ms (access 1 ms + bottleneck 19 ms
 * each way), so the payload rate is 1.2067e6 bytes/s and the BDP 48.3 kB (33 segments of 1448 B).
 */
import { describe, expect, it } from 'vitest';
import { bbr3Line, payloadRate, runTraced, transitions, type Point } from './trace.js';

const C = 10e6;
const RATE = payloadRate(C);
const RTT = 0.04;
const BDP = RATE * RTT;
const MSS = 1448;

const base = { bottleneckBps: C, bottleneckDelayS: 0.019, accessDelayS: 0.001 };

describe('Appendix A on the packet engine (10 Mbit/s, 40 ms)', () => {
  // One 6-s run with a 2-BDP buffer serves the STARTUP, DRAIN and ProbeBW sections.
  const run = runTraced(bbr3Line({ ...base, queuePackets: 70, durationS: 6, measureFromS: 2 }));
  const tr = transitions(run.trace);

  it('A.1 Exiting STARTUP on Bandwidth Plateau: max_bw within 2% of the link, full_bw_count 3, then DRAIN', () => {
    const exit = tr.find((x) => x.from === 'startup')!;
    expect(exit.to).toBe('drain');
    expect(exit.at.fullBwNow).toBe(true);
    expect(exit.at.fullBwReached).toBe(true);
    expect(exit.before.fullBwCount).toBe(2);
    expect(Math.abs(exit.at.maxBw / RATE - 1)).toBeLessThan(0.02);
    // STARTUP paces at 2.77 x max_bw x 0.99 (bits/s on the TcpState).
    const s = run.trace.find((p) => p.mode === 'startup' && p.maxBw > 0)!;
    expect(s.pacingRateBps).toBeGreaterThanOrEqual(8 * 2.77 * s.maxBw * 0.99 - 1e-6);
  });

  it('A.3 Exiting DRAIN Based on Inflight: gain 0.5 in DRAIN, ProbeBW once inflight <= Inflight(1.0)', () => {
    const drain = run.trace.filter((p) => p.mode === 'drain');
    expect(drain.length).toBeGreaterThan(0);
    for (const p of drain) expect(p.pacingGain).toBe(0.5);
    const exit = tr.find((x) => x.from === 'drain')!;
    expect(exit.to.startsWith('probe_bw')).toBe(true);
    // Inflight(1.0) = bw x min_rtt, floored at the quantization budget (6 segments here).
    expect(exit.at.inflight).toBeLessThanOrEqual(Math.max(exit.at.bw * exit.at.minRtt, 6 * MSS) + 1e-6);
    expect(exit.at.roundCount - roundAt(run.trace, tr.find((x) => x.to === 'drain')!.at)).toBeLessThanOrEqual(3);
  });

  it('A.4 Exiting DRAIN Based on Time: with the link cut on entering DRAIN, inflight stays above Inflight(1.0) and DRAIN ends after 3 rounds anyway', () => {
    // A drop-tail FIFO fixes the departure times of what it holds, so a cut would reach only packets
    // sent after it; a CoDel queue whose target (10 s) is never reached holds its packets and drops
    // none, so the whole STARTUP queue leaves at the new rate. The draft's 10% cut drains that queue
    // within one round on this path (DRAIN then ends on inflight, at round 8); a 50% cut (the link at
    // the DRAIN pacing rate 0.5 x 0.99 x max_bw) holds inflight up.
    const held = (durationS: number, ccParams?: Record<string, number>) => {
      const s = bbr3Line({ ...base, queuePackets: 70, durationS, ccParams });
      s.bottleneck.queue = { kind: 'codel', limitPackets: 70, targetS: 10, intervalS: 100 };
      return s;
    };
    const enter = transitions(runTraced(held(1)).trace).find((x) => x.to === 'drain')!;
    const cut = (ccParams?: Record<string, number>) => {
      const s = held(enter.at.t + 1.5, ccParams);
      s.bottleneck.rateChanges = [{ atS: enter.at.t, bandwidthBps: 0.5 * C }];
      return runTraced(s);
    };
    const stepped = cut();
    const tr2 = transitions(stepped.trace);
    const drainStart = tr2.find((x) => x.to === 'drain')!.at;
    expect(drainStart.t).toBe(enter.at.t);
    const exit = tr2.find((x) => x.from === 'drain')!;
    expect(exit.to.startsWith('probe_bw')).toBe(true);
    // Rounds drain_start_round + 1 .. + 3 pass in DRAIN; the first ACK of the 4th ends it.
    expect(exit.at.roundCount - drainStart.roundCount).toBe(4);
    expect(exit.before.inflight).toBeGreaterThan(exit.before.bw * exit.before.minRtt);
    for (const p of stepped.trace.filter((q) => q.mode === 'drain')) expect(p.pacingGain).toBe(0.5);
    expect(stepped.result.summary.drops.queue).toBe(0);
    // Google v3 leaves DRAIN on inflight only (drainMaxRounds 0): where the draft's rule left, it
    // is still draining (the link at the DRAIN rate empties the queue only slowly).
    const v3 = cut({ drainMaxRounds: 0 }).trace;
    const then = v3.find((p) => p.t >= exit.at.t + 0.1)!;
    expect(then.mode).toBe('drain');
    expect(then.inflight).toBeGreaterThan(then.bw * then.minRtt);
  });

  it('A.5 Exiting PROBE_UP on Bandwidth Plateau: with no loss, UP ends in DOWN when full_bw_now is set', () => {
    const ups = tr.filter((x) => x.from === 'probe_bw_up');
    expect(ups.length).toBeGreaterThan(0);
    for (const x of ups) {
      expect(x.to).toBe('probe_bw_down');
      expect(x.before.fullBwNow || x.at.fullBwNow).toBe(true);
      expect(x.at.prevProbeTooHigh).toBe(false);
    }
    for (const p of run.trace.filter((q) => q.mode === 'probe_bw_up')) {
      expect(p.pacingGain).toBe(1.25);
      expect(p.cwndGain).toBe(2.25);
    }
  });

  it('A.8 Exiting PROBE_DOWN on Inflight: gain 0.90, CRUISE once inflight <= min(headroom target, BDP)', () => {
    const downs = tr.filter((x) => x.from === 'probe_bw_down' && x.to === 'probe_bw_cruise');
    expect(downs.length).toBeGreaterThan(0);
    for (const x of downs) expect(x.at.inflight).toBeLessThanOrEqual(Math.max(x.at.maxBw * x.at.minRtt, 6 * MSS) + 1e-6);
    for (const p of run.trace.filter((q) => q.mode === 'probe_bw_down')) expect(p.pacingGain).toBe(0.9);
  });

  it('A.9 Exiting PROBE_DOWN After Max Time: 10% less bandwidth from the moment DOWN starts keeps inflight above the BDP; DOWN ends in REFILL after bw_probe_wait (2-3 s), bypassing CRUISE', () => {
    // The same run up to the first UP -> DOWN (the engine is deterministic), then the step.
    const down = tr.find((x) => x.from === 'probe_bw_up' && x.to === 'probe_bw_down')!;
    const s = bbr3Line({ ...base, queuePackets: 70, durationS: down.at.t + 3.5 });
    s.bottleneck.rateChanges = [{ atS: down.at.t, bandwidthBps: 0.9 * C }];
    const stepped = runTraced(s);
    const after = transitions(stepped.trace).find((x) => x.from === 'probe_bw_down' && x.at.t > down.at.t)!;
    expect(after.to).toBe('probe_bw_refill');
    expect(after.at.t - down.at.t).toBeGreaterThan(2);
    expect(after.at.t - down.at.t).toBeLessThanOrEqual(3 + RTT);
    const inDown = stepped.trace.filter((p) => p.mode === 'probe_bw_down' && p.t > down.at.t + RTT && p.t < after.at.t);
    for (const p of inDown) expect(p.inflight).toBeGreaterThan(p.maxBw * p.minRtt);
  });

  it('steady state: goodput >= 95% of the payload rate from 2 s, min_rtt within 1% of 40 ms (+ one serialisation)', () => {
    expect(run.result.flows[0]!.summary.goodputBps).toBeGreaterThanOrEqual(0.95 * 8 * RATE);
    const last = run.trace.at(-1)!;
    expect(last.minRtt).toBeGreaterThanOrEqual(RTT);
    expect(last.minRtt).toBeLessThan(RTT * 1.01 + 1500 * 8 / C);
  });
});

describe('Appendix A.10 Entering and Exiting PROBE_RTT', () => {
  it('ProbeRTT comes 5 s after the last lower RTT sample, with cwnd gain 0.5 and cwnd <= max(0.5 BDP, 4 MSS), for >= 200 ms and a round, back to ProbeBW', () => {
    const { trace } = runTraced(bbr3Line({ ...base, queuePackets: 70, durationS: 7.5 }));
    const tr = transitions(trace);
    const enter = tr.find((x) => x.to === 'probe_rtt')!;
    expect(enter).toBeDefined();
    const exit = tr.find((x) => x.from === 'probe_rtt')!;
    expect(exit.to).toBe('probe_bw_cruise');
    const inRtt = trace.filter((p) => p.mode === 'probe_rtt');
    for (const p of inRtt) {
      expect(p.cwndGain).toBe(0.5);
      expect(p.pacingGain).toBe(1);
      expect(p.cwnd).toBeLessThanOrEqual(Math.ceil(Math.max(0.5 * p.bw * p.minRtt, 4 * MSS)));
    }
    expect(exit.at.t - enter.at.t).toBeGreaterThanOrEqual(0.2);
    expect(exit.at.t - enter.at.t).toBeLessThan(0.2 + 3 * RTT);
    expect(enter.at.t).toBeGreaterThan(5);
    // Sending resumes: cwnd back above the ProbeRTT cap within a round.
    const after = trace.filter((p) => p.t > exit.at.t + RTT && p.t < exit.at.t + 2 * RTT);
    expect(Math.max(...after.map((p) => p.cwnd))).toBeGreaterThan(BDP);
  });
});

/** Round count at a point (the trace's roundCount there). */
function roundAt(trace: Point[], p: Point): number {
  return trace.find((q) => q === p)!.roundCount;
}

describe('Appendix A.14 Correctly Managing Sub-Packet BDPs', () => {
  // A BDP under one packet cannot be measured on a store-and-forward path (the RTT holds the packet's
  // own serialisation); 64 kbit/s with 1 ms of propagation gives 2.8 packets, under the 4-packet floor.
  it('64 kbit/s, 1 ms propagation (BDP under 4 packets): cwnd never below MinPipeCwnd = 4 MSS, pacing at 0.99 bw in CRUISE, goodput >= 90%', () => {
    const bps = 64e3;
    const { trace, result } = runTraced(bbr3Line({ bottleneckBps: bps, bottleneckDelayS: 0.0005, accessDelayS: 0.0005, queuePackets: 20, durationS: 40, measureFromS: 10 }));
    expect(trace.some((p) => p.mode.startsWith('probe_bw'))).toBe(true);
    for (const p of trace) expect(p.cwnd).toBeGreaterThanOrEqual(4 * MSS);
    const bdp = trace.at(-1)!.bw * trace.at(-1)!.minRtt;
    expect(bdp).toBeLessThan(4 * MSS);
    for (const p of trace.filter((q) => q.mode === 'probe_bw_cruise')) expect(p.pacingRateBps).toBeCloseTo(8 * 0.99 * p.bw, 6);
    expect(result.flows[0]!.summary.goodputBps).toBeGreaterThanOrEqual(0.9 * 8 * payloadRate(bps));
  });
});

describe('Appendix A.15 Increasing Bandwidth 10x and Ensuring Full Bandwidth is Reached', () => {
  it('10 -> 100 Mbit/s at 3 s with a shallow buffer: inflight_longterm grows by 1, 2, 4, ... segments per round in UP, and max_bw reaches 90% of 100 Mbit/s', () => {
    const s = bbr3Line({ ...base, queuePackets: 15, durationS: 8 });
    s.bottleneck.rateChanges = [{ atS: 3, bandwidthBps: 10 * C }];
    const { trace } = runTraced(s);
    expect(trace.some((p) => p.t < 3 && Number.isFinite(p.inflightLongterm))).toBe(true);
    // Per-round growth of inflight_longterm within each UP phase after the step.
    const steps: number[] = [];
    let prev: Point | null = null;
    for (const p of trace.filter((q) => q.t > 3 && q.mode === 'probe_bw_up')) {
      if (prev !== null && p.roundCount === prev.roundCount + 1 && p.inflightLongterm > prev.inflightLongterm) steps.push(Math.round((p.inflightLongterm - prev.inflightLongterm) / MSS));
      if (prev === null || p.roundCount !== prev.roundCount) prev = p;
    }
    const doubling = steps.findIndex((d, i) => i >= 2 && d >= 4 && steps[i - 1]! >= 2 && d >= 1.5 * steps[i - 1]!);
    expect(doubling, `growth per round: ${steps.join(', ')}`).toBeGreaterThanOrEqual(0);
    const reached = trace.find((p) => p.t > 3 && p.maxBw >= 0.9 * payloadRate(10 * C));
    expect(reached, 'max_bw reaches 90% of 100 Mbit/s').toBeDefined();
    expect(reached!.t - 3).toBeLessThan(4);
  });
});

describe('Appendix A.16 Decreasing Bandwidth 10x and Ensuring Max Bandwidth Adapts Down', () => {
  it('100 -> 10 Mbit/s at 2 s: bw_shortterm falls below max_bw on the losses, and max_bw is within 10% of 10 Mbit/s two ProbeBW cycles later', () => {
    const s = bbr3Line({ ...base, bottleneckBps: 10 * C, queuePackets: 100, durationS: 12 });
    s.bottleneck.rateChanges = [{ atS: 2, bandwidthBps: C }];
    const { trace } = runTraced(s);
    const cut = trace.find((p) => p.t > 2 && p.bwShortterm < 0.75 * p.maxBw);
    expect(cut, 'bw_shortterm cut after the step').toBeDefined();
    expect(cut!.t - 2).toBeLessThan(1);
    const adapted = trace.find((p) => p.t > 2 && Math.abs(p.maxBw / RATE - 1) < 0.1);
    expect(adapted, 'max_bw adapts down').toBeDefined();
    expect(adapted!.t - 2).toBeLessThan(8);
    expect(Math.abs(trace.at(-1)!.maxBw / RATE - 1)).toBeLessThan(0.1);
  });
});

describe('Appendix A.17 Handling Token Bucket Policers', () => {
  it('a 10 Mbit/s policer (64 kB burst) on a 100 Mbit/s link: the short-term model adapts, goodput near the token rate, loss bounded after 4 s', () => {
    const s = bbr3Line({ ...base, bottleneckBps: 10 * C, queuePackets: 100, durationS: 10, measureFromS: 4 });
    s.bottleneck.queue = { kind: 'policer', limitPackets: 100, rateBps: C, burstBytes: 64_000 } as never;
    const { trace, result, model } = runTraced(s);
    expect(trace.some((p) => Number.isFinite(p.bwShortterm) || Number.isFinite(p.inflightShortterm))).toBe(true);
    const g = result.flows[0]!.summary.goodputBps;
    expect(g).toBeGreaterThanOrEqual(0.8 * 8 * payloadRate(C));
    expect(g).toBeLessThanOrEqual(8 * payloadRate(C) * 1.02);
    void model;
  });
});

describe('Appendix A.20 Handling Loss During PROBE_UP After inflight_longterm is Set (loss above 2% bounds inflight_longterm)', () => {
  it('10 Mbit/s, 40 ms, 10-packet buffer: a lossy UP ends at once in DOWN with inflight_longterm >= 0.7 x min(BDP, cwnd), and cwnd stays under the bounds', () => {
    const { trace } = runTraced(bbr3Line({ ...base, queuePackets: 10, durationS: 10 }));
    const tr = transitions(trace);
    const lossy = tr.filter((x) => x.from === 'probe_bw_up' && x.at.prevProbeTooHigh && Number.isFinite(x.before.inflightLongterm));
    expect(lossy.length).toBeGreaterThan(0);
    for (const x of lossy) {
      // DOWN, or ProbeRTT when it fell due on the same ACK (CheckProbeRTT runs after the cycle).
      expect(['probe_bw_down', 'probe_rtt']).toContain(x.to);
      const target = Math.min(x.before.bw * x.before.minRtt, x.before.cwnd);
      expect(x.at.inflightLongterm).toBeGreaterThanOrEqual(0.7 * target - 1e-6);
    }
    // BoundCwndForModel on every ACK: inflight_longterm in DOWN/REFILL/UP, 0.85 of it in CRUISE and ProbeRTT.
    for (const p of trace) {
      if (!Number.isFinite(p.inflightLongterm)) continue;
      const headroom = Math.max(p.inflightLongterm - Math.max(MSS, 0.15 * p.inflightLongterm), 4 * MSS);
      const cap = p.mode === 'probe_bw_cruise' || p.mode === 'probe_rtt' ? headroom : p.mode.startsWith('probe_bw') ? p.inflightLongterm : Infinity;
      expect(p.cwnd).toBeLessThanOrEqual(Math.ceil(Math.max(Math.min(cap, p.inflightShortterm), 4 * MSS)));
    }
  });
});
