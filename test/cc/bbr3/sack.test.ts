import { describe, expect, it } from 'vitest';
import type { Bbr3 } from '../../../src/cc/bbr3.js';
import { createCongestionControl, validateCcParams } from '../../../src/cc/registry.js';
import { buildPacketModel } from '../../../src/packet/run.js';
import { presetScenario } from '../../../src/scenario/presets.js';
import { makeTcb } from '../helpers.js';

describe("bbr3's C.has_selective_acks comes from the connection (TcpState.sackEnabled), not from a knob", () => {
  it('a bare TCB with SACK on or off sets the model context at init', () => {
    for (const sack of [true, false]) {
      const b = createCongestionControl('bbr3', {}, { seed: 1, flow: 0 }) as Bbr3;
      b.init!(makeTcb({ sackEnabled: sack }), 0);
      expect(b.model!.ctx.hasSelectiveAcks).toBe(sack);
    }
  });

  it("the sender's TCB says what tcp.sack negotiated; the old knob is refused", () => {
    for (const sack of [true, false]) {
      const s = presetScenario('ns3-normal', 'bbr3', { durationS: 0.1 });
      s.tcp.sack = sack;
      const m = buildPacketModel(s);
      m.sim.run(1e8);
      expect(m.senders[0]!.tcb.sackEnabled).toBe(sack);
      expect((m.senders[0]!.cc as Bbr3).model!.ctx.hasSelectiveAcks).toBe(sack);
    }
    expect(() => validateCcParams('bbr3', { hasSelectiveAcks: 0 })).toThrow(/hasSelectiveAcks/);
  });
});
