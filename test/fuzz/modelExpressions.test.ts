import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { DEFAULT_MODELS_DIR, loadModels } from '../../src/fluid/index.js';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { FUZZ_FLOW_MODEL, FUZZ_SEED, modelEquation, modelExtraKeys } from './arbitraries.js';
import { sandbox } from './harness.js';

/**
 * Random model expressions (trees of numbers, declared and unknown symbols, operators, allowed,
 * unknown and prototype-named functions, delayed values with random lags, plus raw text and
 * pathological sizes) as a flow model's equation, and random top-level keys: loading the models
 * either succeeds or throws an InputError located at file:line; a model that loads runs to a result
 * (ok, or failed with the reason), in bounded time. Never a RangeError or a TypeError.
 */
describe('fuzz: model expressions', () => {
  it('100 random flow models: load or InputError at file:line; loaded ones run to a result; no RangeError', async () => {
    const root = sandbox('cclab-fuzz-models-');
    copyFileSync(join(DEFAULT_MODELS_DIR, 'bottleneck.model.yaml'), join(root, 'bottleneck.model.yaml'));
    let n = 0;
    let loaded = 0;
    await fc.assert(
      fc.asyncProperty(modelEquation, modelExtraKeys, async (eq, extra) => {
        const d = join(root, `m${n++}`);
        mkdirSync(d);
        copyFileSync(join(root, 'bottleneck.model.yaml'), join(d, 'bottleneck.model.yaml'));
        writeFileSync(join(d, 'reno.model.yaml'), FUZZ_FLOW_MODEL(eq, extra));
        const t0 = performance.now();
        let models;
        try {
          models = loadModels(d);
        } catch (e) {
          if (!(e instanceof InputError)) throw new Error(`${(e as Error).name}: ${(e as Error).message}\n  for dW/dt = ${eq}`);
          expect(e.message).toMatch(/^reno\.model\.yaml(:\d+)?: \S/);
          expect(performance.now() - t0).toBeLessThan(2000);
          return;
        }
        loaded++;
        // The future and unprovable lags never load.
        expect(eq).not.toMatch(/\((t \+ 1|2 \* t|t - m|t - \(R - 1\))\)/);
        const r = runFluid({ ...presetScenario('ns3-lfn', 'reno', { durationS: 1 }), variant: 'reno' }, { models });
        if (r.status === 'failed') expect(r.failure).toMatch(/^fluid model 'reno' failed: .+/);
        else expect(Number.isFinite(r.summary.meanCwndSegments)).toBe(true);
        expect(performance.now() - t0).toBeLessThan(5000);
      }),
      { seed: FUZZ_SEED, numRuns: 100 },
    );
    expect(loaded).toBeGreaterThan(5);
  });
});
