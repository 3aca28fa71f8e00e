import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS_DIR } from '../../src/fluid/compiler/systemCache.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const tmp = () => tempDir('cclab-cmd-');

describe('cclab compare --out, predict --models', () => {
  it('compare --out DIR writes the comparisons as JSON and CSV and the table it printed', async () => {
    const out = join(tmp(), 'cmp');
    const r = await cli(['compare', '--scenario', 'ns3-lossy', '--variants', 'reno', '--duration', '10s', '--out', out]);
    expect(r.code).toBe(0);
    for (const f of ['comparison.json', 'comparison.csv', 'goodput.csv', 'comparison.txt']) expect(existsSync(join(out, f)), f).toBe(true);
    const json = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')) as { variant: string; scenario: string }[];
    expect(json.map((c) => [c.scenario, c.variant])).toEqual([['ns3-lossy', 'reno']]);
    expect(readFileSync(join(out, 'comparison.txt'), 'utf8')).toBe(r.stdout);
    expect(readFileSync(join(out, 'comparison.csv'), 'utf8').split('\n')[0]).toMatch(/^variant,scenario,packet_mean_cwnd_segments,/);
  });

  it('predict --models DIR uses that folder; a broken model file fails its own variant by name, not the others', async () => {
    const d = tmp();
    cpSync(DEFAULT_MODELS_DIR, d, { recursive: true });
    writeFileSync(join(d, 'westwood.model.yaml'), 'kind: flow\nid: westwood\ntitle: [broken\n');
    const ok = await cli(['predict', '--scenario', 'ns3-lossy', '--variant', 'reno', '--duration', '10s', '--models', d, '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).engine).toBe('fluid');
    const bad = await cli(['predict', '--scenario', 'ns3-lossy', '--variant', 'westwood', '--duration', '10s', '--models', d]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^cclab: error: westwood\.model\.yaml:\d+: /m);
    const missing = await cli(['predict', '--variant', 'reno', '--models', join(d, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('models folder not found');
  });
});
