import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { VARIANTS } from '../../src/variants.js';

/**
 * Generators of bad and good input for the fuzz suite. Each generated case carries what a correct
 * CLI must do with it (`expect`): 'refuse' (exit 2 naming a field) when the generator knows the
 * input is invalid, 'either' when validity depends on relations it does not model.
 */

/** Fixed seed: the suite is deterministic (same inputs on every run and machine). */
export const FUZZ_SEED = 20_240_512;

/** Own-property names of Object.prototype and friends: the keys a `key in obj` lookup lets through. */
export const PROTOTYPE_KEYS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__'];

/** Values no typed field accepts, whatever its range. */
const garbage = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(null, true, false, [], {}, [1, 2], { a: 1 }, '', 'NaN', 'Infinity', '0x10', '1e400', '-0'),
);

/** Numbers of every awkward kind (JSON turns NaN/Infinity into null; YAML keeps them as .nan/.inf). */
export const awkwardNumber = fc.oneof(
  fc.double({ noDefaultInfinity: false }),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.constantFrom(0, -0, -1, 1e-300, 1e300, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, 1e7 + 1, 0.5, 1e13, 1e15),
);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every dotted path to a leaf of the template, with the leaf. */
function leaves(x: Json, prefix: string[] = []): [string[], Json][] {
  if (x === null || typeof x !== 'object') return [[prefix, x]];
  if (Array.isArray(x)) return x.flatMap((v, i) => leaves(v, [...prefix, String(i)]));
  return Object.entries(x).flatMap(([k, v]) => leaves(v, [...prefix, k]));
}

function objectPaths(x: Json, prefix: string[] = []): string[][] {
  if (x === null || typeof x !== 'object') return [];
  const here = Array.isArray(x) ? [] : [prefix];
  const kids = Array.isArray(x) ? x.map((v, i) => [String(i), v] as const) : Object.entries(x);
  return [...here, ...kids.flatMap(([k, v]) => objectPaths(v, [...prefix, k]))];
}

/** A short scenario (1 s) so that a valid file is cheap to run. */
export function templateScenario(): Json {
  const s = dumbbellScenario('reno') as unknown as { [k: string]: Json };
  s.durationS = 1;
  delete s.name;
  delete s.variant;
  return s;
}

function canSet(root: Json, path: string[]): boolean {
  let node: Json = root;
  for (const seg of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, seg)) return false;
    node = (node as { [k: string]: Json })[seg]!;
  }
  return node !== null && typeof node === 'object' && !Array.isArray(node);
}

function setAt(root: Json, path: string[], value: Json): void {
  let node = root as { [k: string]: Json };
  for (const seg of path.slice(0, -1)) node = node[seg] as { [k: string]: Json };
  // defineProperty: a key named __proto__ must become an own property, as JSON.parse makes it.
  Object.defineProperty(node, path[path.length - 1]!, { value: ownKeys(value), enumerable: true, writable: true, configurable: true });
}

/** A deep copy in which every key (`__proto__` too) is an own property. */
function ownKeys(x: Json): Json {
  if (x === null || typeof x !== 'object') return x;
  if (Array.isArray(x)) return x.map(ownKeys);
  const out: { [k: string]: Json } = {};
  for (const k of Object.keys(x)) Object.defineProperty(out, k, { value: ownKeys(x[k]!), enumerable: true, writable: true, configurable: true });
  return out;
}

export interface ScenarioCase {
  text: string;
  ext: '.json' | '.yaml';
  expect: 'refuse' | 'either';
  /** What was done to the template, for the failure message. */
  what: string;
}

/** Mutations of the template scenario: each a path and a value, plus whether it must be refused. */
const mutation = (template: Json) => {
  const leafList = leaves(template).filter(([p]) => p.length > 0);
  const objects = objectPaths(template);
  return fc.oneof(
    // A leaf set to a value of the wrong type or no type at all.
    fc.record({ leaf: fc.constantFrom(...leafList), value: garbage }).map(({ leaf, value }) => {
      const [path, old] = leaf;
      const sameType = value !== null && typeof value === typeof old && !Array.isArray(value) && typeof value !== 'object';
      const nullable = old === null; // receiverAccess, stopS, bytes, initialSsthreshBytes may be null
      const enumLike = typeof old === 'string'; // kind, direction
      return { path, value, refuse: !sameType && !(nullable && value === null) && !enumLike, what: `${path.join('.')} = ${JSON.stringify(value)}` };
    }),
    // A numeric leaf set to an awkward number (negative ones are refused by every numeric field here).
    fc.record({ leaf: fc.constantFrom(...leafList.filter(([, v]) => typeof v === 'number')), value: awkwardNumber }).map(({ leaf, value }) => ({
      path: leaf[0],
      value: value as Json,
      refuse: !Number.isFinite(value) || value < 0,
      what: `${leaf[0].join('.')} = ${String(value)}`,
    })),
    // An unknown key (often a prototype name) in any object.
    fc.record({ at: fc.constantFrom(...objects.filter((p) => p[0] !== 'ccParams')), key: fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.stringMatching(/^[a-z]{1,8}$/)), value: fc.oneof(garbage, awkwardNumber) }).map(
      ({ at, key, value }) => ({ path: [...at, key], value: value as Json, refuse: true, what: `unknown key ${[...at, key].join('.')}` }),
    ),
    // A ccParams key that is a prototype name or unknown to reno (reno has no parameters).
    fc.record({ key: fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.stringMatching(/^[a-z]{1,8}$/)), value: awkwardNumber }).map(({ key, value }) => ({
      path: ['ccParams', key],
      value: value as Json,
      refuse: true,
      what: `ccParams.${key} = ${String(value)}`,
    })),
    // The queue discipline swapped for a name that is no discipline.
    fc.record({ kind: fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 8 })), limit: awkwardNumber }).map(({ kind, limit }) => ({
      path: ['bottleneck', 'queue'],
      value: { kind, limitPackets: limit } as Json,
      refuse: kind !== 'droptail',
      what: `bottleneck.queue = {kind: ${JSON.stringify(kind)}, limitPackets: ${String(limit)}}`,
    })),
    // flows as a count of any size or a list of partial flows with junk in them.
    fc.oneof(fc.oneof(fc.integer({ min: -5, max: 50 }), fc.integer({ min: 10_001, max: 20_000_000 })), fc.constantFrom(0, 1, 3, 10_001, 1e9, 2.5)).map((n) => ({
      path: ['flows'],
      value: n as Json,
      refuse: !(Number.isInteger(n) && n >= 1 && n <= 10_000),
      what: `flows = ${n}`,
    })),
    fc.array(fc.dictionary(fc.oneof(fc.constantFrom('startS', 'stopS', 'bytes', 'access', ...PROTOTYPE_KEYS)), fc.oneof(garbage, awkwardNumber), { maxKeys: 3 }), { maxLength: 4 }).map((list) => ({
      path: ['flows'],
      value: list as Json,
      // Only flows that are all empty objects are surely valid; anything else may be either.
      refuse: list.length === 0 || list.some((f) => Object.keys(f).some((k) => PROTOTYPE_KEYS.includes(k))),
      what: `flows = ${JSON.stringify(list)}`,
    })),
    // A flow's own variant and knobs (flows[i].variant, flows[i].ccParams).
    fc.oneof(fc.constantFrom(...VARIANTS), fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 6 })).map((v) => ({
      path: ['flows', '0', 'variant'],
      value: v as Json,
      refuse: !(VARIANTS as readonly string[]).includes(v),
      what: `flows[0].variant = ${JSON.stringify(v)}`,
    })),
    fc.record({ key: fc.constantFrom(...PROTOTYPE_KEYS), value: awkwardNumber }).map(({ key, value }) => ({
      path: ['flows', '0', 'ccParams'],
      value: Object.defineProperty({}, key, { value, enumerable: true, writable: true, configurable: true }) as Json,
      refuse: true,
      what: `flows[0].ccParams = {${key}: ${String(value)}}`,
    })),
    // base set to a name that is no preset.
    fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 6 })).map((b) => ({
      path: ['base'],
      value: b as Json,
      refuse: !['normal', 'lfn', 'lossy', 'dumbbell'].includes(b),
      what: `base = ${JSON.stringify(b)}`,
    })),
  );
};

/** A scenario file: the template with one to three mutations, as JSON or YAML, sometimes truncated. */
export function scenarioCase(): fc.Arbitrary<ScenarioCase> {
  const template = templateScenario();
  return fc
    .record({
      muts: fc.array(mutation(template), { minLength: 1, maxLength: 3 }),
      yaml: fc.boolean(),
      cut: fc.oneof({ arbitrary: fc.constant(null), weight: 7 }, { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 1 }),
    })
    .map(({ muts, yaml, cut }) => {
      const s = structuredClone(template);
      let applied: { path: string[]; what: string; refuse: boolean }[] = [];
      for (const m of muts) {
        // A mutation under a path an earlier one replaced by a scalar has nowhere to go: skipped.
        if (!canSet(s, m.path)) continue;
        setAt(s, m.path, m.value);
        // What it replaced no longer counts (a bad key inside flows[0] is gone once flows = 1).
        applied = applied.filter((a) => !m.path.every((seg, i) => a.path[i] === seg));
        applied.push(m);
      }
      const refuse = applied.some((a) => a.refuse);
      let text = yaml ? toYaml(s) : JSON.stringify(s, null, 1);
      let what = applied.map((a) => a.what).join('; ');
      if (cut !== null) {
        text = text.slice(0, Math.floor(text.length * cut));
        what += `; cut at ${Math.round(cut * 100)}%`;
      }
      return { text, ext: yaml ? '.yaml' : '.json', expect: refuse && cut === null ? 'refuse' : 'either', what } as ScenarioCase;
    });
}

/**
 * Scenario files that must be accepted and run: the template (1 s, one 100 Mbit/s dumbbell) with
 * mild changes that keep every field in range and the run cheap.
 */
export function validScenarioCase(): fc.Arbitrary<{ text: string; ext: '.json' | '.yaml'; what: string }> {
  return fc
    .record({
      variant: fc.constantFrom(...VARIANTS),
      base: fc.constantFrom(undefined, 'lfn', 'lossy', 'dumbbell'),
      flows: fc.integer({ min: 1, max: 3 }),
      loss: fc.constantFrom(0, 1e-4, 1e-3, 0.01),
      delayS: fc.double({ min: 0, max: 0.05, noNaN: true }),
      bandwidthBps: fc.constantFrom(1e6, 1e7, 5e7),
      queue: fc.integer({ min: 1, max: 200 }),
      red: fc.boolean(),
      yaml: fc.boolean(),
    })
    .map((c) => {
      const s: Record<string, unknown> = {
        variant: c.variant,
        durationS: 1,
        flows: c.flows,
        bottleneck: {
          bandwidthBps: c.bandwidthBps,
          delayS: c.delayS,
          loss: { rate: c.loss },
          queue: c.red
            ? { kind: 'red', limitPackets: c.queue + 10, minThPackets: Math.floor(c.queue / 4), maxThPackets: c.queue, maxP: 0.1, weight: 0.002, gentle: true }
            : { kind: 'droptail', limitPackets: c.queue },
        },
      };
      if (c.base !== undefined) s.base = c.base;
      return { text: c.yaml ? toYaml(s) : JSON.stringify(s), ext: c.yaml ? '.yaml' : '.json', what: JSON.stringify(s) } as const;
    });
}
