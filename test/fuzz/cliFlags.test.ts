import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUZZ_SEED, PROTOTYPE_KEYS } from './arbitraries.js';
import { changedPaths, cli, sandbox, treeDigest, violation } from './harness.js';

/**
 * Random flag vectors for every command: each flag drawn with a valid value, a garbage value
 * (hex, prototype names, huge counts, empty, non-finite) or none. Whatever the vector, the command
 * ends in a valid run (exit 0), a failed run reported as such (exit 3), or exit 2 with one line
 * naming a field; within a time bound; and a refused command changes nothing on disk.
 * Valid values are chosen so that a valid run is short (durations of a second, slow links).
 */

const dir = sandbox('cclab-fuzz-cli-');
const cwd = process.cwd();
beforeAll(() => {
  // Defaults such as `reports/<name>` and `.cache/runs` are relative: keep them inside the sandbox.
  process.chdir(dir);
  writeFileSync(join(dir, 'ok.yaml'), 'durationS: 1\nbottleneck: {bandwidthBps: 10000000}\n');
  writeFileSync(join(dir, 'proto.json'), '{"durationS": 1, "constructor": {"evil": 1}}');
  writeFileSync(join(dir, 'broken.json'), '{"durationS": ');
  writeFileSync(join(dir, 'a-file.txt'), 'precious\n');
  mkdirSync(join(dir, 'notes'));
  writeFileSync(join(dir, 'notes', 'thesis.tex'), 'precious\n');
  symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
  writeFileSync(join(dir, 'recipe.yaml'), 'scenarios: [lfn]\nvariants: [reno]\nduration: 4s\ncharts: [goodput]\n');
  writeFileSync(join(dir, 'recipe-bad.yaml'), 'scenarios: [lfn]\nvariants: [reno, reno]\ncolour: red\n');
});
afterAll(() => process.chdir(cwd));

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
const COMMANDS: fc.Arbitrary<{ argv: string[]; maxMs: number }> = fc.oneof(
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
    argv: ['report', '--scenarios', 'lfn', '--variants', 'reno', '--duration', '3s', '--charts', 'goodput', ...v],
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
  vector({ '--out': OUT, '--max-runs': maybe(fc.constantFrom('10', '0')) }, ['--allow-partial', '--no-report']).chain((v) =>
    fc.subarray(['shard-ok', 'notes', 'a-file.txt', 'missing', 'shard-tampered']).map((dirs) => ({ argv: ['merge', ...dirs, ...v], maxMs: 10_000 })),
  ),
);

describe('fuzz: command-line flag vectors', () => {
  it('every command, 200 vectors: valid run, exit 3 with its line, or one-line exit 2; a refusal writes nothing', async () => {
    // Two finished shard folders to merge: one intact, one with a tampered sweep.json.
    for (const [name, loss] of [['shard-ok', '1e-3'], ['shard-tampered', '1e-3']] as const) {
      const r = await cli(['sweep', '--engines', 'fluid', '--duration', '1s', '--variants', 'reno', '--loss', loss, '--workers', '0', '--quiet', '--no-report', '--no-cache', '--out', name]);
      expect(r.code, r.stderr).toBe(0);
    }
    const m = join(dir, 'shard-tampered', 'sweep.json');
    const { readFileSync } = await import('node:fs');
    writeFileSync(m, readFileSync(m, 'utf8').replace('"reps": 5', '"reps": "five"'));
    const outcomes = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(COMMANDS, async ({ argv, maxMs }) => {
        const before = treeDigest(dir);
        const r = await cli(argv);
        outcomes.set(r.code, (outcomes.get(r.code) ?? 0) + 1);
        const v = violation(r, { maxMs, allowRunFailed: true });
        if (v) throw new Error(`${v}\n  cclab ${argv.join(' ')}`);
        if (r.code !== 0) {
          const changed = changedPaths(before, treeDigest(dir)).map((p) => relative(dir, p));
          if (changed.length > 0) throw new Error(`exit ${r.code} but changed ${changed.join(', ')}\n  cclab ${argv.join(' ')}`);
        }
      }),
      { seed: FUZZ_SEED, numRuns: 200 },
    );
    // Both outcomes occur: the vectors are neither all valid nor all refused.
    expect(outcomes.get(0) ?? 0).toBeGreaterThan(10);
    expect(outcomes.get(2) ?? 0).toBeGreaterThan(100);
  });
});
