import { describe, expect, it } from 'vitest';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { runPacket } from '../../src/packet/run.js';
import { together } from './together.js';

/** Mixed variants in the fluid engine (flows.test.ts) against the packet engine: an agreement suite (npm test only). */
describe('fluid engine, mixed variants, against the packet engine', () => {
  it('CUBIC vs Reno at 10 ms RTT (Reno-friendly region): the fluid share within 5 points of the packet engine\'s', () => {
    const share = (r: { flows: { summary: { goodputBps: number } }[]; summary: { goodputBps: number } }): number => r.flows[0]!.summary.goodputBps / r.summary.goodputBps;
    // CUBIC's beta = 0.7 cut with its Reno-equivalent increase keeps it a little ahead on synchronised
    // drop-tail losses. The packet engine (no random loss, so one run is the answer) gives CUBIC 57.2%
    // here (fluid 58.5%); the fluid model must agree with it, not with an idealised 50%.
    const s = together(['cubic', 'reno'], 0.01, 60);
    const packet = runPacket(s);
    expect(share(packet)).toBeGreaterThan(0.5);
    expect(share(packet)).toBeLessThan(0.6);
    expect(Math.abs(share(runFluid(s)) - share(packet))).toBeLessThan(0.05);
  });
});
