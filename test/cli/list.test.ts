import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONE_FLOW_MODELS, STEP_QUEUE_MODELS } from '../../src/fluid/run/modelChoice.js';
import { CONGESTION_CONTROLS } from '../../src/cc/registry.js';
import { DEFAULT_MODELS_DIR } from '../../src/fluid/compiler/systemCache.js';
import { PRESET_NAMES } from '../../src/scenario/presets.js';
import { fluidVariants, VARIANTS } from '../../src/variants.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('cclab list', () => {
  it('list presets names every preset with its tightest link', async () => {
    const r = await cli(['list', 'presets', '--json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as { name: string; tightestLink: string; accessBps: number; bottleneckBps: number }[];
    expect(rows.map((x) => x.name)).toEqual([...PRESET_NAMES]);
    for (const x of rows) expect(x.tightestLink).toBe(x.accessBps < x.bottleneckBps ? 'access' : 'bottleneck');
    // ns-3's example puts a 10 Mbit/s access link in front of every line; the study's lines are their own bottleneck.
    expect(rows.filter((x) => x.tightestLink === 'access').map((x) => x.name)).toEqual(['ns3-normal', 'ns3-lfn']);
  });
  it('list params gives every cc-param of the registry with its default and range', async () => {
    const rows = JSON.parse((await cli(['list', 'params', '--json'])).stdout) as { variant: string; name: string; default: number; min: number; max: number }[];
    const expected = VARIANTS.flatMap((v) => CONGESTION_CONTROLS[v].params.map((p) => ({ variant: v, name: p.name, default: p.default, min: p.min, max: p.max })));
    expect(rows.map(({ variant, name, default: d, min, max }) => ({ variant, name, default: d, min, max }))).toEqual(expected);
    expect((await cli(['list', 'params'])).stdout).toMatch(/^cubic\s+hystart\s+1\s+\[0, 1\]\s+flag/m);
  });
  it('list models reports a broken file by name and still lists the others; exit 1', async () => {
    const d = tempDir('cclab-list-');
    cpSync(DEFAULT_MODELS_DIR, d, { recursive: true });
    writeFileSync(join(d, 'tahoe.model.yaml'), readFileSync(join(d, 'tahoe.model.yaml'), 'utf8').replace(/^id: tahoe$/m, 'id: Tahoe!'));
    const r = await cli(['list', 'models', '--models', d]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^reno\s+mean-field\s+ok\s/m);
    expect(r.stdout).toMatch(/^tahoe\s+–\s+ERROR\s+tahoe\.model\.yaml:\d+: id must be a lowercase id/m);
    expect(r.stdout).toContain('1 model file cannot be used (the others can)');
    const ok = await cli(['list', 'models']);
    expect(ok.code).toBe(0);
    // Every variant's model and the models the engine's rules pick (src/fluid/run/modelChoice.ts).
    expect(ok.stdout.match(/\sok\s/g)).toHaveLength(fluidVariants().length + Object.keys(LONE_FLOW_MODELS).length + Object.keys(STEP_QUEUE_MODELS).length);
    expect(ok.stdout).toMatch(/^reno-sawtooth\s+hybrid\s+ok\s/m);
  });
  it('rejects an unknown topic', async () => {
    const r = await cli(['list', 'moons']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/value 'moons' is invalid for argument 'what'. Allowed choices are presets, variants, params, models/);
  });
});
