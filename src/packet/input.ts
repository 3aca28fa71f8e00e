import assert from 'node:assert/strict';
import type { LinkSpec, Scenario } from '../scenario/types.js';

/**
 * The preconditions the packet engine relies on so that it cannot loop forever, divide by zero or
 * allocate a negative buffer. They hold for every scenario validateScenario (src/scenario/check/validate.ts)
 * accepts, the one user-facing check with the friendly messages: a failure here is a bug in a caller
 * that skipped it (an AssertionError, exit 1), never bad input. Queues hold at least one packet, as
 * the schema says.
 */
export function checkEngineInput(s: Scenario): void {
  const holds = (ok: boolean, field: string, rule: string, got: unknown): void =>
    assert.ok(ok, `packet engine: ${field} must be ${rule}, got ${String(got)} (the scenario skipped validateScenario)`);
  const positive = (v: number, field: string): void => holds(v > 0 && Number.isFinite(v), field, 'a positive finite number', v);
  const link = (l: LinkSpec, field: string): void => {
    positive(l.bandwidthBps, `${field}.bandwidthBps`);
    holds(l.delayS >= 0, `${field}.delayS`, '>= 0', l.delayS);
    holds(Number.isInteger(l.queuePackets) && l.queuePackets >= 1, `${field}.queuePackets`, 'a whole number >= 1', l.queuePackets);
  };
  positive(s.durationS, 'durationS');
  positive(s.mssBytes, 'mssBytes');
  holds(s.headerBytes >= 0, 'headerBytes', '>= 0', s.headerBytes);
  holds(s.measureFromS >= 0 && s.measureFromS < s.durationS, 'measureFromS', 'in [0, durationS)', s.measureFromS);
  positive(s.bottleneck.bandwidthBps, 'bottleneck.bandwidthBps');
  holds(s.bottleneck.delayS >= 0, 'bottleneck.delayS', '>= 0', s.bottleneck.delayS);
  const q = s.bottleneck.queue.limitPackets;
  holds(Number.isInteger(q) && q >= 1, 'bottleneck.queue.limitPackets', 'a whole number >= 1', q);
  const rate = s.bottleneck.loss.rate;
  holds(rate >= 0 && rate < 1, 'bottleneck.loss.rate', 'in [0, 1)', rate);
  holds(s.flows.length > 0, 'flows', 'a non-empty list', s.flows.length);
  s.flows.forEach((f, i) => {
    link(f.access, `flows[${i}].access`);
    if (f.receiverAccess !== null) link(f.receiverAccess, `flows[${i}].receiverAccess`);
    holds(f.startS >= 0, `flows[${i}].startS`, '>= 0', f.startS);
  });
  holds(s.tcp.delAckCount >= 1, 'tcp.delAckCount', '>= 1', s.tcp.delAckCount);
  positive(s.tcp.rcvBufBytes, 'tcp.rcvBufBytes');
  holds(s.trace.maxPoints >= 4, 'trace.maxPoints', '>= 4', s.trace.maxPoints);
}
