import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { headlineAxis } from '../../src/runs/axes.js';
import type { SweepPlan } from '../../src/sweep/grid.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { Command } from 'commander';
import { vi } from 'vitest';
import { register } from '../../src/cli/sweep.js';

export const FAKE_ENGINE_MODULE = new URL('./fixtures/fakeEngine.ts', import.meta.url).href;

const created: string[] = [];
// Temp folders go when the importing test file ends (each file gets a fresh copy of this module).
afterAll(() => {
  for (const d of created.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function tmp(prefix = 'cclab-sweep-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  created.push(d);
  return d;
}

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

/** Runs `cclab sweep|merge ...` in-process (commander, stdout captured) and returns what it printed. */
export async function runSweepCli(args: string[]): Promise<string> {
  const program = new Command('cclab').exitOverride();
  register(program);
  for (const c of program.commands) c.exitOverride();
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  try {
    await program.parseAsync(['node', 'cclab', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out.join('');
}
