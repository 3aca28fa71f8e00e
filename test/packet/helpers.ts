import { expect } from 'vitest';
import { checkQueueAccounting } from '../../src/packet/invariants.js';
import { buildPacketModel, type PacketModel, type RunOptions } from '../../src/packet/run.js';
import { buildResult } from '../../src/packet/result.js';
import { secondsToNs } from '../../src/engine/simulator.js';
import type { RunResult } from '../../src/result/types.js';
import type { Scenario } from '../../src/scenario/types.js';

export { line, valueAt, median, type LineOptions } from './scenarios.js';

/**
 * Conservation of data, per flow, in payload bytes, at the end of a run:
 *   bytes sent (all transmissions) = bytes that reached the receiver (duplicates included)
 *                                   + bytes dropped (queues + random loss) + bytes still in the network,
 * and the receiver's in-order delivery never exceeds what was sent.
 */
export function expectConservation(m: PacketModel): void {
  m.senders.forEach((s, i) => {
    const r = m.receivers[i]!;
    const c = m.net.counters[i]!;
    expect(s.bytesSent).toBe(r.arrivedBytes + c.queueDropBytes + c.randomDropBytes + c.dataBytesInNetwork);
    expect(c.dataBytesInNetwork).toBeGreaterThanOrEqual(0);
    expect(r.deliveredBytes).toBe(r.rcvNxt);
    expect(r.rcvNxt).toBeLessThanOrEqual(s.highTx);
    expect(s.sndUna).toBeLessThanOrEqual(r.rcvNxt);
  });
  // Every live packet is data or an ACK of some flow still in the network.
  const inNetwork = m.net.counters.reduce((a, c) => a + c.dataSegmentsInNetwork, 0);
  expect(m.net.pool.live).toBeGreaterThanOrEqual(inNetwork);
  // Per link: offered = dropped + sent + held, drops by reason = the link's, marks on admitted packets.
  checkQueueAccounting(m.net);
}

/** Runs a scenario, checks conservation, returns the model and the result. */
export function simulate(s: Scenario, options: RunOptions = {}): { model: PacketModel; result: RunResult } {
  const model = buildPacketModel(s, options);
  model.sim.run(secondsToNs(s.durationS));
  expectConservation(model);
  return { model, result: buildResult(s, model, 0) };
}

