import { describe, expect, it } from 'vitest';
import { RttSampler } from '../../src/tcp/rtt-sampler.js';

describe('RttSampler (Karn via ns-3 RTT history)', () => {
  const mss = 100;

  it('an ACK covering the oldest outstanding segment yields a sample; a duplicate ACK does not', () => {
    const r = new RttSampler();
    expect(r.eligible(0, 100, 1000, mss)).toBe(true);
    expect(r.eligible(0, 0, 1000, mss)).toBe(false);
    expect(r.eligible(0, 50, 1000, mss)).toBe(false);
  });

  it("Karn's rule: no sample when the oldest segment was retransmitted, even if the ACK covers more", () => {
    const r = new RttSampler();
    r.markRetransmitted(0, 100);
    expect(r.eligible(0, 500, 1000, mss)).toBe(false);
    r.acked(500);
    expect(r.eligible(500, 600, 1000, mss)).toBe(true);
  });

  it('after a timeout, only segments first sent after it give samples', () => {
    const r = new RttSampler();
    r.onTimeout(1000);
    expect(r.eligible(0, 900, 1000, mss)).toBe(false);
    expect(r.eligible(900, 1000, 1000, mss)).toBe(false);
    expect(r.eligible(1000, 1100, 1200, mss)).toBe(true);
  });
});
