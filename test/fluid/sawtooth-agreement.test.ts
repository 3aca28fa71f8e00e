import { describe, expect, it } from 'vitest';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { runPacket } from '../../src/packet/run.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { flowPath } from '../../src/scenario/path.js';
import type { RunResult } from '../../src/result/types.js';
import type { Scenario } from '../../src/scenario/types.js';
import type { Variant } from '../../src/variants.js';

/**
 * The textbook drop-tail sawtooth (issue 10; the packet side is test/packet/sawtooth.test.ts): one
 * flow, 100 Mbit/s, base RTT 31.4 ms (BDP 259 segments), a drop-tail queue of 83, no random loss,
 * SACK on. The window climbs until pipe and queue are full (BDP + B), the burst the full queue drops
 * is one window cut (SACK repairs it in one recovery), to half the peak.
 */
function textbook(variant: Variant): Scenario {
  const s = dumbbellScenario(variant);
  s.name = 'textbook';
  s.durationS = 100;
  s.measureFromS = 10;
  s.mssBytes = 1460;
  s.headerBytes = 54;
  s.bottleneck.bandwidthBps = 100e6;
  s.bottleneck.delayS = 0.01;
  s.bottleneck.queue = { kind: 'droptail', limitPackets: 83 };
  s.flows[0]!.access = { bandwidthBps: 1e9, delayS: 0.005631, queuePackets: 100_000 };
  s.flows[0]!.receiverAccess = null;
  s.trace.maxPoints = 200_000;
  return s;
}

/** Peaks (the sample before a cut of more than 20%), the troughs after them, and the mean time between cuts, after 10 s. */
function sawtooth(r: RunResult): { peaks: number[]; troughs: number[]; periodS: number } {
  const { t, v } = r.flows[0]!.trace.cwndBytes;
  const peaks: number[] = [];
  const troughs: number[] = [];
  const cuts: number[] = [];
  for (let i = 1; i < v.length; i++) {
    if (t[i]! < 10 || !(v[i]! < 0.8 * v[i - 1]!)) continue;
    peaks.push(v[i - 1]! / r.mssBytes);
    troughs.push(v[i]! / r.mssBytes);
    cuts.push(t[i]!);
  }
  return { peaks, troughs, periodS: (cuts.at(-1)! - cuts[0]!) / (cuts.length - 1) };
}

describe('the textbook drop-tail sawtooth: fluid model against the packet engine', () => {
  for (const variant of ['reno', 'newreno'] as const) {
    it(`${variant}: peak BDP + B, trough half the peak, mean cwnd within 5% and period within 10%`, () => {
      const s = textbook(variant);
      // Pipe (the link's packet rate x the base RTT, serialisation included) plus the queue.
      const path = flowPath(s);
      const full = (100e6 / (8 * 1514)) * path.baseRttS + 83;
      const packet = runPacket(s);
      const fluid = runFluid(s);
      const ps = sawtooth(packet);
      const fs = sawtooth(fluid);
      expect(fs.peaks.length).toBeGreaterThanOrEqual(5);
      // +1: the window grows for the RTT until the drop is seen (the packet engine peaks at 344).
      for (const pk of [...fs.peaks, ...ps.peaks]) expect(Math.abs(pk - (full + 1))).toBeLessThan(1);
      for (let i = 0; i < fs.troughs.length; i++) expect(fs.troughs[i]! / fs.peaks[i]!).toBeCloseTo(0.5, 2);
      expect(Math.abs(fluid.summary.meanCwndSegments / packet.summary.meanCwndSegments - 1)).toBeLessThan(0.05);
      expect(Math.abs(fs.periodS / ps.periodS - 1)).toBeLessThan(0.1);
    });
  }
});
