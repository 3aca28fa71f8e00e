import { describe, expect, it } from 'vitest';
import { cli, cliOk } from '../helpers/cli.js';
import { tmp } from './helpers.js';


describe('cclab sweep', () => {
  it('--dry-run counts the grid: 9 x 8 points x 2 variants x (5 packet reps + 1 fluid) = 864 runs, without --out', async () => {
    const out = await cliOk(['sweep', '--variants', 'reno,cubic', '--loss', '1e-5..1e-1:log:9', '--rtt', '10ms..400ms:log:8', '--reps', '5', '--engines', 'packet,fluid', '--dry-run', '--cache', tmp()]);
    const lines = out.trim().split('\n');
    expect(lines[0]).toBe('72 points x 2 variants x packet+fluid = 864 runs');
    expect(lines[1]).toMatch(/^864 distinct \(identical runs share one result\): 0 cached in .*, 864 to compute$/);
    expect(lines[2]).toMatch(/^estimated time: .+ on \d+ workers? \(from a rate model/);
  });
  it('--dry-run counts cached runs and estimates the rest from their wall time', async () => {
    const cache = tmp();
    const args = ['sweep', '--variants', 'reno', '--engines', 'fluid', '--loss', '1e-3,1e-2', '--scenario', 'ns3-lfn', '--duration', '10s', '--workers', '0', '--cache', cache];
    await cliOk([...args, '--quiet', '--no-report', '--out', tmp()]);
    const cachedAll = (await cliOk([...args, '--dry-run'])).trim().split('\n');
    expect(cachedAll[1]).toMatch(/^2 distinct .*: 2 cached in .*, 0 to compute$/);
    expect(cachedAll[2]).toMatch(/^estimated time: 0 s on 1 worker \(everything is cached\)$/);
    const wider = (await cliOk([...args.map((a) => (a === '1e-3,1e-2' ? '1e-3,1e-2,3e-2' : a)), '--dry-run'])).trim().split('\n');
    expect(wider[1]).toMatch(/^3 distinct .*: 2 cached in .*, 1 to compute$/);
    expect(wider[2]).toContain('from the wall time of cached runs of the same engines');
  });
  it('needs --out unless --dry-run', async () => {
    const r = await cli(['sweep', '--variants', 'reno', '--engines', 'fluid', '--loss', '1e-3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^cclab: error: --out /);
  });
  it('--shard 2/4 --dry-run reports the shard size', async () => {
    const out = await cliOk(['sweep', '--variants', 'reno', '--loss', '1e-3,1e-2', '--engines', 'packet', '--reps', '2', '--shard', '2/4', '--dry-run', '--out', '/tmp/x']);
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
  ])('bad flag %j exits 2 with one line naming %s', async (args, flag) => {
    const r = await cli(['sweep', ...args, '--dry-run', '--out', '/tmp/x']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`^cclab: error: ${flag.replace(/[-]/g, '\\-')}`));
  });
});
