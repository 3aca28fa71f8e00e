import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { REPORT_MARKER, writeDirAtomic } from '../../src/report/atomicDir.js';
import { validateRecipe } from '../../src/report/recipe.js';
import { writeReport } from '../../src/report/write.js';
import { fakeEngines } from './fakeEngines.js';
import { childModule } from '../helpers/childModule.js';
import { tempDir } from '../helpers/tmp.js';

const recipe = validateRecipe({ name: 'atomic', scenarios: ['ns3-lossy'], variants: ['reno'], duration: 10, charts: ['goodput'] });

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

describe('atomic report writing', () => {
  it('should leave the old report intact when writing fails before the commit', async () => {
    const parent = tempDir('cclab-atomic-');
    const out = join(parent, 'r');
    await writeReport(recipe, out, { engines: fakeEngines, models: null });
    const before = readFileSync(join(out, 'index.html'), 'utf8');
    const crash = writeReport({ ...recipe, title: 'second' }, out, {
      engines: fakeEngines,
      models: null,
      beforeCommit: (tmp) => {
        expect(readFileSync(join(tmp, 'index.html'), 'utf8')).toContain('second');
        throw new Error('simulated crash');
      },
    });
    await expect(crash).rejects.toThrow('simulated crash');
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe(before);
    expect(readdirSync(parent)).toEqual(['r']); // no temp directory left behind
  });

  it('should survive a process killed mid-write: old report intact, leftovers cleaned by the next write', () => {
    const parent = tempDir('cclab-atomic-');
    const out = join(parent, 'r');
    writeDirAtomic(out, new Map([['index.html', 'old report'], ['goodput.csv', 'a\n1\n']]));
    // A child process writes a new report and is SIGKILLed after its temp dir is complete, before the rename.
    const atomicDir = childModule('report/atomicDir');
    const script = `
      import { writeDirAtomic } from ${JSON.stringify(atomicDir.url)};
      writeDirAtomic(${JSON.stringify(out)}, new Map([['index.html', 'new report']]), { beforeCommit: () => process.kill(process.pid, 'SIGKILL') });
    `;
    const r = spawnSync(process.execPath, [...atomicDir.execArgv, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.signal).toBe('SIGKILL');
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('old report');
    expect(readdirSync(parent).some((e) => e.startsWith('.r.tmp-'))).toBe(true); // the dead writer's temp dir
    writeDirAtomic(out, new Map([['index.html', 'third']]));
    expect(readdirSync(parent)).toEqual(['r']);
    expect(files(out)).toEqual([REPORT_MARKER, 'index.html']); // replaced as a whole: goodput.csv is gone
  });

  it('should put the old report back if a writer died between its two renames', () => {
    const parent = tempDir('cclab-atomic-');
    const out = join(parent, 'r');
    // A dead writer (pid 999999999 is above any Linux pid_max, so never alive) left only the old copy.
    const old = join(parent, '.r.old-999999999-x');
    mkdirSync(old);
    writeFileSync(join(old, 'index.html'), 'old');
    writeFileSync(join(old, REPORT_MARKER), '');
    writeDirAtomic(out, new Map([['index.html', 'new']]), {
      beforeCommit: () => {
        expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('old'); // restored before the new one went in
      },
    });
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('new');
    expect(existsSync(old)).toBe(false);
  });

  it('should refuse to replace a directory that is not a cclab report', () => {
    const parent = tempDir('cclab-atomic-');
    writeFileSync(join(parent, 'precious.txt'), 'keep me');
    expect(() => writeDirAtomic(parent, new Map([['index.html', 'x']]))).toThrow(InputError);
    expect(readFileSync(join(parent, 'precious.txt'), 'utf8')).toBe('keep me');
  });
});
