import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { DEFAULT_MODELS_DIR, loadModels } from '../../src/fluid/index.js';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { cli, sandbox, violation } from './harness.js';

/**
 * Every failure issue 12 lists, as a named case: each once crashed, hung, ran out of memory, gave
 * the wrong exit code or was silently accepted. The contract: exit 2 and one line naming the field.
 */

async function refused(args: string[], field: RegExp, maxMs = 5000): Promise<string> {
  const r = await cli(args);
  expect(violation(r, { maxMs, mustFail: true })).toBeNull();
  expect(r.stderr).toMatch(field);
  return r.stderr;
}

function file(dir: string, name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** A models directory: the repository's bottleneck plus `flow` as reno's model (the engines run only known variants). */
function modelsWith(flow: string): string {
  const d = sandbox('cclab-models-');
  copyFileSync(join(DEFAULT_MODELS_DIR, 'bottleneck.model.yaml'), join(d, 'bottleneck.model.yaml'));
  writeFileSync(join(d, 'reno.model.yaml'), flow);
  return d;
}

export const FLOW_MODEL = `kind: flow
id: reno
title: test
citation: none
params:
  Tp: { unit: s, scenario: true, min: 0.000001 }
  k: { unit: "1", default: 1, min: 0, max: 2 }
states:
  W: { unit: segments, initial: 1, min: 1, max: 1000 }
outputs:
  - rate = W / R
  - cwnd = W
equations:
  - dW/dt = EXPR
`;

function modelError(flow: string): InputError {
  try {
    loadModels(modelsWith(flow));
  } catch (e) {
    if (e instanceof InputError) return e;
    throw new Error(`expected an InputError, got ${String(e)}`);
  }
  throw new Error('expected an InputError, the model loaded');
}

describe('issue 12: the schema looks keys up as own properties only', () => {
  const dir = sandbox();
  it('queue kind toString with limitPackets -5 is refused (was internal error: Invalid typed array length: -3)', async () => {
    const p = file(dir, 'kind.yaml', 'durationS: 1\nbottleneck: {queue: {kind: toString, limitPackets: -5}}\n');
    await refused(['simulate', '--scenario', p], /^cclab: error: .*kind\.yaml: bottleneck\.queue\.kind must be one of droptail, red[a-z_, -]*, got 'toString'\n$/);
  });
  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'])('top-level key %s is an unknown key, in JSON and YAML', async (key) => {
    const json = file(dir, `${key}.json`, `{"durationS": 1, "${key}": {"evil": 1}}`);
    await refused(['simulate', '--scenario', json, '--print-scenario'], new RegExp(`^cclab: error: .*: ${key} is not a known key \\(known: `));
    const yaml = file(dir, `${key}.yaml`, `durationS: 1\n${key}: {evil: 1}\n`);
    await refused(['simulate', '--scenario', yaml, '--print-scenario'], new RegExp(`^cclab: error: .*: ${key} is not a known key`));
  });
  it('__proto__ inside a nested object and inside a flow is refused, not dropped', async () => {
    await refused(['simulate', '--scenario', file(dir, 'np.json', '{"bottleneck": {"__proto__": {"x": 1}}}'), '--print-scenario'], /bottleneck\.__proto__ is not a known key/);
    await refused(['simulate', '--scenario', file(dir, 'fp.yaml', 'flows:\n  - __proto__: {startS: 1}\n'), '--print-scenario'], /flows\[0\]\.__proto__ is not a known key/);
  });
  it('ccParams named constructor or __proto__ are not parameters of the variant', async () => {
    await refused(['simulate', '--scenario', file(dir, 'cc.json', '{"ccParams": {"constructor": 1}}'), '--print-scenario'], /ccParams\.constructor is not a parameter of reno/);
    await refused(['simulate', '--scenario', file(dir, 'cp.json', '{"ccParams": {"__proto__": 1}}'), '--print-scenario'], /ccParams\.__proto__ is not a parameter of reno/);
    await refused(['simulate', '--cc-param', 'constructor=1', '--print-scenario'], /--cc-param constructor is not a parameter of reno/);
  });
  it('sweep --set reaches own fields only (constructor, flows.length, ccParams.__proto__)', async () => {
    const out = join(dir, 'sweep-out');
    await refused(['sweep', '--set', 'constructor=1', '--dry-run', '--out', out], /--set path "constructor" does not exist/);
    await refused(['sweep', '--set', 'flows.length=5', '--dry-run', '--out', out], /--set path "flows.length" does not exist/);
    await refused(['sweep', '--set', 'bottleneck.toString=1', '--dry-run', '--out', out], /--set path "bottleneck.toString" does not exist/);
    await refused(['sweep', '--variants', 'cubic', '--set', 'ccParams.__proto__=1', '--dry-run', '--out', out], /--set ccParams.__proto__ sweeps ccParams.__proto__, a parameter of none of cubic/);
  });
  it('a recipe scenario with __proto__ is refused', async () => {
    const recipe = file(dir, 'r.yaml', 'scenarios:\n  - {name: x, __proto__: {durationS: 1}}\nvariants: [reno]\n');
    await refused(['report', '--recipe', recipe, '--out', join(dir, 'rep')], /scenarios\[0\]: __proto__ is not a known key/);
  });
  it("a model parameter named constructor binds its own default (was '...got function Object()')", () => {
    const d = modelsWith(FLOW_MODEL.replace('  k: {', '  constructor: { unit: "1", default: 1, min: 0, max: 2 }\n  k: {').replace('EXPR', 'constructor / R'));
    const models = loadModels(d);
    const r = runFluid({ ...presetScenario('ns3-lfn', 'reno', { durationS: 2 }), variant: 'reno' }, { models });
    expect(r.status).toBe('ok');
  });
  it("a call of toString(t - R) is an unknown function, not a crash", () => {
    expect(modelError(FLOW_MODEL.replace('EXPR', 'toString(t - R)')).message).toMatch(/calls unknown function 'toString'/);
  });
});

describe('issue 12: model files', () => {
  it('a future value W(t + 1) is refused; W(t - R), W(t - k) with k >= 0 and W(t) are the past', () => {
    expect(modelError(FLOW_MODEL.replace('EXPR', 'W(t + 1) - W')).message).toMatch(/^reno\.model\.yaml:14: dW\/dt reads W\(t \+ 1\), which may lie in the future/);
    expect(modelError(FLOW_MODEL.replace('EXPR', 'W(t - (R - 1)) - W')).message).toMatch(/reads W\(t - \(R - 1\)\), which may lie in the future/);
    expect(modelError(FLOW_MODEL.replace('EXPR', 'W(2 * t) - W')).message).toMatch(/reads W\(2 \* t\), which may lie in the future/);
    // k has min 0, R = Tp + q/C with q held at >= 0: both provably >= 0.
    for (const ok of ['W(t - R) - W', 'W(t - k) - W', 'W(t) - W', 'W(t - (R + 2 * k)) - W', 'W(t - max(R, -1)) - W']) {
      expect(() => loadModels(modelsWith(FLOW_MODEL.replace('EXPR', ok)))).not.toThrow();
    }
    // A lag of a parameter that may be negative cannot be shown to look back.
    const negative = FLOW_MODEL.replace('k: { unit: "1", default: 1, min: 0, max: 2 }', 'k: { unit: "1", default: 1, min: -1, max: 2 }');
    expect(modelError(negative.replace('EXPR', 'W(t - k) - W')).message).toMatch(/reads W\(t - k\), which may lie in the future/);
  });
  it('unknown top-level keys (colour: red) and unknown keys of params, states and events are refused', () => {
    expect(modelError(`colour: red\n${FLOW_MODEL.replace('EXPR', '1 / R')}`).message).toBe('reno.model.yaml:1: colour is not a known key (known: kind, id, form, title, citation, description, params, states, delay, outputs, terms, equations, events, clocks, timers)');
    expect(modelError(FLOW_MODEL.replace('EXPR', '1 / R').replace('default: 1, min: 0', 'default: 1, mni: 0')).message).toMatch(/params\.k\.mni is not a known key \(known: unit, doc, default, min, max, scenario\)/);
    expect(modelError(FLOW_MODEL.replace('EXPR', '1 / R').replace('initial: 1,', 'initial: 1, intial: 2,')).message).toMatch(/states\.W\.intial is not a known key/);
    const withEvent = `${FLOW_MODEL.replace('EXPR', '1 / R')}events:\n  - { name: cut, when: W >= 10, set: [W = W / 2], colour: red }\n`;
    expect(modelError(withEvent).message).toMatch(/events\[0\]\.colour is not a known key \(known: name, when, guard, set, reduction\)/);
  });
  it('a 200,000-term sum and a 2000-deep ternary are InputErrors, not "Maximum call stack size exceeded"', () => {
    // 200k terms of 'k+' are 400 kB: over the model file limit; 100k terms fit the file but not the expression limit.
    expect(modelError(FLOW_MODEL.replace('EXPR', Array(200_000).fill('k').join('+'))).message).toMatch(/reno\.model\.yaml: \(file\) '.*' is 400\d+ bytes, more than the 262144 bytes accepted/);
    expect(modelError(FLOW_MODEL.replace('EXPR', Array(100_000).fill('1').join('+'))).message).toMatch(/equations\[0\] is 2000\d+ characters long, more than the 2000 accepted/);
    expect(modelError(FLOW_MODEL.replace('dW/dt = EXPR', `"dW/dt = ${Array(2000).fill('k > 1 ? 1 :').join(' ')} 0"`)).message).toMatch(/equations\[0\] is 2\d+ characters long, more than the 2000 accepted/);
    expect(modelError(FLOW_MODEL.replace('EXPR', `${'('.repeat(300)}k${')'.repeat(300)}`)).message).toMatch(/equations\[0\] nests brackets 300 deep, more than the 32 accepted/);
    // Within 2000 characters, a chain of 1990 unary minus signs (the deepest tree that fits) is still refused cleanly.
    expect(modelError(FLOW_MODEL.replace('EXPR', `${'-'.repeat(1990)}k`)).message).toMatch(/dW\/dt nests 1991 operations deep, more than the 200 accepted/);
  });
});

describe('issue 12: limits are checked before anything is allocated', () => {
  const dir = sandbox();
  const out = join(dir, 'never-written');
  it('sweep --loss ..:log:10000 --rtt ..:log:10000 --dry-run: 10^8 points refused at once (was 4.4 GB heap, exit 134)', async () => {
    const err = await refused(['sweep', '--loss', '1e-4..1e-1:log:10000', '--rtt', '10ms..100ms:log:10000', '--dry-run', '--out', out], /^cclab: error: --max-runs is 100000, but the sweep has 4200000000 runs \(10000 x 10000 points x 7 variants x 5 packet \+ 1 fluid runs\); shrink a range or raise --max-runs\n$/, 1000);
    expect(err.split('\n')).toHaveLength(2);
  });
  it('a range count of 10^7 is refused before its values are computed (was a silent hang)', async () => {
    await refused(['sweep', '--loss', '1e-4..1e-1:log:10000000', '--dry-run', '--out', out], /--loss needs a count in \[2, 10000\] in "1e-4\.\.1e-1:log:10000000"/, 1000);
  });
  it('--reps 1000000000 is counted, not run (was a silent hang)', async () => {
    await refused(['sweep', '--reps', '1000000000', '--variants', 'reno', '--engines', 'packet', '--dry-run', '--out', out], /--max-runs is 100000, but the sweep has 1000000000 runs \(1 points x 1 variants x 1000000000 packet runs\)/, 1000);
  });
  it('--max-runs is the cap both ways: 4 runs pass at 4 and are refused at 3', async () => {
    const args = ['sweep', '--loss', '1e-3,1e-2', '--reps', '2', '--engines', 'packet', '--variants', 'reno', '--dry-run', '--out', out];
    await refused([...args, '--max-runs', '3'], /--max-runs is 3, but the sweep has 4 runs/);
    const ok = await cli([...args, '--max-runs', '4']);
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n')[0]).toBe('2 points x 1 variants x packet = 4 runs');
  });
  it('--dry-run with a shard counts by arithmetic: 10 runs, shard 3/4 holds runs 2 and 6', async () => {
    const r = await cli(['sweep', '--loss', '1e-4..1e-1:log:5', '--reps', '2', '--engines', 'packet', '--variants', 'reno', '--shard', '3/4', '--dry-run', '--out', out]);
    expect(r.stdout.split('\n')[0]).toBe('5 points x 1 variants x packet = 10 runs, 2 in shard 3/4');
  });
  it('sweep --flows 1,1000000000 and simulate --flows 100000000 are refused before any flow is built', async () => {
    await refused(['sweep', '--flows', '1,1000000000', '--dry-run', '--out', out], /--flows must be whole numbers in \[1, 10000\], got 1000000000/, 1000);
    await refused(['simulate', '--flows', '100000000', '--print-scenario'], /--flows must be a whole number in \[1, 10000\], got 100000000/, 1000);
  });
  it('sweep --workers 100000 is refused (a thread each)', async () => {
    await refused(['sweep', '--workers', '100000', '--loss', '1e-3', '--out', out], /--workers must be a whole number in \[0, 256\], got 100000/);
  });
  it('a scenario with 200,000 flows is refused by counting the raw list (was out of memory after 131 s at 17 M)', async () => {
    const p = file(dir, 'many.json', `{"flows": [${Array(200_000).fill('{}').join(',')}]}`);
    await refused(['simulate', '--scenario', p, '--print-scenario'], /many\.json: flows must have 1 to 10000 entries, got 200000/);
  });
  it('a scenario file over 4 MiB is refused unread', async () => {
    const p = file(dir, 'big.yaml', `# ${'x'.repeat(5 * 1024 * 1024)}\ndurationS: 1\n`);
    await refused(['simulate', '--scenario', p, '--print-scenario'], /--scenario '.*big\.yaml' is 524\d+ bytes, more than the 4194304 bytes accepted/, 1000);
  });
  it('--scenario naming a link to /dev/zero is refused at once (was read forever)', async () => {
    const p = join(dir, 'zero.yaml');
    symlinkSync('/dev/zero', p);
    await refused(['simulate', '--scenario', p, '--print-scenario'], /--scenario '.*zero\.yaml' is not a regular file \(a device\)/, 1000);
    await refused(['report', '--recipe', p, '--out', out], /--recipe '.*zero\.yaml' is not a regular file \(a device\)/, 1000);
    await refused(['simulate', '--scenario', `${dir}/.json`, '--print-scenario'], /--scenario cannot read file '.*\/\.json' \(ENOENT\)/, 1000);
  });
});

describe('issue 12: inputs that were silently accepted', () => {
  it('--loss 0x0 and --seed 0x10 are not decimal numbers', async () => {
    await refused(['simulate', '--loss', '0x0', '--print-scenario'], /^cclab: error: --loss must be a decimal number \(e\.g\. 0\.01, 1e-3\), got '0x0'\n$/);
    await refused(['simulate', '--seed', '0x10', '--print-scenario'], /--seed must be a whole number \(e\.g\. 4\), got '0x10'/);
    await refused(['simulate', '--cc-param', 'hystart=0b1', '--variant', 'cubic', '--print-scenario'], /--cc-param hystart must be a decimal number/);
  });
  it('--variants reno,reno (which ran every case twice) and --engines packet,packet are refused', async () => {
    await refused(['compare', '--variants', 'reno,reno'], /^cclab: error: --variants lists 'reno' twice, got 'reno,reno'\n$/);
    await refused(['sweep', '--variants', 'reno,cubic,reno', '--dry-run', '--out', '/nonexistent/x'], /--variants lists 'reno' twice/);
    await refused(['sweep', '--engines', 'packet,packet', '--dry-run', '--out', '/nonexistent/x'], /--engines lists 'packet' twice/);
  });
});

describe('issue 12: exit codes and messages', () => {
  const dir = sandbox();
  const aFile = file(dir, 'a-file.txt', 'not a folder\n');
  const quickSweep = ['sweep', '--engines', 'fluid', '--variants', 'reno', '--loss', '1e-3', '--duration', '2s', '--workers', '0', '--no-cache', '--no-report', '--quiet'];
  it('--out naming an existing file is exit 2 with the path (simulate, predict, sweep, merge, report; was internal error)', async () => {
    for (const args of [['simulate', '--duration', '1s'], ['predict', '--duration', '1s'], quickSweep, ['report', '--scenarios', 'ns3-lfn', '--variants', 'reno', '--duration', '4s']]) {
      await refused([...args, '--out', aFile], new RegExp(`^cclab: error: --out '${aFile}' exists and is not a folder\\n$`));
    }
    await refused(['merge', dir, '--out', aFile], /--out '.*a-file\.txt' exists and is not a folder/);
    expect(readFileSync(aFile, 'utf8')).toBe('not a folder\n');
  });
  it('--out and --cache under a file or an unwritable folder are exit 2 naming the path', async () => {
    await refused(['simulate', '--duration', '1s', '--out', join(aFile, 'sub')], /--out cannot create '.*a-file\.txt\/sub': '.*a-file\.txt' is not a folder/);
    // /proc/sys refuses writes even to root.
    await refused(['simulate', '--duration', '1s', '--out', '/proc/sys/cclab-out'], /--out cannot create '\/proc\/sys\/cclab-out' \(in '\/proc\/sys': EACCES\)/);
    await refused([...quickSweep.filter((a) => a !== '--no-cache'), '--cache', join(aFile, 'cache'), '--out', join(dir, 'sw1')], /--cache cannot create '.*a-file\.txt\/cache': '.*a-file\.txt' is not a folder/);
    await refused(['report', '--scenarios', 'ns3-lfn', '--variants', 'reno', '--duration', '4s', '--out', '/proc/sys/cclab-report'], /--out cannot create '\/proc\/sys\/cclab-report'/);
  });
  it("commander's own errors carry the cclab: prefix, on one line", async () => {
    for (const [args, msg] of [
      [['simulate', '--bogus'], /^cclab: error: unknown option '--bogus' \(run cclab --help for usage\)\n$/],
      [['simulatex'], /^cclab: error: unknown command 'simulatex' \(Did you mean simulate\?\) \(run cclab --help for usage\)\n$/],
      [['simulate', '--variant'], /^cclab: error: option '--variant <id>' argument missing \(run cclab --help for usage\)\n$/],
      [['simulate', '--loss-direction', 'sideways'], /^cclab: error: option '--loss-direction <dir>' argument 'sideways' is invalid\. Allowed choices are data, both\. \(run cclab --help for usage\)\n$/],
    ] as const) {
      await refused([...args], msg);
    }
  });
  it('sweep --out and merge --out refuse an existing folder that is not a sweep output (as report does)', async () => {
    const mine = join(dir, 'my-notes');
    mkdirSync(mine);
    writeFileSync(join(mine, 'thesis.tex'), '\\documentclass{article}\n');
    await refused([...quickSweep, '--out', mine], /^cclab: error: --out '.*my-notes' exists and is not a sweep output folder \(no \.cclab-sweep or sweep\.json in it\)/);
    const shard = join(dir, 'shard');
    expect((await cli([...quickSweep, '--out', shard])).code).toBe(0);
    await refused(['merge', shard, '--out', mine], /--out '.*my-notes' exists and is not a sweep output folder/);
    expect(readdirSync(mine)).toEqual(['thesis.tex']);
    // Its own folder is fine to write again (a resumed or extended sweep), and so is an empty one.
    expect((await cli([...quickSweep, '--out', shard])).code).toBe(0);
    mkdirSync(join(dir, 'empty'));
    // Without its page (--no-report, as the sweeps above): the folder check is what is tested, the charts cost ~1 CPU-s.
    expect((await cli(['merge', shard, '--out', join(dir, 'empty'), '--no-report'])).code).toBe(0);
  });
  it('runs.json is byte-identical across runs of the same sweep; wall times are in timings.json', async () => {
    const a = join(dir, 'det-a');
    const b = join(dir, 'det-b');
    expect((await cli([...quickSweep, '--loss', '1e-3,1e-2', '--out', a])).code).toBe(0);
    expect((await cli([...quickSweep, '--loss', '1e-3,1e-2', '--out', b])).code).toBe(0);
    expect(readFileSync(join(a, 'runs.json'), 'utf8')).toBe(readFileSync(join(b, 'runs.json'), 'utf8'));
    expect(readFileSync(join(a, 'runs.json'), 'utf8')).not.toContain('wallS');
    const timings = JSON.parse(readFileSync(join(a, 'timings.json'), 'utf8')) as { runId: string; wallS: number; cached: boolean }[];
    expect(timings).toHaveLength(2);
    for (const t of timings) expect(t.wallS).toBeGreaterThan(0);
  });
  it('merging a tampered sweep.json names the sweep.json field, not a flag (was "--loss must be in [0, 1)")', async () => {
    const shard = join(dir, 'tamper');
    expect((await cli([...quickSweep, '--out', shard])).code).toBe(0);
    const manifest = join(shard, 'sweep.json');
    const good = readFileSync(manifest, 'utf8');
    const edit = async (change: (m: Record<string, any>) => void, msg: RegExp) => {
      const m = JSON.parse(good) as Record<string, any>;
      change(m);
      writeFileSync(manifest, JSON.stringify(m));
      await refused(['merge', shard, '--out', join(dir, 'merged')], msg);
    };
    await edit((m) => (m.plan.axes[0].values = [5]), /sweep\.json: planHash is [0-9a-f]{16}, but the plan in this file hashes to [0-9a-f]{16}: sweep\.json was edited/);
    await edit((m) => (m.plan.reps = 'five'), /sweep\.json: plan\.reps must be a whole number in \[1, \d+\], got 'five'/);
    await edit((m) => (m.plan.variants = ['reno', 'vegas']), /sweep\.json: plan\.variants\[1\] must be one of tahoe, reno/);
    await edit((m) => (m.plan.constructor = 1), /sweep\.json: plan\.constructor is not a known key/);
    await edit((m) => (m.plan.base.durationS = -1), /sweep\.json: plan\.base: durationS must be/);
    // A consistent edit (hash recomputed) of an invalid value is reported against the axis, not --loss.
    const { planHash } = await import('../../src/sweep/grid.js');
    await edit((m) => {
      m.plan.axes[0].values = [5];
      m.planHash = planHash(m.plan);
    }, /sweep\.json: plan\.axes\[0\] \(loss\) must be in \[0, 1\), got 5/);
    writeFileSync(manifest, good);
  });
  it('a blow-up names the first non-finite component, its value and the time (was "step size collapse")', () => {
    const d = sandbox('cclab-models-');
    copyFileSync(join(DEFAULT_MODELS_DIR, 'bottleneck.model.yaml'), join(d, 'bottleneck.model.yaml'));
    const reno = readFileSync(join(DEFAULT_MODELS_DIR, 'reno.model.yaml'), 'utf8');
    const eq = '  - "dL/dt = ss == 1 ? rate(t - R) * (p(t - R) + pmark(t - R)) : 0"';
    expect(reno).toContain(eq);
    writeFileSync(join(d, 'reno.model.yaml'), reno.replace(eq, '  - "dL/dt = t > 2 ? sqrt(-1) : (ss == 1 ? rate(t - R) * (p(t - R) + pmark(t - R)) : 0)"'));
    const r = runFluid(presetScenario('ns3-lfn', 'reno', { durationS: 5 }), { models: loadModels(d) });
    expect(r.status).toBe('failed');
    expect(r.failure).toBe("fluid model 'reno' failed: non-finite state (the model blew up): L = NaN at t = 2.00000");
  });
});

describe('issue 13: validateScenario is the one user-facing check; the engines assert', () => {
  it('a scenario that skipped validation trips an assertion (a bug, exit 1), never an InputError', async () => {
    const { checkEngineInput } = await import('../../src/packet/input.js');
    const { mapScenario } = await import('../../src/fluid/run/scenarioMap.js');
    const s = presetScenario('ns3-lfn', 'reno', { durationS: 2 });
    s.flows[0]!.access.queuePackets = 0; // the schema's minimum is 1 (the engine used to accept 0)
    expect(() => checkEngineInput(s)).toThrow(/^packet engine: flows\[0\]\.access\.queuePackets must be a whole number >= 1, got 0 \(the scenario skipped validateScenario\)$/);
    expect(() => checkEngineInput(s)).not.toThrow(InputError);
    const t = presetScenario('ns3-lfn', 'reno', { durationS: 2 });
    t.bottleneck.loss.rate = 1.5;
    expect(() => mapScenario(t)).toThrow(/^fluid engine: bottleneck\.loss\.rate must be in \[0, 1\), got 1\.5/);
    expect(() => mapScenario(t)).not.toThrow(InputError);
  });
  it('the same scenario through the CLI is refused by the schema, naming the field', async () => {
    const d = sandbox();
    await refused(['simulate', '--scenario', file(d, 'q0.yaml', 'flows:\n  - access: {queuePackets: 0}\n'), '--print-scenario'], /flows\[0\]\.access\.queuePackets must be a whole number in \[1, 1e7\], got 0/);
  });
});

describe('issue 12: registries look names up as own keys', () => {
  it("getCongestionControl('constructor') is an InputError, not Object's constructor", async () => {
    const { getCongestionControl } = await import('../../src/cc/registry.js');
    expect(() => getCongestionControl('constructor' as never)).toThrow(/^variant must be one of tahoe, reno/);
  });
});

describe('beyond issue 12: parser resource limits', () => {
  it('a YAML alias bomb, 5,000-deep YAML and 200,000-deep JSON are one-line exit 2, not a crash or a hang', async () => {
    const d = sandbox();
    const aliases = ['a: &a [1,1,1,1,1,1,1,1,1,1]', ...Array.from({ length: 8 }, (_, i) => {
      const [me, prev] = [String.fromCharCode(98 + i), String.fromCharCode(97 + i)];
      return `${me}: &${me} [${Array(10).fill(`*${prev}`).join(',')}]`;
    })].join('\n');
    await refused(['simulate', '--scenario', file(d, 'bomb.yaml', `durationS: 1\n${aliases}\n`), '--print-scenario'], /bomb\.yaml: \(file\) is not valid YAML: Excessive alias count/);
    const deep = 200_000;
    await refused(['simulate', '--scenario', file(d, 'deep.yaml', `x: ${'['.repeat(5000)}${']'.repeat(5000)}\n`), '--print-scenario'], /deep\.yaml: \(file\) is not valid YAML: nested too deeply \(at line 1, column \d+\); scenario and recipe files need a few levels/);
    await refused(['simulate', '--scenario', file(d, 'deep.json', `{"x": ${'['.repeat(deep)}${']'.repeat(deep)}}`), '--print-scenario'], /deep\.json: x is not a known key/);
  });
});

describe('found by the fuzz suite', () => {
  it('cclab list models --models <missing folder> is exit 2 (was internal error: ENOENT, scandir)', async () => {
    await refused(['list', 'models', '--models', '/nonexistent/models'], /^cclab: error: models folder not found: \/nonexistent\/models\n$/);
  });
});

describe('beyond issue 12: cclab validate has the same limits', () => {
  it('a 10^8-point validate grid is refused at once; --out a file is exit 2 before any run', async () => {
    await refused(['validate', '--loss', '1e-4..1e-1:log:10000', '--rtt', '10ms..100ms:log:10000', '--dry-run'], /^cclab: error: --loss\/--rtt\/--reps give 4200000000 runs/, 2000);
    const d = sandbox();
    await refused(['validate', '--loss', '1e-2', '--rtt', '10ms', '--variants', 'reno', '--seeds', '1', '--no-cache', '--out', file(d, 'f', 'x')], /--out '.*f' exists and is not a folder/);
  });
});
