import { readdirSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { loadRecipe, parseRecipeText, recipeFromFlags, resolveContrast, resolvedRecipeData, resolveScenarios } from '../../src/report/recipe.js';
import { recipeFromReportFlags } from '../../src/cli/report.js';
import { rerunCommands } from '../../src/report/sections/prose.js';
import { tempDir } from '../helpers/tmp.js';

/** The error a bad input throws, checked to be a one-line InputError. */
function inputError(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    expect((e as Error).message).not.toContain('\n');
    return e as InputError;
  }
  throw new Error('expected an InputError');
}

describe('report recipes', () => {
  it("should load the seed study: its lines on ns-3's setup x five variants, and on their own bottleneck as the contrast", () => {
    const r = loadRecipe('reports/recipes/seed-study.yaml');
    expect(r.name).toBe('seed-study');
    expect(r.scenarios).toEqual(['ns3-normal', 'ns3-lfn', 'ns3-lossy']);
    expect(r.variants).toEqual(['tahoe', 'reno', 'newreno', 'westwood', 'cubic']);
    expect(r.durationS).toBe(100);
    const s = resolveScenarios(r);
    expect(s.map((x) => [x.name, x.durationS, x.seed])).toEqual([['ns3-normal', 100, 1], ['ns3-lfn', 100, 1], ['ns3-lossy', 100, 1]]);
    expect(r.contrast?.scenarios).toEqual(['normal', 'lfn', 'lossy']);
    // normal, the 1 Gbit/s line, runs its own (shorter) duration; the others the contrast's.
    expect(r.contrast?.durationS).toBe(100);
    expect(resolveContrast(r).map((x) => [x.name, x.durationS, x.flows[0]!.stopS])).toEqual([['normal', 10, 7.1], ['lfn', 100, 97.1], ['lossy', 100, 97.1]]);
  });

  it('contrast.durations gives a contrast preset its own duration; flags keep it for the lines they keep', () => {
    const r = parseRecipeText('scenarios: [ns3-lfn, ns3-lossy]\ncontrast: {scenarios: [lfn, lossy], duration: 50s, durations: {lfn: 20s}}\n', 'c.yaml');
    expect(resolveContrast(r).map((x) => [x.name, x.durationS])).toEqual([['lfn', 20], ['lossy', 50]]);
    expect(inputError(() => parseRecipeText('scenarios: [ns3-lfn]\ncontrast: {scenarios: [lfn], durations: {lossy: 20s}}\n', 'c.yaml')).message).toBe('c.yaml: contrast.durations.lossy is not a scenario of contrast.scenarios (lfn)');
    expect(inputError(() => parseRecipeText('scenarios: [ns3-lfn]\ncontrast: {scenarios: [lfn], durations: {lfn: -3s}}\n', 'c.yaml')).field).toBe('contrast.durations.lfn');
    expect(inputError(() => parseRecipeText('scenarios: [ns3-lfn]\ncontrast: {scenarios: [lfn], durations: [lfn]}\n', 'c.yaml')).field).toBe('contrast.durations');
    const kept = recipeFromReportFlags({ name: 'seed-study', scenarios: 'ns3-normal,ns3-lfn' });
    expect(kept.contrast?.durationsS).toEqual({ normal: 10 });
    expect(resolveContrast(kept).map((x) => [x.name, x.durationS])).toEqual([['normal', 10], ['lfn', 100]]);
    expect(recipeFromReportFlags({ name: 'seed-study', scenarios: 'ns3-lfn' }).contrast?.durationsS).toBeUndefined();
  });

  it("a page's recipe.json reads back as the same recipe: the same scenarios and contrast lines, resolved in full, with and without a profile", () => {
    // Without one the presets are ns-3's (PRESET_PROFILE); another replaces it in the contrast too.
    for (const [profile, resolved] of [[undefined, 'ns3'], ['linux', 'linux']] as const) {
      const r = recipeFromReportFlags({ name: 'seed-study', ...(profile ? { profile } : {}) });
      const text = JSON.stringify(resolvedRecipeData(r, resolveScenarios(r)), null, 1);
      const back = parseRecipeText(text, '/tmp/page/recipe.json');
      expect(back.contrast?.scenarios.every((s) => typeof s !== 'string')).toBe(true);
      expect(resolveScenarios(back)).toEqual(resolveScenarios(r));
      // normal keeps its 10 s through durations, keyed by the resolved scenario's name.
      expect(resolveContrast(back)).toEqual(resolveContrast(r));
      expect(resolveContrast(back).map((s) => [s.name, s.durationS, s.tcp.profile])).toEqual([['normal', 10, resolved], ['lfn', 100, resolved], ['lossy', 100, resolved]]);
      expect([back.reps, back.contrast?.reps, back.seed, back.variants, back.profile]).toEqual([10, 6, 1, r.variants, profile]);
      // Written back again, byte for byte the same file.
      expect(JSON.stringify(resolvedRecipeData(back, resolveScenarios(back)), null, 1)).toBe(text);
    }
  });

  it('a contrast names presets of the recipe\'s lines; flags that pick scenarios keep the contrast lines they hold', () => {
    expect(inputError(() => parseRecipeText('scenarios: [ns3-lfn]\ncontrast: {scenarios: [lossy]}\n', 'c.yaml')).field).toBe('contrast.scenarios[0]');
    expect(inputError(() => parseRecipeText('scenarios: [lfn]\ncontrast: {scenarios: [lfn]}\n', 'c.yaml')).field).toBe('contrast.scenarios[0]');
    expect(inputError(() => parseRecipeText('scenarios: [lfn]\ncontrast: {reps: 0, scenarios: [ns3-lfn]}\n', 'c.yaml')).message).toBe('c.yaml: contrast.reps must be a whole number in [1, 100], got 0');
    expect(inputError(() => parseRecipeText('scenarios: [lfn]\ncontrast: {colour: red}\n', 'c.yaml')).field).toBe('contrast.colour');
    const r = recipeFromReportFlags({ name: 'seed-study', scenarios: 'ns3-lossy,ns3-lfn' });
    expect(r.contrast?.scenarios).toEqual(['lfn', 'lossy']);
    expect(recipeFromReportFlags({ name: 'seed-study', scenarios: 'lossy' }).contrast).toBeUndefined();
  });

  it('profile: (or --profile) lays a behaviour profile over every scenario and the contrast; a scenario naming another profile, or an unknown one, is refused', () => {
    const r = parseRecipeText('scenarios: [ns3-lossy]\nvariants: cubic\nprofile: ns3\ncontrast: {scenarios: [lossy], durations: {lossy: 20s}}\n', 'p.yaml');
    const all = [...resolveScenarios(r), ...resolveContrast(r)];
    expect(all.map((s) => [s.name, s.durationS, s.tcp.profile, s.tcp.sackAdvanceAck, s.ccDefaults?.cubic?.cntArithmetic])).toEqual([
      ['ns3-lossy', 100, 'ns3', 'dupAck', 1],
      ['lossy', 20, 'ns3', 'dupAck', 1],
    ]);
    // Without one, the presets are ns-3's all the same (a preset means ns-3's behaviour).
    const none = parseRecipeText('scenarios: [ns3-lossy]\ncontrast: {scenarios: [lossy]}\n', 'p.yaml');
    expect([...resolveScenarios(none), ...resolveContrast(none)].map((s) => [s.name, s.tcp.profile, s.tcp.sackAdvanceAck, s.ccDefaults?.cubic?.cntArithmetic])).toEqual([
      ['ns3-lossy', 'ns3', 'dupAck', 1],
      ['lossy', 'ns3', 'dupAck', 1],
    ]);
    // Another profile replaces ns-3's everywhere (Linux's HyStart thresholds, not ns-3's).
    const linux = parseRecipeText('scenarios: [ns3-lossy, {name: own, base: lossy}]\nvariants: cubic\nprofile: linux\n', 'p.yaml');
    expect(resolveScenarios(linux).map((s) => [s.tcp.profile, s.tcp.recovery, s.ccDefaults?.cubic?.hystartNs3])).toEqual([['linux', 'prr', 0], ['linux', 'prr', 0]]);
    // The flag reaches the contrast too (it used to reach the recipe's scenarios only).
    const flagged = recipeFromReportFlags({ name: 'seed-study', profile: 'ns3' });
    expect(resolveContrast(flagged).map((s) => [s.name, s.tcp.profile])).toEqual([['normal', 'ns3'], ['lfn', 'ns3'], ['lossy', 'ns3']]);
    expect(resolveScenarios(flagged).every((s) => s.tcp.profile === 'ns3' && s.tcp.handshakeRtt === true)).toBe(true);
    expect(inputError(() => parseRecipeText('scenarios: [lossy]\nprofile: bsd\n', 'p.yaml')).message).toBe("p.yaml: profile must be one of ns3, linux, rfc, got 'bsd'");
    // The page's rerun commands carry it.
    const withProfile = rerunCommands(parseRecipeText('scenarios: [ns3-lossy]\nvariants: cubic\nprofile: ns3\n', 'p.yaml'), 'out');
    expect(withProfile.filter((c) => c.includes(' --profile ns3 '))).toHaveLength(2);
    expect(rerunCommands(none, 'out').some((c) => c.includes('--profile'))).toBe(false);
    const clash = inputError(() => parseRecipeText('scenarios: [{ name: x, base: lossy, tcp: { profile: linux } }]\nprofile: ns3\n', 'p.yaml'));
    expect(clash.message).toContain("sets tcp.profile: linux");
  });

  it('should load every recipe shipped in reports/recipes', () => {
    const files = readdirSync('reports/recipes').filter((f) => /\.(ya?ml|json)$/.test(f));
    expect(files).toContain('seed-study.yaml');
    for (const f of files) expect(loadRecipe(join('reports/recipes', f)).name).toBe(f.replace(/\.(ya?ml|json)$/, ''));
  });

  it('should accept inline scenarios over a preset and apply duration and seed to them', () => {
    const r = parseRecipeText('name: x\nscenarios:\n  - lossy\n  - { name: lossy-slow, base: lossy, bottleneck: { bandwidthBps: 500000 } }\nvariants: reno\nduration: 20s\nseed: 7\n', 'x.yaml');
    const [a, b] = resolveScenarios(r);
    expect(a!.name).toBe('lossy');
    expect(b!.name).toBe('lossy-slow');
    expect(b!.bottleneck.bandwidthBps).toBe(500000);
    expect([b!.durationS, b!.seed, b!.flows[0]!.stopS]).toEqual([20, 7, 17.1]);
  });

  it.each([
    ['name: x\nvariants: [reno, vegas]\n', 'variants[1]', 'must be one of tahoe, reno, newreno, westwood, cubic, dctcp, bbr, bbr3'],
    ['name: x\nscenarios: [lossy, mars]\n', 'scenarios[1]', 'must be a preset (normal, lfn, lossy, ns3-normal, ns3-lfn, ns3-lossy)'],
    ['name: x\nduration: 10 parsecs\n', 'duration', 'unknown unit'],
    ['name: x\nduration: 2s\n', 'duration', 'must be in (3 s'],
    ['name: x\nseed: -1\n', 'seed', 'whole number'],
    ['name: x\ncharts: [cwnd, pie]\n', 'charts[1]', 'must be one of cwnd, queue, goodput, errors, equations'],
    ['name: x\nvariant: reno\n', 'variant', 'is not a recipe field (accepted: name, title'],
    ['name: ../etc\n', 'name', "letters, digits"],
    ['name: x\nscenarios: [lossy, lossy]\n', 'scenarios', "lists 'lossy' twice"],
    ['name: x\nscenarios: [{ name: y, bottleneck: { bandwidthBps: -1 } }]\n', 'bottleneck.bandwidthBps', ''],
    ['name: [x\n', '(file)', 'is not valid YAML'],
    ['- just\n- a list\n', '(root)', 'must be a mapping'],
  ])('should reject %j naming the field', (text, field, problem) => {
    const e = inputError(() => parseRecipeText(text, 'bad.yaml'));
    expect(e.field).toBe(field);
    expect(e.problem).toContain(problem);
    expect(e.message).toMatch(/^bad\.yaml/);
  });

  it('should name the file when a recipe file cannot be read', () => {
    const e = inputError(() => loadRecipe('/nonexistent/recipe.yaml'));
    expect(e.message).toContain("cannot read file '/nonexistent/recipe.yaml' (ENOENT)");
  });

  it('should read JSON recipes by extension', () => {
    const dir = tempDir('cclab-recipe-');
    const p = join(dir, 'r.json');
    writeFileSync(p, JSON.stringify({ name: 'j', scenarios: ['lfn'], variants: ['cubic'], duration: 30 }));
    expect(loadRecipe(p)).toMatchObject({ name: 'j', scenarios: ['lfn'], variants: ['cubic'], durationS: 30, source: p });
  });

  it('should build a recipe from flags, over a base recipe, naming the flag on errors', () => {
    const base = loadRecipe('reports/recipes/seed-study.yaml');
    const r = recipeFromFlags({ scenarios: ['lossy'], variants: ['reno', 'cubic'], durationS: 20 }, base);
    expect(r).toMatchObject({ name: 'seed-study', scenarios: ['lossy'], variants: ['reno', 'cubic'], durationS: 20, seed: 1 });
    const e = inputError(() => recipeFromFlags({ variants: ['reno', 'vegas'] }));
    expect(e.message).toBe("--variants must be one of tahoe, reno, newreno, westwood, cubic, dctcp, bbr, bbr3, got 'vegas'");
  });

  it('should parse CLI flag strings (units, lists) and use reports/recipes/<name>.yaml as the base', () => {
    const r = recipeFromReportFlags({ name: 'seed-study', scenarios: 'lossy,lfn', variants: 'reno, cubic', duration: '20s', seed: '3' });
    expect(r).toMatchObject({ name: 'seed-study', scenarios: ['lossy', 'lfn'], variants: ['reno', 'cubic'], durationS: 20, seed: 3 });
    expect(r.title).toContain('packet simulation vs fluid models');
    expect(inputError(() => recipeFromReportFlags({ duration: 'soon' })).field).toBe('--duration');
    expect(inputError(() => recipeFromReportFlags({ seed: '1.5' })).field).toBe('--seed');
  });

  it('should take reps and engines from a recipe or the flags, checked with the field named', () => {
    expect(parseRecipeText('name: r\nreps: 7\nengines: [packet]\n', 'r.yaml')).toMatchObject({ reps: 7, engines: ['packet'] });
    expect(parseRecipeText('name: r\n', 'r.yaml')).toMatchObject({ reps: 1, engines: ['packet', 'fluid'] });
    expect(inputError(() => parseRecipeText('reps: 0\n', 'r.yaml')).message).toBe('r.yaml: reps must be a whole number in [1, 100], got 0');
    expect(inputError(() => parseRecipeText('engines: [ns3]\n', 'r.yaml')).field).toBe('engines[0]');
    expect(recipeFromReportFlags({ reps: '3', engines: 'fluid' })).toMatchObject({ reps: 3, engines: ['fluid'] });
    expect(inputError(() => recipeFromReportFlags({ reps: '101' })).message).toBe('--reps must be a whole number in [1, 100], got 101');
    expect(inputError(() => recipeFromReportFlags({ engines: 'packet,packet' })).field).toBe('--engines');
  });

  it('should apply the line flags (--loss, --bandwidth, ...) to every scenario of the recipe, presets recomputing their queues', () => {
    const r = recipeFromReportFlags({ scenarios: 'ns3-lossy,ns3-lfn', loss: '2%', bandwidth: '50Mbps', duration: '20s' });
    const [lossy, lfn] = resolveScenarios(r);
    expect(lossy!.bottleneck.loss.rate).toBeCloseTo(0.02, 15);
    expect(lfn!.bottleneck.loss.rate).toBeCloseTo(0.02, 15);
    expect(lossy!.bottleneck.bandwidthBps).toBe(50e6);
    expect(lossy!.durationS).toBe(20);
    // ns-3's queue rule: floor(min(10 Mbit/s access, 50 Mbit/s) / 8 x 2 x (45 + 10) ms / 400 B) + 100 = 443.
    expect(lossy!.bottleneck.queue.limitPackets).toBe(Math.floor(((10e6 / 8) * 2 * 0.055) / 400) + 100);
    expect(recipeFromReportFlags({ scenarios: 'lossy' }).scenarios).toEqual(['lossy']); // no line flag: the preset by name
  });
});
