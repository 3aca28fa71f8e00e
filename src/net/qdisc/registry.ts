/**
 * The queue disciplines, keyed by `queue.kind` (Linux registers Qdisc_ops by id with
 * register_qdisc; ns-3 picks a QueueDisc TypeId by name). Every entry is checked when this module
 * loads, as src/cc/registry.ts checks the congestion controls: a broken table fails at import.
 * The scenario schema's `queue` union is built from this table, so a new discipline needs no
 * schema edit and an unknown kind is refused with the list of known ones.
 */
import { InputError } from '../../errors.js';
import type { Schema } from '../../scenario/schema.js';
import { codel } from './codel.js';
import { droptail } from './droptail.js';
import { fqCodel } from './fq-codel.js';
import { pie } from './pie.js';
import { policer } from './policer.js';
import { red } from './red.js';
import { step } from './step.js';
import type { QdiscContext, QdiscParams, QdiscParamSpec, QueueDisc, QueueDiscFactory } from './types.js';

/** Largest packet limit of any queue (the schema's range). */
export const MAX_LIMIT_PACKETS = 1e7;

function numberSchema(spec: Extract<QdiscParamSpec, { min: number }>): Schema {
  return { kind: 'number', min: spec.min, max: spec.max, minExclusive: spec.minExclusive, maxExclusive: spec.maxExclusive, integer: spec.integer };
}

function isFlag(spec: QdiscParamSpec): spec is Extract<QdiscParamSpec, { boolean: true }> {
  return 'boolean' in spec;
}

/** Programming errors in a table (not user input): duplicate names, defaults outside their range, missing hooks. */
export function validateQueueDiscFactory(key: string, f: QueueDiscFactory): void {
  const where = `queue discipline '${key}'`;
  if (f.kind !== key) throw new Error(`${where}: kind is '${f.kind}'`);
  const names = new Set<string>(['kind', 'limitPackets']);
  for (const spec of f.params) {
    if (names.has(spec.name)) throw new Error(`${where}: param '${spec.name}' declared twice or reserved`);
    names.add(spec.name);
    if (isFlag(spec)) continue;
    if (!(spec.min <= spec.max)) throw new Error(`${where}: param '${spec.name}' has min > max`);
    const d = spec.default;
    const inRange = (spec.minExclusive ? d > spec.min : d >= spec.min) && (spec.maxExclusive ? d < spec.max : d <= spec.max);
    if (!inRange || (spec.integer && !Number.isInteger(d))) throw new Error(`${where}: default of '${spec.name}' is outside its range`);
  }
  const defaults = defaultParams(f);
  if (f.check?.(defaults, MAX_LIMIT_PACKETS) ?? null) throw new Error(`${where}: its defaults fail its own check`);
  const stub = { pool: null, bandwidthBps: 1e6, typicalTxNs: 1, uniform: () => 0.5, dropHeld: () => undefined } as unknown as QdiscContext;
  const disc: Partial<QueueDisc> = f.create(100, defaults, stub);
  if (disc.kind !== key) throw new Error(`${where}: instances report kind '${String(disc.kind)}'`);
  if (disc.holdsPackets !== f.holdsPackets) throw new Error(`${where}: instances disagree on holdsPackets`);
  if (typeof disc.enqueue !== 'function') throw new Error(`${where}: missing enqueue`);
  // The link asks a discipline that holds its packets for the next one; a FIFO one it never asks.
  if (f.holdsPackets && typeof disc.dequeue !== 'function') throw new Error(`${where}: holds packets but has no dequeue`);
}

function defaultParams(f: QueueDiscFactory): Record<string, number | boolean> {
  return Object.fromEntries(f.params.map((p) => [p.name, p.default]));
}

function register(table: Record<string, QueueDiscFactory>): Readonly<Record<string, QueueDiscFactory>> {
  for (const key of Object.keys(table)) validateQueueDiscFactory(key, table[key]!);
  return Object.freeze(table);
}

/** Every discipline, in the order the docs and error messages list them. */
export const QUEUE_DISCS: Readonly<Record<string, QueueDiscFactory>> = register({ droptail, red, codel, fq_codel: fqCodel, pie, policer, step });

export const QUEUE_KINDS: readonly string[] = Object.keys(QUEUE_DISCS);

/** The factory of a kind; throws InputError listing the known kinds. */
export function getQueueDisc(kind: string, field = 'bottleneck.queue.kind'): QueueDiscFactory {
  const f = Object.hasOwn(QUEUE_DISCS, kind) ? QUEUE_DISCS[kind] : undefined;
  if (!f) throw new InputError(field, `must be one of ${QUEUE_KINDS.join(', ')}, got '${kind}'`);
  return f;
}

/** The scenario schema of `bottleneck.queue`: one object per kind, its parameters optional (defaults from the table). */
export function queueSchema(): Schema {
  const variants: Record<string, Schema & { kind: 'object' }> = {};
  for (const [kind, f] of Object.entries(QUEUE_DISCS)) {
    const fields: Record<string, Schema> = {
      kind: { kind: 'enum', values: [kind] },
      limitPackets: { kind: 'number', min: 1, max: MAX_LIMIT_PACKETS, integer: true },
    };
    for (const spec of f.params) fields[spec.name] = isFlag(spec) ? { kind: 'boolean' } : numberSchema(spec);
    variants[kind] = { kind: 'object', fields, optional: f.params.map((p) => p.name) };
  }
  return { kind: 'union', tag: 'kind', variants };
}

/** A queue spec as written (kind, limitPackets, any of its parameters). */
export interface QueueSpecLike {
  kind: string;
  limitPackets: number;
  [param: string]: unknown;
}

/**
 * Every parameter of the spec's discipline, the spec's values over the defaults (the spec is not
 * changed: like ccParams, a scenario keeps what the user wrote). Assumes a spec that passed the schema.
 */
export function queueParams(q: QueueSpecLike): Record<string, number | boolean> {
  const f = getQueueDisc(q.kind);
  const out = defaultParams(f);
  for (const spec of f.params) if (q[spec.name] !== undefined) out[spec.name] = q[spec.name] as number | boolean;
  return out;
}

/** The relations between a spec's parameters (after the schema): throws InputError naming the field. */
export function checkQueueSpec(q: QueueSpecLike, field = 'bottleneck.queue', source?: string): void {
  const problem = getQueueDisc(q.kind, `${field}.kind`).check?.(queueParams(q), q.limitPackets) ?? null;
  if (problem) throw new InputError(`${field}.${problem[0]}`, problem[1], source);
}

/** A discipline instance for one link. */
export function createQueueDisc(q: QueueSpecLike, ctx: QdiscContext): QueueDisc {
  return getQueueDisc(q.kind).create(q.limitPackets, queueParams(q), ctx);
}
