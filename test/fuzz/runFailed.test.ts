import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFluidEngine } from '../../src/engines.js';
import { cli } from './harness.js';

/**
 * A failed solve is not a success: predict (table or --json) prints the result and exits 3 with one
 * line naming the failure (issue 12: `predict --json` exited 0). The fluid engine is replaced by one
 * that returns the real engine's failed result for a model that blows up.
 */
beforeAll(() =>
  wrapFluidEngine((real) => (s, opts) => {
    const r = real({ ...s, durationS: 1 }, opts);
    return { ...r, status: 'failed' as const, failure: "fluid model 'reno' failed: non-finite state (the model blew up): W = NaN at t = 0.500000" };
  }),
);
afterAll(() => wrapFluidEngine(undefined));

describe('exit code 3: a run that finished as failed', () => {
  it.each([[[]], [['--json']]])('predict %j exits 3 with one "run failed" line naming the component', async (extra) => {
    const r = await cli(['predict', '--scenario', 'ns3-lfn', '--duration', '1s', ...extra]);
    expect(r.code).toBe(3);
    const errors = r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('cclab: warning: '));
    expect(errors).toEqual(["cclab: error: run failed: fluid model 'reno' failed: non-finite state (the model blew up): W = NaN at t = 0.500000"]);
    if (extra.length > 0) expect(JSON.parse(r.stdout).status).toBe('failed');
    else expect(r.stdout).toMatch(/status\s+failed: fluid model 'reno' failed/);
  });
  it('a later successful command in the same process exits 0 (the exit code does not leak)', async () => {
    expect((await cli(['predict', '--scenario', 'ns3-lfn', '--duration', '1s', '--json'])).code).toBe(3);
    expect((await cli(['simulate', '--print-scenario'])).code).toBe(0);
  });
});
