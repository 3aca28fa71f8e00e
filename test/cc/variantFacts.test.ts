import { describe, expect, it } from 'vitest';
import { basename, join } from 'node:path';
import { createCongestionControl, getCongestionControl } from '../../src/cc/registry.js';
import { DEFAULT_MODELS_DIR } from '../../src/fluid/compiler/modelSet.js';
import { readModelFile } from '../../src/fluid/language/modelFile.js';
import { countsSegments, hasEngine, recoveryStyle, VARIANT_FACTS, VARIANTS, type Variant } from '../../src/variants.js';
import { makeTcb, MSS, runRounds } from './helpers.js';

/** Congestion-avoidance growth over 20 loss-free rounds from 20 segments, with `segsPerAck` segments per ACK. */
function caGrowth(v: Variant, params: Record<string, number>, segsPerAck: number): number {
  const cc = createCongestionControl(v, params);
  const tcb = makeTcb({ cwndBytes: 20 * MSS, ssthreshBytes: 10 * MSS });
  runRounds(cc, tcb, 20, { rttS: 0.1, segsPerAck });
  return tcb.cwndBytes / MSS - 20;
}

describe('variant registry (src/variants.ts)', () => {
  it('has an entry for every variant', () => {
    expect(Object.keys(VARIANT_FACTS).sort()).toEqual([...VARIANTS].sort());
  });

  it('needsEcn is the algorithm\'s own (the cc registry), so defaults leave out what a default scenario cannot run', () => {
    for (const v of VARIANTS) expect([v, VARIANT_FACTS[v].needsEcn === true]).toEqual([v, getCongestionControl(v).needsEcn === true]);
  });

  // Window growth only: a rate-based algorithm (bbr) grows cwnd toward its BDP target, not per ACK.
  it.each(VARIANTS.filter((v) => createCongestionControl(v).congControl === undefined).flatMap((v) => {
    const p = VARIANT_FACTS[v].countingParam;
    return p ? [[v, {}], [v, { [p]: 1 }]] : [[v, {}]];
  }) as [Variant, Record<string, number>][])(
    "%s %o: the counting rule is what the algorithm does (delayed ACKs slow only per-ACK growth)",
    (v, params) => {
      const ratio = caGrowth(v, params, 2) / caGrowth(v, params, 1);
      if (countsSegments(v, params)) expect(ratio).toBeGreaterThan(0.9);
      else expect(ratio).toBeLessThan(0.6);
    },
  );

  it.each(VARIANTS.flatMap((v) => {
    const p = VARIANT_FACTS[v].recoveryParam;
    return p ? [[v, {}], [v, { [p]: 0 }], [v, { [p]: 1 }]] : [[v, {}]];
  }) as [Variant, Record<string, number>][])(
    '%s %o: the recovery style the fluid models read is the one the packet sender runs',
    (v, params) => {
      expect(recoveryStyle(v, params)).toBe(createCongestionControl(v, params).recovery);
    },
  );

  it.each([...VARIANTS])("%s: 'control' says whether the algorithm sets cwnd and pacing itself (the congControl hook)", (v) => {
    expect(VARIANT_FACTS[v].control).toBe(createCongestionControl(v).congControl === undefined ? 'window' : 'rate');
  });

  it("fluid models' copies of an algorithm's knobs have its defaults and admit its whole range", () => {
    let shared = 0;
    for (const v of VARIANTS.filter((x) => hasEngine(x, 'fluid'))) {
      const model = readModelFile(join(DEFAULT_MODELS_DIR, `${v}.model.yaml`));
      for (const spec of getCongestionControl(v).params) {
        const decl = model.params.find((p) => p.name === spec.name && !p.scenario);
        if (!decl) continue;
        shared++;
        const where = `${basename(model.path)} ${spec.name}`;
        expect(decl.default, where).toBe(spec.default);
        expect(decl.min, where).toBeLessThanOrEqual(spec.min);
        expect(decl.max, where).toBeGreaterThanOrEqual(spec.max);
      }
    }
    // CUBIC's c, beta, fastConvergence and Westwood+'s segmentCounting at least.
    expect(shared).toBeGreaterThanOrEqual(4);
  });
});
