import type { ParamSpec } from './types.js';

/**
 * A variant's parameters as one object per distinct set of values, shared by every flow that uses
 * them: the rate-based algorithms read a dozen of them on every ACK (BBR, BBRv3), and with 100 flows a
 * copy per flow is 100 objects whose properties (boxed doubles) miss the cache on each flow's ACK; one
 * shared object stays cached. Built in one go (Object.fromEntries) so that V8 keeps fast properties:
 * an object given more than ~12 properties by keyed stores (`out[name] = v`) becomes a hash table.
 * The objects are read-only by contract (the algorithms never write their params).
 */
const byTable = new WeakMap<readonly ParamSpec[], Map<string, Readonly<Record<string, number>>>>();
/** Distinct value sets kept per table before the memo starts over (a long sweep over a parameter). */
const MAX_KEPT = 256;

/** `specs`' names, each with params' value or its default, as a shared object. */
export function sharedParams(specs: readonly ParamSpec[], params: Readonly<Record<string, number>>): Readonly<Record<string, number>> {
  let memo = byTable.get(specs);
  if (memo === undefined) byTable.set(specs, (memo = new Map()));
  const values = specs.map((s) => params[s.name] ?? s.default);
  // String(v) is exact for doubles; -0 is kept apart from 0.
  const key = values.map((v) => (Object.is(v, -0) ? '-0' : String(v))).join(',');
  let p = memo.get(key);
  if (p === undefined) {
    if (memo.size >= MAX_KEPT) memo.clear();
    p = Object.fromEntries(specs.map((s, i) => [s.name, values[i]!]));
    memo.set(key, p);
  }
  return p;
}
