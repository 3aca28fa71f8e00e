import { describe, expect, it } from 'vitest';
import { hasEngine } from '../../src/variants.js';
import { cli } from './cliHarness.js';

/** BBR from the command line: the packet engine runs it; the commands that need a fluid model say it has none. */
describe('cclab with bbr', () => {
  it('simulate --variant bbr (also with --sack off) and --flow-variants cubic,bbr run', async () => {
    const one = await cli(['simulate', '--variant', 'bbr', '--scenario', 'normal', '--duration', '1s', '--json']);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout).goodputBps).toBeGreaterThan(1e6);
    expect((await cli(['simulate', '--variant', 'bbr', '--sack', 'off', '--duration', '1s', '--json'])).code).toBe(0);
    const mixed = await cli(['simulate', '--scenario', 'normal', '--flows', '2', '--start-stagger', '0s', '--flow-variants', 'cubic,bbr', '--duration', '1s', '--json']);
    expect(mixed.code).toBe(0);
  });

  // Generic on VariantFacts.engines: a variant gains its fluid column by gaining a model file.
  it.each(['bbr', 'bbr3'] as const)('predict --variant %s: exit 0; the fluid model, or "no model" and the closed forms', async (v) => {
    const r = await cli(['predict', '--variant', v, '--json', '--duration', '5s']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    if (hasEngine(v, 'fluid')) expect(out.status).toBe('ok');
    else {
      expect(out.status).toBe('no-model');
      expect(out.noModel).toBe(`no fluid model of ${v} yet (packet engine only)`);
    }
    // BBRv1 has its steady state (one flow); BBRv3 has no published closed form.
    expect(out.closedForm.map((c: { formula: string }) => c.formula)).toEqual(v === 'bbr' ? ['bbr-steady', 'ware-extended', 'ware-simple'] : []);
  });

  it('predict with a cubic and a bbr flow shows Ware et al.\'s share', async () => {
    const r = await cli(['predict', '--scenario', 'normal', '--flows', '2', '--start-stagger', '0s', '--flow-variants', 'bbr,cubic', '--variant', 'bbr', '--duration', '5s']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Ware et al\. 2019, extended .*: BBR share \d+\.\d% of the link/);
    expect(r.stdout).toMatch(/Ware et al\. 2019, simple .*: BBR share 50\.0% of the link/);
  });

  it('compare --variants cubic,bbr,bbr3: exit 0, a fluid cell per variant ("no model" where it has none)', async () => {
    const r = await cli(['compare', '--variants', 'cubic,bbr,bbr3', '--duration', '1s']);
    expect(r.code).toBe(0);
    for (const v of ['cubic', 'bbr', 'bbr3'] as const) {
      const row = r.stdout.split('\n').find((l) => new RegExp(`^normal\\s+${v}\\s`).test(l))!;
      const fluid = row.trim().split(/\s{2,}/)[3];
      if (hasEngine(v, 'fluid')) expect(fluid).toMatch(/bit\/s$/);
      else expect(fluid).toBe('no model');
    }
  });

  it('bad BBR knobs name the flag and the range', async () => {
    const r = await cli(['simulate', '--variant', 'bbr', '--cc-param', 'highGain=0']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('cclab: error: --cc-param highGain must be in [1.01, 10] (ratio), got 0');
    const w = await cli(['simulate', '--variant', 'bbr', '--cc-param', 'bwWindowRounds=0']);
    expect(w.stderr.trim()).toBe('cclab: error: --cc-param bwWindowRounds must be in [1, 1000] (count), got 0');
  });

  it('list shows bbr and bbr3 as rate-based with both engines (models/bbr.model.yaml, models/bbr3.model.yaml)', async () => {
    const r = await cli(['list', 'variants']);
    expect(r.stdout).toMatch(/^bbr\s+rate\s+RFC 6675 SACK; NewReno partial ACKs \(RFC 6582\)\s+packet, fluid\s/m);
    expect(r.stdout).toMatch(/^bbr3\s+rate\s+RFC 6675 SACK; NewReno partial ACKs \(RFC 6582\)\s+packet, fluid\s/m);
  });

  it('predict runs the BBR fluid model: one flow fills the link', async () => {
    const r = await cli(['predict', '--variant', 'bbr', '--bandwidth', '10Mbps', '--delay', '15ms', '--duration', '20s', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { status: string; goodputBps: number; mssBytes: number };
    expect(j.status).toBe('ok');
    // The normal preset (MSS 340, p = 1e-4), measured from t = 0, STARTUP and DRAIN included: 80% of
    // the link's payload rate (BBR ignores the random loss).
    expect(j.goodputBps / ((10e6 * j.mssBytes) / (j.mssBytes + 40))).toBeGreaterThan(0.75);
  });

  it('predict --stability on bbr: no equilibrium (hybrid), the limit cycle from the model instead', async () => {
    const r = await cli(['predict', '--variant', 'bbr', '--bandwidth', '10Mbps', '--delay', '15ms', '--duration', '20s', '--stability', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { stability: { reason: string; limitCycle: { periodS: number; queueMaxPackets: number } } };
    expect(j.stability.reason).toMatch(/hybrid model/);
    expect(j.stability.limitCycle.periodS).toBeGreaterThan(0);
    expect(j.stability.limitCycle.queueMaxPackets).toBeGreaterThan(0);
  });
});
