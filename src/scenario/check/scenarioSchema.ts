import { queueSchema } from '../../net/qdisc/registry.js';
import { VARIANTS } from '../../variants.js';
import { PROFILES } from '../profiles.js';
import { int, num, type Schema } from '../schema.js';

/** Most flows a scenario may have (files, `--flows`, sweep axes): checked before anything is allocated. */
export const MAX_FLOWS = 10_000;

/** Most steps `bottleneck.rateChanges` may list. */
export const MAX_RATE_CHANGES = 10_000;

/** Accepted ranges of every Scenario field. Wide enough for research, narrow enough to catch typos. */
const link: Schema = {
  kind: 'object',
  fields: {
    bandwidthBps: num(0, 1e13, { minExclusive: true }),
    delayS: num(0, 10),
    queuePackets: int(1, 1e7),
  },
};

/** `bottleneck.queue`: one variant per registered discipline (src/net/qdisc/registry.ts). */
const queue: Schema = queueSchema();

export const SCENARIO_SCHEMA: Schema = {
  kind: 'object',
  fields: {
    name: { kind: 'string' },
    variant: { kind: 'enum', values: VARIANTS },
    durationS: num(0, 1e6, { minExclusive: true }),
    measureFromS: num(0, 1e6),
    seed: int(0, 2 ** 32 - 1),
    mssBytes: int(1, 65_495),
    headerBytes: int(0, 1000),
    bottleneck: {
      kind: 'object',
      fields: {
        bandwidthBps: num(0, 1e13, { minExclusive: true }),
        delayS: num(0, 10),
        queue,
        loss: {
          kind: 'object',
          fields: { rate: num(0, 1, { maxExclusive: true }), direction: { kind: 'enum', values: ['data', 'both'] }, ackStream: { kind: 'enum', values: ['shared', 'own'] } },
          optional: ['ackStream'],
        },
        rateChanges: {
          kind: 'array',
          minItems: 0,
          maxItems: MAX_RATE_CHANGES,
          items: { kind: 'object', fields: { atS: num(0, 1e6), bandwidthBps: num(0, 1e13, { minExclusive: true }) } },
        },
      },
      optional: ['rateChanges'],
    },
    flows: {
      kind: 'array',
      minItems: 1,
      maxItems: MAX_FLOWS,
      items: {
        kind: 'object',
        fields: {
          access: link,
          receiverAccess: { ...(link as Extract<Schema, { kind: 'object' }>), nullable: true },
          startS: num(0, 1e6),
          stopS: num(0, 1e6, { nullable: true }),
          bytes: int(1, Number.MAX_SAFE_INTEGER, { nullable: true }),
          variant: { kind: 'enum', values: VARIANTS },
          ccParams: { kind: 'record', value: num(-1e12, 1e12) },
        },
        optional: ['variant', 'ccParams'],
      },
    },
    tcp: {
      kind: 'object',
      fields: {
        initialCwndSegments: int(1, 1e6),
        initialSsthreshBytes: num(0, 1e15, { minExclusive: true, nullable: true }),
        minRtoS: num(0, 600, { minExclusive: true }),
        maxRtoS: num(0, 3600, { minExclusive: true }),
        clockGranularityS: num(0, 1, { minExclusive: true }),
        delAckCount: int(1, 64),
        delAckTimeoutS: num(0, 10, { minExclusive: true }),
        rcvBufBytes: int(1, 2 ** 40),
        dupAckThreshold: int(1, 100),
        sack: { kind: 'boolean' },
        recovery: { kind: 'enum', values: ['classic', 'prr'] },
        profile: { kind: 'enum', values: PROFILES },
        initialWindow: { kind: 'enum', values: ['rfc6928', 'segments'] },
        rtoBackoffReset: { kind: 'enum', values: ['newAck', 'rttSample'] },
        sackSsthreshInput: { kind: 'enum', values: ['pipe', 'flightSize'] },
        recoverCheck: { kind: 'enum', values: ['above', 'atLeast'] },
        rescueRetransmission: { kind: 'boolean' },
        sackPartialAckTimer: { kind: 'enum', values: ['every', 'first'] },
        sackAdvanceAck: { kind: 'enum', values: ['newAck', 'dupAck'] },
        rttSamples: { kind: 'enum', values: ['karn', 'timestamps'] },
        sackRecoveryStart: { kind: 'enum', values: ['anyAck', 'dupAck'] },
        handshakeRtt: { kind: 'boolean' },
        nagle: { kind: 'enum', values: ['classic', 'minshall', 'off'] },
        pacing: { kind: 'boolean' },
        ecn: { kind: 'boolean' },
      },
      optional: ['profile', 'initialWindow', 'rtoBackoffReset', 'sackSsthreshInput', 'recoverCheck', 'rescueRetransmission', 'sackPartialAckTimer', 'sackAdvanceAck', 'rttSamples', 'sackRecoveryStart', 'handshakeRtt', 'nagle', 'pacing', 'ecn'],
    },
    ccParams: { kind: 'record', value: num(-1e12, 1e12) },
    // Keys are checked against VARIANTS and each entry against its variant's knobs by validateScenario.
    ccDefaults: { kind: 'record', value: { kind: 'record', value: num(-1e12, 1e12) } },
    trace: { kind: 'object', fields: { maxPoints: int(10, 10_000_000) } },
  },
  optional: ['ccDefaults'],
};
