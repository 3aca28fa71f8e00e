import { readFileSync } from 'node:fs';
import { headlineAxis } from '../../src/runs/axes.js';
import type { SweepPlan } from '../../src/sweep/grid.js';
import { presetScenario } from '../../src/scenario/presets.js';

export const FAKE_ENGINE_MODULE = new URL('./fixtures/fakeEngine.js', import.meta.url).href;

/** Temp folders: the tests' one helper (test/helpers/tmp.ts), under the name the sweep tests use. */
export { tempDir as tmp } from '../helpers/tmp.js';

/** A small loss x RTT plan: 3 x 2 points, 2 variants, 2 engines, 3 reps → 3*2*2*(3+1) = 48 runs. */
export function smallPlan(over: Partial<SweepPlan> = {}): SweepPlan {
  return {
    base: presetScenario('ns3-lfn', 'reno', { durationS: 5 }),
    axes: [headlineAxis('loss', '1e-4..1e-2:log:3'), headlineAxis('rtt', '20ms,200ms')],
    variants: ['reno', 'cubic'],
    engines: ['packet', 'fluid'],
    reps: 3,
    seed: 42,
    ...over,
  };
}

export const read = (p: string): string => readFileSync(p, 'utf8');
