import { describe, expect, it } from 'vitest';
import { runComparison, type EngineSet } from '../../src/compare/index.js';
import { InputError } from '../../src/errors.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { hasEngine, VARIANTS } from '../../src/variants.js';
import { fakeEngines } from '../report/fakeEngines.js';

describe('runComparison', () => {
  const lossy = presetScenario('ns3-lossy', 'reno', { durationS: 10 });
  const lfn = presetScenario('ns3-lfn', 'reno', { durationS: 10 });

  it('should run both engines on every scenario x variant, replacing the variant, with progress per run', async () => {
    const progress: string[] = [];
    const cases = await runComparison([lossy, lfn], ['reno', 'cubic'], { engines: fakeEngines, onProgress: (d, t, l) => progress.push(`${d}/${t} ${l}`) });
    expect(cases.map((c) => `${c.scenario.name}/${c.comparison.variant}/${c.packet.variant}/${c.fluid.variant}`)).toEqual(['ns3-lossy/reno/reno/reno', 'ns3-lossy/cubic/cubic/cubic', 'ns3-lfn/reno/reno/reno', 'ns3-lfn/cubic/cubic/cubic']);
    expect(progress[0]).toBe('0/8 starting');
    expect(progress.at(-1)).toBe('8/8 ns3-lfn cubic fluid');
    expect(cases[0]!.closed.map((c) => c.formula)).toEqual(['mathis']);
  });

  it('should turn an engine that throws into a failed, flagged run and keep going', async () => {
    const broken: EngineSet = { ...fakeEngines, runFluid: () => { throw new Error('step size underflow'); } };
    const [c] = await runComparison([lossy], ['reno'], { engines: broken });
    expect(c!.fluid.status).toBe('failed');
    expect(c!.fluid.failure).toBe('step size underflow');
    expect(c!.comparison.flags[0]).toMatchObject({ code: 'run-failed', subject: 'fluid' });
    expect(c!.comparison.relErr.goodput).toBeNull();
  });

  it('should flag closed forms that throw on the case (shown in the compare table and the report), not drop them silently', async () => {
    const broken: EngineSet = { ...fakeEngines, closedForms: () => { throw new RangeError('pftk: T0 is NaN'); } };
    const [c] = await runComparison([lossy], ['reno'], { engines: broken });
    expect(c!.closed).toEqual([]);
    expect(c!.comparison.flags).toContainEqual({ code: 'run-failed', severity: 'invalid', subject: 'closed-form', message: 'closed forms failed: pftk: T0 is NaN' });
    const { formatComparisonTable } = await import('../../src/cli/compare.js');
    expect(formatComparisonTable([c!.comparison])).toMatch(/\[\d\] closed-form: closed forms failed: pftk: T0 is NaN/);
    const picky: EngineSet = { ...fakeEngines, closedForms: () => { throw new InputError('tcp.minRtoS', 'must be > 0'); } };
    await expect(runComparison([lossy], ['reno'], { engines: picky })).rejects.toBeInstanceOf(InputError);
  });

  it('should let bad input through as InputError (the user must fix it, it is no model failure)', async () => {
    const picky: EngineSet = { ...fakeEngines, runPacket: () => { throw new InputError('ccParams.beta', 'must be in (0, 1), got 2'); } };
    await expect(runComparison([lossy], ['cubic'], { engines: picky })).rejects.toBeInstanceOf(InputError);
  });

  // Generic on VariantFacts.engines: whichever variants have no model file yet.
  const unmodelled = VARIANTS.filter((v) => !hasEngine(v, 'fluid'));
  it.skipIf(unmodelled.length === 0)('a variant without a fluid model: "no model" (not a failure), the fluid engine not called, one info flag', async () => {
    let fluidCalls = 0;
    const counting: EngineSet = { ...fakeEngines, runFluid: (s) => (fluidCalls++, fakeEngines.runFluid(s)) };
    const v = unmodelled[0]!;
    const [c] = await runComparison([presetScenario('normal', v, { durationS: 10 })], [v], { engines: counting });
    expect(fluidCalls).toBe(0);
    expect(c!.comparison.fluid.status).toBe('no-model');
    expect(c!.comparison.fluidTrusted).toBe(false);
    expect(c!.comparison.flags.filter((f) => f.subject === 'fluid')).toEqual([{ code: 'no-model', severity: 'info', subject: 'fluid', message: `no fluid model of ${v} yet (packet engine only)` }]);
    const { formatComparisonTable } = await import('../../src/cli/compare.js');
    expect(formatComparisonTable([c!.comparison]).split('\n')[1]).toMatch(/\sno model\s/);
    // A modelled variant in the same run still gets its fluid run.
    const [m] = await runComparison([presetScenario('normal', 'reno', { durationS: 10 })], ['reno'], { engines: counting });
    expect(fluidCalls).toBe(1);
    expect(m!.comparison.fluid.status).toBe('ok');
  });
});
