import { InputError } from '../errors.js';
import type { LinkSpec, Scenario } from '../scenario/types.js';

/**
 * The few checks the engine itself needs so that it cannot loop forever or divide by zero.
 * Full validation with friendly messages happens at the input boundary (src/scenario/validate.ts).
 */
export function checkEngineInput(s: Scenario): void {
  const positive = (v: number, field: string): void => {
    if (!(v > 0) || !Number.isFinite(v)) throw new InputError(field, `must be a positive finite number, got ${v}`);
  };
  const link = (l: LinkSpec, field: string): void => {
    positive(l.bandwidthBps, `${field}.bandwidthBps`);
    if (!(l.delayS >= 0)) throw new InputError(`${field}.delayS`, `must be >= 0, got ${l.delayS}`);
    if (!(l.queuePackets >= 0) || !Number.isInteger(l.queuePackets)) {
      throw new InputError(`${field}.queuePackets`, `must be a whole number >= 0, got ${l.queuePackets}`);
    }
  };
  positive(s.durationS, 'durationS');
  positive(s.mssBytes, 'mssBytes');
  if (!(s.headerBytes >= 0)) throw new InputError('headerBytes', `must be >= 0, got ${s.headerBytes}`);
  if (!(s.measureFromS >= 0 && s.measureFromS < s.durationS)) {
    throw new InputError('measureFromS', `must be in [0, durationS), got ${s.measureFromS}`);
  }
  positive(s.bottleneck.bandwidthBps, 'bottleneck.bandwidthBps');
  if (!(s.bottleneck.delayS >= 0)) throw new InputError('bottleneck.delayS', `must be >= 0, got ${s.bottleneck.delayS}`);
  const rate = s.bottleneck.loss.rate;
  if (!(rate >= 0 && rate < 1)) throw new InputError('bottleneck.loss.rate', `must be in [0, 1), got ${rate}`);
  if (s.flows.length === 0) throw new InputError('flows', 'must have at least one flow');
  s.flows.forEach((f, i) => {
    link(f.access, `flows[${i}].access`);
    if (f.receiverAccess !== null) link(f.receiverAccess, `flows[${i}].receiverAccess`);
    if (!(f.startS >= 0)) throw new InputError(`flows[${i}].startS`, `must be >= 0, got ${f.startS}`);
  });
  if (!(s.tcp.delAckCount >= 1)) throw new InputError('tcp.delAckCount', `must be >= 1, got ${s.tcp.delAckCount}`);
  positive(s.tcp.rcvBufBytes, 'tcp.rcvBufBytes');
  if (!(s.trace.maxPoints >= 4)) throw new InputError('trace.maxPoints', `must be >= 4, got ${s.trace.maxPoints}`);
}
