import fc from 'fast-check';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import type { UnitKind } from '../../src/runs/range.js';
import { MODELLED_VARIANTS, VARIANTS } from '../../src/variants.js';

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
      refuse: !['normal', 'lfn', 'lossy', 'ns3-normal', 'ns3-lfn', 'ns3-lossy', 'dumbbell'].includes(b),
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
      // Both engines run these on a default queue: variants with a fluid model that need no ECN (not dctcp).
      variant: fc.constantFrom(...MODELLED_VARIANTS),
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

/**
 * The files the command-line vectors name (relative to the sandbox they run in): a valid scenario,
 * one with a prototype-named key, broken JSON, a precious file and folder that must never change, a
 * link to /dev/zero, a valid and an invalid recipe.
 */
export function writeCliFixtures(dir: string): void {
  writeFileSync(join(dir, 'ok.yaml'), 'durationS: 1\nbottleneck: {bandwidthBps: 10000000}\n');
  writeFileSync(join(dir, 'proto.json'), '{"durationS": 1, "constructor": {"evil": 1}}');
  writeFileSync(join(dir, 'broken.json'), '{"durationS": ');
  writeFileSync(join(dir, 'a-file.txt'), 'precious\n');
  mkdirSync(join(dir, 'notes'));
  writeFileSync(join(dir, 'notes', 'thesis.tex'), 'precious\n');
  symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
  writeFileSync(join(dir, 'recipe.yaml'), 'scenarios: [ns3-lfn]\nvariants: [reno]\nduration: 4s\ncharts: [goodput]\n');
  writeFileSync(join(dir, 'recipe-bad.yaml'), 'scenarios: [ns3-lfn]\nvariants: [reno, reno]\ncolour: red\n');
}

/** Flag vectors for every command (see cliFlags.test.ts); values resolve against writeCliFixtures' files. */
const junk = fc.oneof(
  fc.constantFrom('', ' ', '0x10', '0b1', '1e400', '-1', '-0', 'NaN', 'Infinity', '1e9', '99999999999', '1..2', '1,,2', 'ms', '5 Mbps', '1%', ...PROTOTYPE_KEYS),
  fc.string({ maxLength: 8 }),
);
const maybe = (valid: fc.Arbitrary<string>) => fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: junk, weight: 1 });

/** Flag -> values, for the scenario flags every run command shares. */
const SCENARIO_FLAGS: Record<string, fc.Arbitrary<string>> = {
  '--scenario': fc.constantFrom('normal', 'lfn', 'lossy', 'ok.yaml', 'proto.json', 'broken.json', 'zero.yaml', 'missing.yaml', 'notes', 'constructor'),
  '--bandwidth': maybe(fc.constantFrom('1Mbps', '10Mbps', '5000000')),
  '--delay': maybe(fc.constantFrom('0', '1ms', '20ms', '0.1s')),
  '--loss': maybe(fc.constantFrom('0', '1e-3', '0.01', '2%')),
  '--loss-direction': maybe(fc.constantFrom('data', 'both')),
  '--flows': maybe(fc.constantFrom('1', '2', '3', '100000000')),
  '--duration': maybe(fc.constantFrom('0.5s', '1s', '800ms')),
  '--mss': maybe(fc.constantFrom('536', '1448', '100000')),
  '--queue': maybe(fc.constantFrom('1', '10', '100', '0')),
  '--seed': maybe(fc.constantFrom('0', '7', '4294967295', '4294967296')),
  '--access-bandwidth': maybe(fc.constantFrom('2Mbps', '10Mbps')),
  '--access-delay': maybe(fc.constantFrom('0', '5ms')),
  '--delack': maybe(fc.constantFrom('1', '2', '65')),
  '--min-rto': maybe(fc.constantFrom('200ms', '1s', '0')),
  '--cc-param': maybe(fc.constantFrom('hystart=1', 'beta=0.5', 'constructor=1', '__proto__=1', 'x', 'beta=0x1')),
  '--start-stagger': maybe(fc.constantFrom('0', '1ms', '0.2s')),
  '--sack': maybe(fc.constantFrom('on', 'off')),
  '--recovery': maybe(fc.constantFrom('classic', 'prr')),
  '--profile': maybe(fc.constantFrom('ns3', 'linux', 'rfc', 'bsd')),
  '--flow-variants': maybe(fc.constantFrom('reno', 'reno,cubic', 'cubic,cubic,reno', 'toString')),
};
const OUT: fc.Arbitrary<string> = fc.constantFrom('out-new', 'a-file.txt', 'notes', 'a-file.txt/sub', '/proc/sys/cclab-fuzz', 'deep/er/out');

function vector(flags: Record<string, fc.Arbitrary<string>>, bare: readonly string[] = []): fc.Arbitrary<string[]> {
  const entries = Object.entries(flags);
  return fc
    .record({
      picks: fc.subarray(entries, { maxLength: Math.min(5, entries.length) }).chain((es) => fc.tuple(...es.map(([f, a]) => a.map((v) => [f, v] as const)))),
      switches: fc.subarray([...bare]),
      stray: fc.option(fc.constantFrom('--bogus', 'extra-arg', '--', '-x'), { freq: 6 }),
    })
    .map(({ picks, switches, stray }) => [...picks.flatMap(([f, v]) => [f, v]), ...switches, ...(stray === null ? [] : [stray])]);
}

/** Commands with their fixed cheap prefix and their random flags. */
export const COMMANDS: fc.Arbitrary<{ argv: string[]; maxMs: number }> = fc.oneof(
  vector({ ...SCENARIO_FLAGS, '--variant': maybe(fc.constantFrom('reno', 'cubic', 'tahoe')), '--out': OUT }, ['--json', '--print-scenario']).map((v) => ({
    argv: ['simulate', '--duration', '1s', '--bandwidth', '10Mbps', ...v],
    maxMs: 15_000,
  })),
  vector({ ...SCENARIO_FLAGS, '--variant': maybe(fc.constantFrom('reno', 'newreno', 'westwood')), '--out': OUT }, ['--json']).map((v) => ({
    argv: ['predict', '--duration', '1s', ...v],
    maxMs: 15_000,
  })),
  vector({ ...SCENARIO_FLAGS, '--variants': maybe(fc.constantFrom('reno', 'cubic', 'reno,reno', 'reno,cubic')) }, ['--json']).map((v) => ({
    argv: ['compare', '--duration', '1s', '--bandwidth', '10Mbps', ...v],
    maxMs: 20_000,
  })),
  vector(
    {
      '--recipe': fc.constantFrom('recipe.yaml', 'recipe-bad.yaml', 'zero.yaml', 'missing.yaml', 'ok.yaml'),
      '--scenarios': maybe(fc.constantFrom('lfn', 'lfn,lfn', 'ok.yaml', 'constructor')),
      '--variants': maybe(fc.constantFrom('reno', 'reno,reno', 'vegas')),
      '--duration': maybe(fc.constantFrom('3s', '1e9s', '0')),
      '--charts': maybe(fc.constantFrom('goodput', 'toString', 'cwnd,cwnd')),
      '--name': maybe(fc.constantFrom('x', '../escape', '')),
      '--out': OUT,
    },
    [],
  ).map((v) => ({
    // Invalid by default (duration 3 s is below the 3 s floor): a random flag may make it valid, at
    // the price of a run of lfn x reno (4 s with --duration 4s).
    argv: ['report', '--scenarios', 'ns3-lfn', '--variants', 'reno', '--duration', '3s', '--charts', 'goodput', ...v],
    maxMs: 30_000,
  })),
  vector(
    {
      ...SCENARIO_FLAGS,
      '--loss': maybe(fc.constantFrom('1e-3', '1e-4..1e-2:log:3', '1e-4..1e-1:log:10000', '1e-4..1e-1:log:10000000', '0x0')),
      '--rtt': maybe(fc.constantFrom('20ms,200ms', '10ms..100ms:log:10000', '10..400:log:8ms')),
      '--flows': maybe(fc.constantFrom('1,2', '1..10000:lin:10000', '1,1000000000')),
      '--reps': maybe(fc.constantFrom('1', '2', '1000000000', '0')),
      '--variants': maybe(fc.constantFrom('reno', 'reno,cubic', 'reno,reno')),
      '--engines': maybe(fc.constantFrom('fluid', 'packet', 'packet,packet')),
      '--set': maybe(fc.constantFrom('tcp.minRtoS=200ms,1s', 'constructor=1', 'flows.length=5', 'ccParams.__proto__=1', 'ccParams.beta=0.5,0.7')),
      '--max-runs': maybe(fc.constantFrom('1', '50', '0')),
      '--shard': maybe(fc.constantFrom('1/2', '0/2', '3/2')),
      '--workers': maybe(fc.constantFrom('0', '100000')),
      '--out': OUT,
      '--cache': fc.constantFrom('cache', 'a-file.txt', 'a-file.txt/c'),
    },
    ['--dry-run', '--no-cache'],
  ).map((v) => ({
    // A real sweep only when small: --max-runs 50 caps it, runs of 1 s on the fluid engine by default.
    argv: ['sweep', '--engines', 'fluid', '--duration', '1s', '--variants', 'reno', '--workers', '0', '--quiet', '--no-report', '--max-runs', '50', ...v],
    maxMs: 20_000,
  })),
  vector(
    {
      '--loss': maybe(fc.constantFrom('1e-3,1e-2', '1e-4..1e-1:log:10000')),
      '--rtt': maybe(fc.constantFrom('10ms,100ms', '10ms..100ms:log:10000')),
      '--seeds': maybe(fc.constantFrom('1', '1000000000')),
      '--variants': maybe(fc.constantFrom('reno', 'reno,reno')),
      '--bandwidth': maybe(fc.constantFrom('10Mbps', '0')),
      '--models': fc.constantFrom('notes', 'missing', 'a-file.txt'),
      '--out': OUT,
    },
    [],
  ).map((v) => ({ argv: ['validate', '--dry-run', '--no-cache', ...v], maxMs: 10_000 })),
  vector({ '--models': fc.constantFrom('notes', 'missing', 'a-file.txt') }, ['--json']).map((v) => ({ argv: ['list', ...v], maxMs: 10_000 })),
  vector({ '--out': OUT, '--max-runs': maybe(fc.constantFrom('10', '0')) }, ['--allow-partial', '--no-report']).chain((v) =>
    fc.subarray(['shard-ok', 'notes', 'a-file.txt', 'missing', 'shard-tampered']).map((dirs) => ({ argv: ['merge', ...dirs, ...v], maxMs: 10_000 })),
  ),
);


/** Sweep range texts (see sweepRanges.test.ts). */
const num = fc.oneof(
  fc.constantFrom('0', '1', '-1', '1e-5', '1e-1', '.5', '5.', '1e400', '-0', '0x10', '0b1', 'NaN', 'Infinity', '1e', 'e5', '', '+2', '1_0'),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map(String),
  fc.integer({ min: 0, max: 1e6 }).map(String),
);
const unit = fc.constantFrom('', '', 'ms', 's', 'us', 'min', 'Mbps', 'kbps', 'Gbit/s', '%', 'bogus', ' ms', 'MS');
const value = fc.tuple(num, unit).map(([n, u]) => n + u);
// Counts at and past the limit are rare: a 10,000-point range takes ~30 ms to compute.
const count = fc.oneof(
  { arbitrary: fc.integer({ min: -2, max: 20 }).map(String), weight: 12 },
  { arbitrary: fc.constantFrom('10000', '10001', '10000000', '99999999999999999999', '1.5', ''), weight: 1 },
);
export const rangeText = fc.oneof(
  fc.tuple(value, value, fc.constantFrom('lin', 'log', 'LOG', 'cubic'), count).map(([a, b, s, c]) => `${a}..${b}:${s}:${c}`),
  fc.array(value, { minLength: 1, maxLength: 6 }).map((vs) => vs.join(',')),
  fc.tuple(value, value).map(([a, b]) => `${a}..${b}`),
  fc.string({ maxLength: 20 }),
);
export const unitKind = fc.constantFrom<UnitKind>('number', 'duration', 'rate', 'integer');


/** Flow-model equations and top-level keys (see modelExpressions.test.ts). */
export const FUZZ_FLOW_MODEL = (eq: string, extra = '') => `kind: flow
id: reno
title: fuzz
citation: none
${extra}params:
  Tp: { unit: s, scenario: true, min: 0.000001 }
  k: { unit: "1", default: 1, min: 0, max: 2 }
  m: { unit: "1", default: 1, min: -1, max: 2 }
states:
  W: { unit: segments, initial: 1, min: 1, max: 1000 }
outputs:
  - rate = W / R
  - cwnd = W
equations:
  - ${JSON.stringify(`dW/dt = ${eq}`)}
`;

const modelExpr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('W', 'R', 'k', 'm', 'p', 'q', 'C', 't', 'rate', 'A', 'nosuch', 'x1', ...PROTOTYPE_KEYS.filter((k) => /^[a-z]/i.test(k))),
    fc.oneof(fc.integer({ min: -5, max: 100 }).map(String), fc.constantFrom('0', '1e308', '1e-308', '0.5', 'Infinity', 'NaN', '1e400')),
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '^', '<', '>=', '==', ' and ', ' or ', ' mod ', '!', '='), tie('e')).map(([a, o, b]) => `${a} ${o} ${b}`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
    tie('e').map((a) => `(${a})`),
    tie('e').map((a) => `-${a}`),
    fc.tuple(fc.constantFrom('abs', 'sqrt', 'exp', 'log', 'min', 'max', 'pow', 'floor', 'tanh', 'sin', 'eval', 'expdraw', ...PROTOTYPE_KEYS.filter((k) => /^[a-z]/i.test(k))), fc.array(tie('e'), { maxLength: 3 })).map(
      ([f, args]) => `${f}(${args.join(', ')})`,
    ),
    // Delayed values: a lag that is provably >= 0, one that may be negative, a future time, nesting.
    fc.tuple(fc.constantFrom('W', 'rate', 'p', 'q', 'k', 'R'), fc.oneof(fc.constantFrom('t - R', 't', 't + 1', 't - m', 't - k', '2 * t', 't - (R - 1)', 't - W(t - R)'), tie('e').map((a) => `t - ${a}`))).map(
      ([x, arg]) => `${x}(${arg})`,
    ),
  ),
})).e;

export const modelEquation = fc.oneof(
  { arbitrary: modelExpr, weight: 10 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 2 },
  { arbitrary: fc.constantFrom('k / R', 'k / R - W * p(t - R) * rate(t - R) / 2', 'W(t + 1)'), weight: 2 },
  // Sizes past the limits: long sums, deep brackets, long unary chains.
  { arbitrary: fc.tuple(fc.constantFrom('k+', '(', '-', 'k ? 1 : '), fc.integer({ min: 50, max: 3000 })).map(([u, n]) => (u === '(' ? `${'('.repeat(n)}k${')'.repeat(n)}` : `${u.repeat(n)}k`)), weight: 1 },
);
export const modelExtraKeys = fc.oneof(
  { arbitrary: fc.constant(''), weight: 8 },
  { arbitrary: fc.constantFrom('colour: red\n', 'constructor: 1\n', 'form: hybrid\n', 'form: toString\n', 'delay: q / C\n', 'equation: x\n'), weight: 2 },
);

