import { defaultTcp } from '../../src/scenario/presets.js';
import type { Scenario } from '../../src/scenario/types.js';
import type { Variant } from '../../src/variants.js';

export interface LineOptions {
  variant?: Variant;
  bottleneckBps?: number;
  bottleneckDelayS?: number;
  accessBps?: number;
  accessDelayS?: number;
  queuePackets?: number;
  lossRate?: number;
  lossDirection?: 'data' | 'both';
  durationS?: number;
  measureFromS?: number;
  seed?: number;
  delAckCount?: number;
  flows?: number;
  receiverAccess?: boolean;
  maxPoints?: number;
}

/** A one-bottleneck scenario with Ethernet-sized segments (MSS 1448, 52 B headers). */
export function line(o: LineOptions = {}): Scenario {
  const access = { bandwidthBps: o.accessBps ?? 1e9, delayS: o.accessDelayS ?? 0.001, queuePackets: o.queuePackets ?? 1000 };
  const n = o.flows ?? 1;
  return {
    name: 'test-line',
    variant: o.variant ?? 'reno',
    durationS: o.durationS ?? 10,
    measureFromS: o.measureFromS ?? 0,
    seed: o.seed ?? 1,
    mssBytes: 1448,
    headerBytes: 52,
    bottleneck: {
      bandwidthBps: o.bottleneckBps ?? 10e6,
      delayS: o.bottleneckDelayS ?? 0.01,
      queue: { kind: 'droptail', limitPackets: o.queuePackets ?? 1000 },
      loss: { rate: o.lossRate ?? 0, direction: o.lossDirection ?? 'data' },
    },
    flows: Array.from({ length: n }, (_, i) => ({
      access: { ...access, delayS: access.delayS * (i + 1) },
      receiverAccess: o.receiverAccess ? { ...access } : null,
      startS: 0,
      stopS: null,
      bytes: null,
    })),
    tcp: { ...defaultTcp(), delAckCount: o.delAckCount ?? 2 },
    ccParams: {},
    trace: { maxPoints: o.maxPoints ?? 2000 },
  };
}

/** Value of a step-function series at time tS (last point at or before tS). */
export function valueAt(series: { t: number[]; v: number[] }, tS: number): number {
  let v = NaN;
  for (let i = 0; i < series.t.length && series.t[i]! <= tS; i++) v = series.v[i]!;
  return v;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
