import { packetBits } from '../../src/scenario/path.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { Scenario, Series } from '../../src/index.js';

/**
 * PIE's loop (models/bottleneck-pie.model.yaml with Reno's mean-field model): linearised from the
 * model files as RED's is (Hollot et al.), with PIE's drop probability an integrating controller
 * (a pole of L at s = 0, the Nyquist contour indented around it). Four Reno flows on 20 Mbit/s with
 * PIE's RFC 8033 defaults: stable at a 24 ms base RTT, unstable at 204 ms; the verdict is checked on
 * the fluid model's own queue and on the packet engine's.
 */
export function pieLine(bottleneckDelayS: number): Scenario {
  const s = dumbbellScenario('reno', 4);
  s.durationS = 60;
  s.measureFromS = 30;
  s.bottleneck.bandwidthBps = 20e6;
  s.bottleneck.delayS = bottleneckDelayS;
  s.bottleneck.queue = { kind: 'pie', limitPackets: 5000 };
  s.flows.forEach((f) => {
    f.access.queuePackets = 10000;
    f.receiverAccess!.queuePackets = 10000;
  });
  return s;
}

/** Queue delay (ms) over the measurement interval: mean, 5th percentile and the share of time the queue is empty. */
export function delayStats(s: Scenario, q: Series): { meanMs: number; p5Ms: number; empty: number } {
  const C = s.bottleneck.bandwidthBps / packetBits(s);
  const v = q.v.filter((_, i) => q.t[i]! >= s.measureFromS).map((x) => (x / C) * 1e3).sort((a, b) => a - b);
  return { meanMs: v.reduce((a, b) => a + b, 0) / v.length, p5Ms: v[Math.floor(0.05 * v.length)]!, empty: v.filter((x) => x < 0.5).length / v.length };
}
