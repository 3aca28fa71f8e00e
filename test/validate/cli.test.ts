import { describe, expect, it } from 'vitest';
import { gridFromFlags } from '../../src/cli/validate.js';
import { cliInputError } from '../helpers/cli.js';
import { DEFAULT_GRID } from '../../src/validate/grid.js';

const defaults = { variants: DEFAULT_GRID.variants.join(','), loss: '1e-5,1e-4,1e-3,1e-2,5e-2', rtt: '10ms,30ms,100ms,300ms', seeds: '5', seed: '1', bandwidth: '100Mbps', minLossEvents: '20', cache: false as const, out: 'x' };

const inputError = cliInputError;

describe('cclab validate flags', () => {
  it('the defaults are the issue\'s grid', () => {
    expect(gridFromFlags(defaults)).toEqual(DEFAULT_GRID);
  });
  it('bad input names the flag and the accepted range before any run starts', async () => {
    expect((await inputError(['validate', '--seeds', '0'])).message).toBe('--seeds must be a whole number in [1, 1000], got 0');
    expect((await inputError(['validate', '--loss', '0,1e-3'])).message).toBe('--loss values must be in (0, 1), got 0');
    expect((await inputError(['validate', '--rtt', '20s'])).field).toBe('--rtt');
    expect((await inputError(['validate', '--variants', 'bbr4'])).field).toBe('--variants');
    expect((await inputError(['validate', '--models', '/nonexistent-models'])).message).toBe("--models must be a folder of *.model.yaml files, got '/nonexistent-models'");
    expect((await inputError(['validate', '--shard', '3/2'])).field).toBe('--shard');
  });
});
