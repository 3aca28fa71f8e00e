import { describe, expect, it } from 'vitest';
import { AGREEMENT_TOLERANCE, modelAgreement, packetModes } from '../../src/runs/agreement.js';
import { medianInterval } from '../../src/runs/stats.js';

/** Deterministic standard-normal quantiles (Beasley-Springer-Moro is overkill: the inverse of erf by bisection). */
function normalQuantiles(n: number): number[] {
  const cdf = (x: number) => 0.5 * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));
  return Array.from({ length: n }, (_, i) => {
    const p = (i + 0.5) / n;
    let lo = -6;
    let hi = 6;
    for (let k = 0; k < 60; k++) {
      const mid = (lo + hi) / 2;
      if (cdf(mid) < p) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  });
}

describe('packetModes: bimodality of run goodputs', () => {
  it('finds two clumps further apart than each is wide, with their members', () => {
    // lfn Westwood+'s shape: some runs stuck near 1.4-2 Mbit/s, the rest near 6.
    const runs = [1.38e6, 1.5e6, 1.9e6, 5.6e6, 5.9e6, 6.0e6, 6.1e6, 6.17e6, 5.8e6, 1.7e6];
    const m = packetModes(runs)!;
    expect(m).not.toBeNull();
    expect(m.lower.runs).toBe(4);
    expect(m.upper.runs).toBe(6);
    expect([m.lower.minBps, m.lower.maxBps]).toEqual([1.38e6, 1.9e6]);
    expect([m.upper.minBps, m.upper.maxBps]).toEqual([5.6e6, 6.17e6]);
    // gap 3.7 Mbit/s over the wider group's 0.57 Mbit/s
    expect(m.gapRatio).toBeCloseTo((5.6e6 - 1.9e6) / (6.17e6 - 5.6e6), 9);
  });

  it('calls evenly spaced and bell-shaped samples unimodal (where a two-means split alone would not)', () => {
    expect(packetModes(Array.from({ length: 10 }, (_, i) => 1e6 + i * 1e5))).toBeNull();
    expect(packetModes(normalQuantiles(10).map((z) => 5e6 + 1e6 * z))).toBeNull();
    expect(packetModes(normalQuantiles(40).map((z) => 5e6 + 1e6 * z))).toBeNull();
  });

  it('refuses modes closer than twice the tolerance, and too few runs', () => {
    // Two tight clumps 10% apart: one answer at the verdict's precision.
    expect(packetModes([1.0, 1.0, 1.0, 1.01, 1.01, 1.1, 1.1, 1.1, 1.11, 1.11])).toBeNull();
    expect(packetModes([1, 1, 1, 5, 5])).toBeNull();
    // A single outlier is not a mode (each mode needs two runs).
    expect(packetModes([1, 5, 5.1, 5.2, 5.1, 5.0, 4.9, 5.05, 5.15, 4.95])).toBeNull();
  });

  it('is deterministic and independent of the order of the runs', () => {
    const runs = [1.38e6, 1.5e6, 1.9e6, 5.6e6, 5.9e6, 6.0e6, 6.1e6, 6.17e6, 5.8e6, 1.7e6];
    expect(packetModes([...runs].reverse())).toEqual(packetModes(runs));
  });
});

describe('modelAgreement: the one comparison of every command', () => {
  it('compares the medians of both sides and gives the fluid runs the same interval as the packet runs', () => {
    const packet = [9, 10, 10, 10, 11, 10, 9.5, 10.5, 10.2, 9.8];
    const fluid = [10.6, 10.8, 11, 10.9, 10.7, 10.5, 11.1, 10.8, 10.9, 10.6];
    const a = modelAgreement(packet, fluid);
    expect(a.packet).toEqual(medianInterval(packet));
    expect(a.fluid).toEqual(medianInterval(fluid));
    expect(a.error).toBeCloseTo((a.fluid.median - a.packet.median) / a.packet.median, 12);
    expect(a.criterion).toBe('within-tolerance');
    expect(a.modes).toBeNull();
  });

  it('a deterministic model: one run, no interval, the plain relative error', () => {
    const a = modelAgreement([10, 10, 10, 10, 10, 10], [12]);
    expect(a.fluid.n).toBe(1);
    expect(a.fluid.low).toBeNaN();
    expect(a.error).toBeCloseTo(0.2, 12);
    expect(a.criterion).toBeNull();
    expect(a.agrees).toBe(false);
  });

  it('the tolerance is inclusive at exactly 10%', () => {
    expect(modelAgreement([100, 100, 100], [100 * (1 + AGREEMENT_TOLERANCE)]).criterion).toBe('within-tolerance');
    expect(modelAgreement([100, 100, 100], [100 * (1 + AGREEMENT_TOLERANCE) + 1e-6]).criterion).toBeNull();
  });

  it('bimodal packet runs: inside the 95% interval agrees, and the verdict names the mode the model predicts', () => {
    const packet = [1.38e6, 1.5e6, 1.9e6, 5.6e6, 5.9e6, 6.0e6, 6.1e6, 6.17e6, 5.8e6, 1.7e6];
    const pi = medianInterval(packet);
    // median 5.7 Mbit/s, interval [x(2), x(9)] = [1.5, 6.1]: a model at 6.0 is within 10% and in the upper mode.
    const upper = modelAgreement(packet, [6.0e6]);
    expect(upper.criterion).toBe('within-tolerance');
    expect(upper.predictsMode).toBe('upper');
    // A model at 1.6 Mbit/s is 72% below the median but inside the interval and in the lower mode.
    const lower = modelAgreement(packet, [1.6e6]);
    expect(lower.error!).toBeLessThan(-0.5);
    expect(1.6e6).toBeGreaterThanOrEqual(pi.low);
    expect(lower.criterion).toBe('inside-bimodal-interval');
    expect(lower.predictsMode).toBe('lower');
    // Between the modes: inside the interval, predicts neither.
    const between = modelAgreement(packet, [3.5e6]);
    expect(between.criterion).toBe('inside-bimodal-interval');
    expect(between.predictsMode).toBeNull();
    // Outside the interval: disagrees even though the runs are bimodal.
    expect(modelAgreement(packet, [0.5e6]).agrees).toBe(false);
  });

  it('the interval criterion is only for bimodal runs', () => {
    const packet = [8, 9, 9.5, 10, 10, 10, 10.5, 11, 12, 14];
    const a = modelAgreement(packet, [11.5]);
    expect(a.error).toBeCloseTo(0.15, 12);
    expect(a.fluid.median).toBeLessThanOrEqual(a.packet.high);
    expect(a.fluid.median).toBeGreaterThanOrEqual(a.packet.low);
    expect(a.modes).toBeNull();
    expect(a.criterion).toBeNull();
  });

  it('failed runs (non-finite) are left out; no runs, no verdict', () => {
    expect(modelAgreement([10, NaN, 10], [11]).packet.n).toBe(2);
    const none = modelAgreement([10, 10], []);
    expect(none.error).toBeNull();
    expect(none.agrees).toBe(false);
  });
});
