import { InputError } from '../errors.js';
import { check, int, type Schema } from '../scenario/schema.js';
import { validateScenario } from '../scenario/check/validate.js';
import { ENGINES, VARIANTS } from '../variants.js';
import type { SweepPlan } from './grid.js';
import { planHash } from './grid.js';

/**
 * The shape of sweep.json as `cclab merge` reads it back. A hand-edited or truncated file is an
 * InputError naming the sweep.json field (`plan.reps`), never a flag the user did not give.
 */
const AXIS: Schema = {
  kind: 'object',
  fields: {
    name: { kind: 'string' },
    flag: { kind: 'string' },
    path: { kind: 'string' },
    unit: { kind: 'enum', values: ['number', 'duration', 'rate', 'integer', 'string', 'boolean'] },
    label: { kind: 'string' },
    stage: int(0, 100),
    values: { kind: 'array', items: { kind: 'scalar' }, minItems: 1, maxItems: 10_000_000 },
  },
  optional: ['path'],
};

const MANIFEST: Schema = {
  kind: 'object',
  fields: {
    format: { kind: 'enum', values: ['cclab-sweep/1'] },
    planHash: { kind: 'string' },
    plan: {
      kind: 'object',
      fields: {
        // The base scenario is checked by validateScenario, after the shape.
        base: { kind: 'record', value: { kind: 'any' } },
        axes: { kind: 'array', items: AXIS, minItems: 0, maxItems: 1000 },
        variants: { kind: 'array', items: { kind: 'enum', values: VARIANTS }, minItems: 1, maxItems: VARIANTS.length },
        engines: { kind: 'array', items: { kind: 'enum', values: ENGINES }, minItems: 1, maxItems: ENGINES.length },
        reps: int(1, Number.MAX_SAFE_INTEGER),
        seed: int(0, 2 ** 32 - 1),
      },
    },
    shard: { kind: 'object', nullable: true, fields: { index: int(1, Number.MAX_SAFE_INTEGER), count: int(1, Number.MAX_SAFE_INTEGER) } },
    runs: int(0, Number.MAX_SAFE_INTEGER),
    failed: int(0, Number.MAX_SAFE_INTEGER),
  },
};

/**
 * Checks a parsed sweep.json: its shape, the base scenario, that its plan still hashes to the
 * planHash written with it (an edit shows), and that the plan names no variant or engine twice.
 * @param source the file, for messages (`shard1/sweep.json`).
 */
export function checkManifest(raw: unknown, source: string): { plan: SweepPlan; planHash: string; shard: { index: number; count: number } | null } {
  check(raw, MANIFEST, '', source);
  const m = raw as { plan: SweepPlan; planHash: string; shard: { index: number; count: number } | null };
  validateScenario(m.plan.base, `${source}: plan.base`);
  for (const key of ['variants', 'engines'] as const) {
    const list = m.plan[key] as readonly string[];
    const dup = list.find((v, i) => list.indexOf(v) !== i);
    if (dup !== undefined) throw new InputError(`plan.${key}`, `lists '${dup}' twice`, source);
  }
  if (m.shard && m.shard.index > m.shard.count) throw new InputError('shard.index', `must not exceed shard.count (${m.shard.count}), got ${m.shard.index}`, source);
  const actual = planHash(m.plan);
  if (actual !== m.planHash) {
    throw new InputError('planHash', `is ${m.planHash}, but the plan in this file hashes to ${actual}: sweep.json was edited; re-run the shard`, source);
  }
  return m;
}
