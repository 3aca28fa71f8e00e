import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { DEFAULT_MODELS_DIR, modelFileIds, modelSystems, prepareSystems, systemStats, withoutInProcessCompiler } from '../../src/fluid/compiler/systemCache.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { tempDir } from '../helpers/tmp.js';

// The first test runs as a process that has not loaded the compiler (compiler/compileFiles.ts): its
// miss compiles in a child process, as for a library user who calls runFluid without the CLI
// preparing the models (under npm test the compiler is not loaded yet; in test:quick's shared module
// graph another file may have loaded it, and withoutInProcessCompiler sets it aside). The later tests
// load the compiler (a child process start costs seconds).

const made: string[] = [];
const tmp = (p: string) => {
  const d = tempDir(p);
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function modelsCopy(): string {
  const d = tmp('cclab-models-');
  cpSync(DEFAULT_MODELS_DIR, d, { recursive: true });
  return d;
}

describe('compiled fluid systems, cached on disk by content', () => {
  const cacheDir = tmp('cclab-syscache-');

  it('compiles a miss in one child process (with the other uncached models of the directory), stores them, and serves copies of the same files from disk', () => {
    const a = modelsCopy();
    const before = { ...systemStats };
    const sa = withoutInProcessCompiler(() => modelSystems(a, { cacheDir }).system('reno'));
    expect(systemStats.compiledInChild - before.compiledInChild).toBe(modelFileIds(DEFAULT_MODELS_DIR).length);
    const files = readdirSync(cacheDir).sort();
    expect(files.map((f) => f.replace(/-[0-9a-f]{32}\.json$/, ''))).toEqual(modelFileIds(DEFAULT_MODELS_DIR));
    // Same bytes in another directory: read from disk, not compiled; paths are the new directory's.
    const b = modelsCopy();
    const sb = modelSystems(b, { cacheDir }).system('reno');
    expect(systemStats.disk - before.disk).toBe(1);
    expect(systemStats.compiledInChild - before.compiledInChild).toBe(modelFileIds(DEFAULT_MODELS_DIR).length);
    expect(sb.source).toEqual(sa.source);
    expect(sb.flow.path).toBe(join(b, 'reno.model.yaml'));
    // And a third call in this process comes from memory.
    expect(modelSystems(b, { cacheDir }).system('reno')).toBe(sb);
  });

  it('gives the same fluid run from a cached system as from a fresh compile (byte-identical summary and traces)', async () => {
    await import('../../src/fluid/compiler/compileFiles.js');
    const s = presetScenario('ns3-lfn', 'reno', { durationS: 20 });
    const fresh = runFluid(s, { models: modelSystems(modelsCopy(), { cacheDir: null }) });
    const cached = runFluid(s, { models: modelSystems(modelsCopy(), { cacheDir }) });
    const strip = (r: typeof fresh) => JSON.stringify({ ...r, spec: null, stats: null });
    expect(strip(cached)).toBe(strip(fresh));
    expect(fresh.summary.goodputBps).toBeGreaterThan(0);
  });

  it('recompiles exactly the model whose file changed', () => {
    const d = modelsCopy();
    modelSystems(d, { cacheDir }).system('reno');
    const path = join(d, 'reno.model.yaml');
    writeFileSync(path, readFileSync(path, 'utf8') + '\n# an edit\n');
    const before = systemStats.compiledHere;
    modelSystems(d, { cacheDir }).system('reno');
    expect(systemStats.compiledHere - before).toBe(1);
    // reno's entries, not reno-sawtooth's: `reno-<32 hex digits>.json`.
    expect(readdirSync(cacheDir).filter((f) => /^reno-[0-9a-f]{32}\.json$/.test(f))).toHaveLength(2);
  });

  it('reports a broken model file by name and line without breaking the other models', async () => {
    const d = modelsCopy();
    writeFileSync(join(d, 'westwood.model.yaml'), readFileSync(join(d, 'westwood.model.yaml'), 'utf8').replace(/^equations:\n/m, 'equations:\n  - dQ/dt = 1\n'));
    const models = modelSystems(d, { cacheDir });
    let err: unknown;
    try {
      models.system('westwood');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(/^westwood\.model\.yaml:\d+: /);
    expect(models.system('cubic').flow.id).toBe('cubic');
    await expect(prepareSystems(d, ['westwood'], { cacheDir })).rejects.toThrow(/westwood\.model\.yaml/);
  });

  it('names what is missing: the directory, the bottleneck, or the variant (with the models it has)', () => {
    expect(() => modelSystems(join(tmpdir(), 'no-such-models-dir')).system('reno')).toThrow(/models folder not found/);
    const d = modelsCopy();
    rmSync(join(d, 'tahoe.model.yaml'));
    expect(() => modelSystems(d, { cacheDir }).system('tahoe')).toThrow(new RegExp(`variant has no fluid model 'tahoe' in .* \\(have: ${modelFileIds(DEFAULT_MODELS_DIR).filter((m) => m !== 'tahoe').join(', ')}\\)`));
    rmSync(join(d, 'bottleneck.model.yaml'));
    expect(() => modelSystems(d, { cacheDir }).system('reno')).toThrow(/bottleneck\.model\.yaml is missing/);
    expect(existsSync(cacheDir)).toBe(true);
  });
});
