import { describe, expect, it } from 'vitest';
import type { Dumbbell } from '../../src/net/dumbbell.js';
import { InvariantError, InvariantMonitor } from '../../src/packet/invariants.js';
import type { TcpSender } from '../../src/tcp/sender.js';

/**
 * The pacing invariant (InvariantMonitor.pacedDeparture): any 10 consecutive departures of a flow
 * span at least the pacing slots (len x 8 / rate, ceil to ns) of their first 9. Driven directly, so
 * that a departure one ns too early must be caught wherever it falls in the ring of 10.
 */
const MSS = 1448;
const RATE_BPS = 10e6;
const SLOT_NS = Math.ceil((MSS * 8e9) / RATE_BPS); // 1,158,400 ns

function sender(flow: number): TcpSender {
  return { flow, nowS: 0 } as unknown as TcpSender;
}

function monitor(): InvariantMonitor {
  return new InvariantMonitor([], null as unknown as Dumbbell);
}

describe('pacing invariant', () => {
  it('accepts departures exactly one slot apart, for many windows and two flows interleaved', () => {
    const m = monitor();
    for (let i = 0; i < 95; i++) {
      m.pacedDeparture(sender(0), i * SLOT_NS, MSS, RATE_BPS);
      m.pacedDeparture(sender(3), 5 + i * SLOT_NS, MSS, RATE_BPS);
    }
  });

  it.each([9, 10, 14, 23, 40])('rejects departure %i arriving 1 ns before the 9 slots before it allow', (late) => {
    const m = monitor();
    for (let i = 0; i < late; i++) m.pacedDeparture(sender(0), i * SLOT_NS, MSS, RATE_BPS);
    const earliest = (late - 9) * SLOT_NS + 9 * SLOT_NS;
    expect(() => m.pacedDeparture(sender(0), earliest - 1, MSS, RATE_BPS)).toThrow(InvariantError);
    expect(() => m.pacedDeparture(sender(0), earliest - 1, MSS, RATE_BPS)).toThrow(/their pacing slots need 10425600 ns/);
  });

  it('sums the slots of each departure at its own rate: a slower departure widens the next 9 windows only', () => {
    const m = monitor();
    // Departure 0 at a quarter of the rate: its slot is 4 x SLOT_NS, the window 0..9 needs 12 slots.
    m.pacedDeparture(sender(0), 0, MSS, RATE_BPS / 4);
    for (let i = 1; i < 9; i++) m.pacedDeparture(sender(0), (3 + i) * SLOT_NS, MSS, RATE_BPS);
    expect(() => m.pacedDeparture(sender(0), 12 * SLOT_NS - 1, MSS, RATE_BPS)).toThrow(InvariantError);
    const ok = monitor();
    ok.pacedDeparture(sender(0), 0, MSS, RATE_BPS / 4);
    for (let i = 1; i < 10; i++) ok.pacedDeparture(sender(0), (3 + i) * SLOT_NS, MSS, RATE_BPS);
    // The slow slot has left the window of departures 1..10: one slot apart is enough again.
    ok.pacedDeparture(sender(0), 13 * SLOT_NS, MSS, RATE_BPS);
  });
});
