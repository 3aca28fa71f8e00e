import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { runSweepCli } from './helpers.js';


describe('cclab sweep', () => {
  it('--dry-run counts the grid: 9 x 8 points x 2 variants x (5 packet reps + 1 fluid) = 864 runs', async () => {
    const out = await runSweepCli(['sweep', '--variants', 'reno,cubic', '--loss', '1e-5..1e-1:log:9', '--rtt', '10ms..400ms:log:8', '--reps', '5', '--engines', 'packet,fluid', '--dry-run', '--out', '/tmp/x']);
    expect(out).toBe('72 points x 2 variants x packet+fluid = 864 runs\n');
  });
  it('--shard 2/4 --dry-run reports the shard size', async () => {
    const out = await runSweepCli(['sweep', '--variants', 'reno', '--loss', '1e-3,1e-2', '--engines', 'packet', '--reps', '2', '--shard', '2/4', '--dry-run', '--out', '/tmp/x']);
    expect(out).toMatch(/= 4 runs, 1 in shard 2\/4/);
  });
  it.each([
    [['--loss', '1e-5..1e-1:log'], '--loss'],
    [['--rtt', '10..400:log:8ms'], '--rtt'],
    [['--variants', 'vegas'], '--variants'],
    [['--engines', 'ns3'], '--engines'],
    [['--shard', '0/4'], '--shard'],
    [['--set', 'tcp.nope=1'], '--set'],
    [['--reps', '0'], '--reps'],
  ])('bad flag %j throws InputError naming %s', async (args, flag) => {
    const err = await runSweepCli(['sweep', ...args, '--dry-run', '--out', '/tmp/x']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toContain(flag);
  });
});
