/**
 * The algorithms of the packet engine, keyed by variant id (Linux `tcp_cong.c` keeps a list with
 * `tcp_register_congestion_control`; ns-3 picks a TypeId by name). Every entry is checked when this
 * module loads, as Linux's `tcp_validate_congestion_control` rejects a table missing required ops:
 * a broken algorithm fails at import, not halfway through a sweep.
 */
import { InputError } from '../errors.js';
import { VARIANTS, type Variant } from '../variants.js';
import { bbr } from './bbr.js';
import { bbr3 } from './bbr3.js';
import { cubic } from './cubic.js';
import { dctcp } from './dctcp.js';
import { newreno } from './newreno.js';
import { reno } from './reno.js';
import { tahoe } from './tahoe.js';
import type { CcEnvironment, CongestionControl, CongestionControlFactory, ParamSpec } from './types.js';
import { westwood } from './westwood.js';

const RECOVERIES: readonly string[] = ['none', 'reno', 'newreno'];

/** Whole-number param units: a flag takes 0 or 1, a bitmask or count an integer in range. */
const INTEGER_UNITS: readonly string[] = ['flag', 'bitmask', 'segments', 'count'];

function checkValue(spec: ParamSpec, value: number): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a finite number, got ${String(value)}`;
  const range = `[${spec.min}, ${spec.max}]${spec.unit ? ` (${spec.unit})` : ''}`;
  if (INTEGER_UNITS.includes(spec.unit) && !Number.isInteger(value)) return `must be an integer in ${range}, got ${value}`;
  if (value < spec.min || value > spec.max) return `must be in ${range}, got ${value}`;
  return null;
}

/**
 * Check a factory the way Linux's `tcp_validate_congestion_control` checks an ops table: required
 * hooks present, a known recovery, and every param's default inside its range. Throws Error (a
 * programming error, not bad user input).
 */
export function validateFactory(key: string, factory: CongestionControlFactory): void {
  const where = `congestion control '${key}'`;
  if (factory.id !== key) throw new Error(`${where}: id is '${factory.id}'`);
  const names = new Set<string>();
  const defaults: Record<string, number> = {};
  for (const spec of factory.params) {
    if (names.has(spec.name)) throw new Error(`${where}: param '${spec.name}' declared twice`);
    names.add(spec.name);
    if (!(spec.min <= spec.max)) throw new Error(`${where}: param '${spec.name}' has min > max`);
    const problem = checkValue(spec, spec.default);
    if (problem) throw new Error(`${where}: default of '${spec.name}' ${problem}`);
    defaults[spec.name] = spec.default;
  }
  const cc: Partial<CongestionControl> = factory.create(defaults);
  if (typeof cc.ssthresh !== 'function') throw new Error(`${where}: missing required hook ssthresh`);
  if (typeof cc.increaseWindow !== 'function') throw new Error(`${where}: missing required hook increaseWindow`);
  for (const hook of ['init', 'onAck', 'onStateChange', 'congControl', 'onEcnAck', 'onPacketLost'] as const) {
    if (cc[hook] !== undefined && typeof cc[hook] !== 'function') throw new Error(`${where}: ${hook} is not a function`);
  }
  // The lost-segment hook reads the send-time state only the delivery-rate sampler records (Linux
  // keeps it in every skb's tx fields; here only rate-based flows pay for it).
  if (cc.onPacketLost !== undefined && cc.congControl === undefined) throw new Error(`${where}: onPacketLost needs congControl`);
  if (cc.id !== key) throw new Error(`${where}: instances report id '${String(cc.id)}'`);
  if (!RECOVERIES.includes(cc.recovery as string)) throw new Error(`${where}: unknown recovery '${String(cc.recovery)}'`);
}

function register(table: Record<Variant, CongestionControlFactory>): Record<Variant, CongestionControlFactory> {
  for (const key of Object.keys(table)) validateFactory(key, table[key as Variant]);
  return Object.freeze(table);
}

/** Every variant's algorithm. Keys equal VARIANTS (a test checks it). */
export const CONGESTION_CONTROLS: Readonly<Record<Variant, CongestionControlFactory>> = register({
  tahoe,
  reno,
  newreno,
  westwood,
  cubic,
  dctcp,
  bbr,
  bbr3,
});

/** The factory for a variant; throws InputError for an unknown id (e.g. from a JSON scenario). */
export function getCongestionControl(id: Variant): CongestionControlFactory {
  // Own keys only: an id such as 'constructor' (from a hand-written file) must not find Object's.
  const factory = Object.hasOwn(CONGESTION_CONTROLS, id) ? (CONGESTION_CONTROLS as Record<string, CongestionControlFactory>)[id] : undefined;
  if (!factory) throw new InputError('variant', `must be one of ${VARIANTS.join(', ')}, got ${String(id)}`);
  return factory;
}

/**
 * Fill defaults into `params` and check them against the variant's ParamSpecs.
 *
 * @param field dotted path used in error messages (default `ccParams`).
 * @returns a new object with every param of the variant, user values over defaults.
 * @throws InputError naming the param and the accepted range, for unknown names or bad values.
 */
export function validateCcParams(
  id: Variant,
  params: Readonly<Record<string, number>> = {},
  field = 'ccParams',
): Record<string, number> {
  const factory = getCongestionControl(id);
  const specs = new Map(factory.params.map((p) => [p.name, p]));
  for (const name of Object.keys(params)) {
    if (!specs.has(name)) {
      const accepted = factory.params.length ? factory.params.map((p) => p.name).join(', ') : 'none';
      throw new InputError(`${field}.${name}`, `is not a parameter of ${id} (accepted: ${accepted})`);
    }
  }
  const entries: [string, number][] = [];
  for (const spec of factory.params) {
    const value = params[spec.name] ?? spec.default;
    const problem = checkValue(spec, value);
    if (problem) throw new InputError(`${field}.${spec.name}`, problem);
    entries.push([spec.name, value]);
  }
  // Built in one go, not by `out[name] = value`: V8 turns an object that gets more than ~12 properties
  // through keyed stores into a hash table (dictionary mode), and the algorithms read these params on
  // every ACK (BBR's 24, BBRv3's 28: each `p.name` a hash lookup). Object.fromEntries keeps fast
  // properties and one hidden class per variant's key order.
  return Object.fromEntries(entries);
}

/** Validate params and build a per-flow instance: what the packet engine calls once per flow. */
export function createCongestionControl(id: Variant, params: Readonly<Record<string, number>> = {}, env?: CcEnvironment): CongestionControl {
  return getCongestionControl(id).create(validateCcParams(id, params), env);
}
