import { describe, expect, it } from 'vitest';
import type { Bbr3 } from '../../../src/cc/bbr3.js';
import { bbr3Config } from '../../../src/cc/bbr3/params.js';
import { createCongestionControl } from '../../../src/cc/registry.js';
import type { LostSegment } from '../../../src/cc/types.js';
import { secondsToNs } from '../../../src/engine/simulator.js';
import { buildPacketModel } from '../../../src/packet/run.js';
import { applyBufferBdp, applyRtt } from '../../../src/runs/scenarioAxes.js';
import { dumbbellScenario } from '../../../src/scenario/defaults.js';

/**
 * BBRv3's per-lost-packet path in a packet run (draft-ietf-ccwg-bbr HandleLostPacket /
 * InflightAtLoss; Google v3 bbr_skb_marked_lost / bbr_inflight_hi_from_lost_skb): one flow, 50 Mbit/s,
 * 40 ms, a 0.2-BDP drop-tail buffer, so the first ProbeBW_UP after STARTUP overflows it.
 */
const LOSS_THRESH = bbr3Config({}).lossThresh;

interface Call {
  tS: number;
  p: LostSegment;
  probing: boolean;
  modeBefore: string;
  hiBefore: number;
  hiAfter: number;
  modeAfter: string;
}

function run(): { calls: Call[]; ackCuts: { tS: number; mode: string; from: number; to: number }[] } {
  const s = dumbbellScenario('bbr3', 1);
  s.bottleneck.bandwidthBps = 50e6;
  applyRtt(s, 0.04);
  applyBufferBdp(s, 0.2);
  s.durationS = 4;
  let b: Bbr3 | null = null;
  const m = buildPacketModel(s, { makeCc: (i) => (b = createCongestionControl('bbr3', {}, { seed: 1, flow: i }) as Bbr3) });
  const cc = b! as Bbr3;
  const calls: Call[] = [];
  const ackCuts: { tS: number; mode: string; from: number; to: number }[] = [];
  const lost = cc.onPacketLost.bind(cc);
  cc.onPacketLost = (tcb, p, conn, nowS) => {
    const st = cc.model!.state;
    const c = { tS: nowS, p: { ...p }, probing: st.isBwProbeSample, modeBefore: st.mode, hiBefore: st.inflightLongtermBytes };
    lost(tcb, p, conn, nowS);
    calls.push({ ...c, hiAfter: st.inflightLongtermBytes, modeAfter: st.mode });
  };
  const control = cc.congControl.bind(cc);
  cc.congControl = (tcb, rs, conn) => {
    const st = cc.model!.state;
    const from = st.inflightLongtermBytes;
    const mode = st.mode;
    control(tcb, rs, conn);
    if (st.inflightLongtermBytes < from) ackCuts.push({ tS: rs.nowS, mode, from, to: st.inflightLongtermBytes });
  };
  m.sim.run(secondsToNs(s.durationS));
  return { calls, ackCuts };
}

describe('bbr3 in a packet run: the sender reports each lost segment (draft HandleLostPacket)', () => {
  const { calls, ackCuts } = run();
  const tooHigh = (p: LostSegment): boolean => p.lostSinceTxBytes > LOSS_THRESH * p.txInFlightBytes;

  it('the hook runs for every loss, with a send-time flight that holds the segment and a loss count that holds it', () => {
    expect(calls.length).toBeGreaterThan(10);
    for (const c of calls) {
      expect(c.p.txInFlightBytes).toBeGreaterThanOrEqual(c.p.sizeBytes);
      expect(c.p.lostSinceTxBytes).toBeGreaterThanOrEqual(c.p.sizeBytes);
    }
  });

  it('a ProbeBW_UP that overflows the buffer: the first lost packet past 2% sets inflight_hi to InflightAtLoss and ends UP at once', () => {
    const cut = calls.find((c) => c.modeBefore === 'probe_bw_up' && c.hiAfter !== c.hiBefore);
    expect(cut).toBeDefined();
    const { p } = cut!;
    // No earlier lost packet of this probe crossed the threshold (else it would have cut).
    const probeStart = calls.filter((c) => c.probing && c.tS <= cut!.tS && c !== cut);
    expect(probeStart.filter((c) => c.modeBefore === 'probe_bw_up' && tooHigh(c.p))).toEqual([]);
    expect(tooHigh(p)).toBe(true);
    // Draft InflightAtLoss: (lost_prev + x) / (inflight_prev + x) = LossThresh for the lost prefix x.
    const inflightPrev = p.txInFlightBytes - p.sizeBytes;
    const lostPrev = p.lostSinceTxBytes - p.sizeBytes;
    const x = Math.max(0, (LOSS_THRESH * inflightPrev - lostPrev) / (1 - LOSS_THRESH));
    expect(x).toBeLessThan(p.sizeBytes);
    // HandleInflightTooHigh: max(InflightAtLoss, Beta x TargetInflight); here the loss point is the larger.
    expect(cut!.hiAfter).toBeCloseTo(inflightPrev + x, 6);
    expect(cut!.hiAfter).toBeLessThan(cut!.hiBefore);
    expect(cut!.modeAfter).toBe('probe_bw_down');
  });

  it("after STARTUP the ACK's own sample never cuts inflight_hi: the cut came from the lost packet, not one ACK later", () => {
    expect(ackCuts.filter((c) => c.mode !== 'startup' && c.mode !== 'drain')).toEqual([]);
  });
});
