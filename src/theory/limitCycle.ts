import { runFluid } from '../fluid/run/runFluid.js';
import type { Scenario } from '../scenario/types.js';

/**
 * The limit cycle of a fluid model that has no equilibrium (a hybrid model: BBR's gain cycle and
 * ProbeRTT timer, CUBIC's and Tahoe's loss events): the model is run on the Scenario and the queue
 * over the measurement interval gives the cycle's period (the first peak of its autocorrelation
 * between 2 grid steps and half the interval, on a uniform grid) and its amplitude (min, max, mean).
 * Numbers from the model itself, as the linear analysis of a mean-field model is. The interval is the
 * Scenario's measurement, or at least the second half of the run (the start-up is not the cycle).
 */
export interface LimitCycle {
  periodS: number | null;
  queueMinPackets: number;
  queueMaxPackets: number;
  queueMeanPackets: number;
  /** Flow 0's window over the interval, segments. */
  cwndMinSegments: number;
  cwndMaxSegments: number;
}

export function limitCycle(s: Scenario, opts: { modelsDir?: string; gridPoints?: number } = {}): LimitCycle {
  const r = runFluid(s, { ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}), gridPoints: opts.gridPoints ?? 20000 });
  const q = r.queue.packets;
  const from = Math.max(s.measureFromS, s.durationS / 2);
  const keep = q.t.map((_, i) => i).filter((i) => q.t[i]! >= from);
  const xs = keep.map((i) => q.v[i]!);
  const cw = keep.map((i) => r.flows[0]!.trace.cwndBytes.v[i]! / s.mssBytes);
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return {
    periodS: xs.length > 4 ? firstAutocorrelationPeak(xs, mean) * (q.t[1]! - q.t[0]!) || null : null,
    queueMinPackets: Math.min(...xs),
    queueMaxPackets: Math.max(...xs),
    queueMeanPackets: mean,
    cwndMinSegments: Math.min(...cw),
    cwndMaxSegments: Math.max(...cw),
  };
}

/** Lag (in samples) of the highest autocorrelation after it first turns negative; 0 when it never does. */
function firstAutocorrelationPeak(xs: readonly number[], mean: number): number {
  const n = xs.length;
  const ac = (lag: number): number => {
    let c = 0;
    for (let j = 0; j + lag < n; j++) c += (xs[j]! - mean) * (xs[j + lag]! - mean);
    return c / (n - lag);
  };
  let lag = 1;
  while (lag < n / 2 && ac(lag) > 0) lag++;
  let best = 0;
  let bestVal = 0;
  for (; lag < n / 2; lag++) {
    const v = ac(lag);
    if (v > bestVal) {
      bestVal = v;
      best = lag;
    } else if (best > 0 && v < 0) break;
  }
  return best;
}
