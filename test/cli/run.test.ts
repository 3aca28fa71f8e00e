import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cclabProcess } from '../helpers/cli.js';
import { DEFAULT_MODELS_DIR } from '../../src/fluid/compiler/systemCache.js';
import { tempDir } from '../helpers/tmp.js';

const REQUIRED_KEYS = ['engine', 'variant', 'scenario', 'durationS', 'mssBytes', 'goodputBps', 'meanCwndBytes', 'meanCwndSegments', 'retransmits', 'timeouts', 'events', 'wallS'];

function withoutWall(json: Record<string, unknown>): Record<string, unknown> {
  const { wallS: _wall, ...rest } = json;
  return rest;
}

describe('cclab simulate / predict: runs', () => {
  it('simulate --json prints one object with the documented keys, reproducible by seed', async () => {
    const args = ['simulate', '--scenario', 'ns3-lossy', '--variant', 'newreno', '--duration', '20s', '--seed', '3', '--json'];
    const a = await cli(args);
    expect(a.code).toBe(0);
    const ja = JSON.parse(a.stdout) as Record<string, unknown>;
    for (const k of REQUIRED_KEYS) expect(ja).toHaveProperty(k);
    expect(ja.engine).toBe('packet');
    expect(ja.mssBytes).toBe(340);
    expect(ja.goodputBps as number).toBeGreaterThan(0);
    expect(ja.goodputBps as number).toBeLessThan(1e6 * (340 / 394));
    const b = JSON.parse((await cli(args)).stdout) as Record<string, unknown>;
    expect(withoutWall(b)).toEqual(withoutWall(ja));
    const c = JSON.parse((await cli([...args.slice(0, -2), '4', '--json'])).stdout) as Record<string, unknown>;
    expect(c.goodputBps).not.toBe(ja.goodputBps);
  });

  it('simulate --out writes the result, summary, scenario and tidy traces', async () => {
    const dir = join(tempDir('cclab-out-'), 'run');
    const r = await cli(['simulate', '--scenario', 'ns3-lossy', '--variant', 'cubic', '--duration', '10s', '--out', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/goodput\s+\d/);
    for (const f of ['result.json', 'summary.json', 'scenario.json', 'traces.csv']) expect(existsSync(join(dir, f))).toBe(true);
    const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
    expect(result.engine).toBe('packet');
    expect(result.flows[0].trace.cwndBytes.t.length).toBeGreaterThan(10);
    const csv = readFileSync(join(dir, 'traces.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe('flow,series,tS,value');
    expect(csv.some((l) => l.startsWith('0,cwndBytes,'))).toBe(true);
    expect(csv.some((l) => l.startsWith(',queuePackets,'))).toBe(true);
  });

  it('predict --json gives the same keys with engine fluid, plus the closed forms that apply (as a process)', () => {
    const r = cclabProcess(['predict', '--scenario', 'ns3-lfn', '--variant', 'reno', '--duration', '20s', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown> & { closedForm: { formula: string; appliesTo: string[] }[] };
    for (const k of REQUIRED_KEYS) expect(j).toHaveProperty(k);
    expect(j.engine).toBe('fluid');
    expect(j.closedForm.map((c) => c.formula)).toEqual(expect.arrayContaining(['mathis', 'pftk-full', 'pftk-approx']));
    for (const c of j.closedForm) expect(c.appliesTo).toContain('reno');
  });

  it('predict --stability --models DIR analyses its variant\'s model although another file in DIR is broken', async () => {
    const dir = tempDir('cclab-models-');
    cpSync(DEFAULT_MODELS_DIR, dir, { recursive: true });
    writeFileSync(join(dir, 'westwood.model.yaml'), 'kind: flow\nid: westwood\nequations: [\n');
    const r = await cli(['predict', '--scenario', 'ns3-normal', '--variant', 'newreno', '--duration', '5s', '--stability', '--json', '--models', dir]);
    expect(r.stderr).not.toMatch(/westwood/);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { stability: { regime: string; W0: number; feedback: boolean; stable: boolean } };
    expect(j.stability).toMatchObject({ regime: 'empty', feedback: false, stable: true });
    expect(j.stability.W0).toBeCloseTo(85.7, 1);
    const broken = await cli(['predict', '--scenario', 'ns3-normal', '--variant', 'westwood', '--duration', '5s', '--stability', '--models', dir]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^cclab: error: .*westwood\.model\.yaml/m);
  });
});
