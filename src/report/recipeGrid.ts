import { InputError } from '../errors.js';
import { parseScenarioText } from '../scenario/check/load.js';
import { validateScenario } from '../scenario/check/validate.js';
import { bdpPackets } from '../scenario/path.js';
import type { Scenario } from '../scenario/types.js';
import type { Variant } from '../variants.js';

/**
 * `grid:` in a recipe: one base scenario, a list of flow mixes and a list of bottleneck buffers in
 * BDPs, expanded into one scenario per mix x buffer (named `<mix>-<X>bdp`). A flow that names no
 * variant runs the recipe's variant, so `variants: [bbr, bbr3]` runs every mix with each. The buffer
 * is X times flow 0's bandwidth-delay product (tightest link x propagation RTT), rounded to whole
 * packets (at least one). The buffer and share sections (src/report/bufferSweep.ts) read the
 * expanded scenarios back, so a grid needs nothing else from the report.
 */
export interface RecipeGrid {
  base: Record<string, unknown>;
  bufferBdp: number[];
  mixes: Record<string, Record<string, unknown>[]>;
}

const GRID_KEYS = ['base', 'bufferBdp', 'mixes'] as const;
const MIX_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Largest buffer a grid may ask for, in BDPs. */
export const MAX_GRID_BUFFER_BDP = 1000;

function fail(field: string, problem: string, source?: string): never {
  throw new InputError(field, problem, source);
}

function mapping(raw: unknown, field: string, source?: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(field, `must be a mapping, got ${JSON.stringify(raw)}`, source);
  return raw as Record<string, unknown>;
}

/** Check a recipe's `grid:` (every field named in errors) without expanding it. */
export function validateGrid(raw: unknown, source?: string): RecipeGrid {
  const o = mapping(raw, 'grid', source);
  for (const k of Object.keys(o)) if (!(GRID_KEYS as readonly string[]).includes(k)) fail(`grid.${k}`, `is not a grid field (accepted: ${GRID_KEYS.join(', ')})`, source);
  const base = mapping(o.base ?? {}, 'grid.base', source);
  for (const k of ['name', 'flows']) if (k in base) fail(`grid.base.${k}`, `is set by the grid (${k === 'name' ? '<mix>-<X>bdp' : 'from grid.mixes'}), remove it`, source);
  const xs = o.bufferBdp;
  if (!Array.isArray(xs) || xs.length === 0) fail('grid.bufferBdp', 'must be a non-empty list of buffer sizes in BDPs, e.g. [0.1, 1, 10]', source);
  xs.forEach((x, i) => {
    if (typeof x !== 'number' || !(x > 0 && x <= MAX_GRID_BUFFER_BDP)) fail(`grid.bufferBdp[${i}]`, `must be a number in (0, ${MAX_GRID_BUFFER_BDP}], got ${JSON.stringify(x)}`, source);
  });
  if (new Set(xs).size !== xs.length) fail('grid.bufferBdp', 'lists a buffer twice', source);
  const mixesRaw = mapping(o.mixes, 'grid.mixes', source);
  if (Object.keys(mixesRaw).length === 0) fail('grid.mixes', 'must name at least one mix of flows, e.g. {alone: [{}]}', source);
  const mixes: Record<string, Record<string, unknown>[]> = {};
  for (const [name, flows] of Object.entries(mixesRaw)) {
    if (!MIX_RE.test(name)) fail(`grid.mixes.${name}`, "must be named with letters, digits, '.', '_' or '-'", source);
    if (!Array.isArray(flows) || flows.length === 0) fail(`grid.mixes.${name}`, 'must be a non-empty list of flows ({} runs the recipe\'s variant)', source);
    mixes[name] = flows.map((f, i) => mapping(f, `grid.mixes.${name}[${i}]`, source));
  }
  return { base, bufferBdp: xs as number[], mixes };
}

/** The grid's scenarios, mix by mix, buffers in the order given; each checked as a scenario file is. */
export function expandGrid(g: RecipeGrid, variant: Variant, source?: string): Scenario[] {
  const out: Scenario[] = [];
  for (const [mix, flows] of Object.entries(g.mixes)) {
    for (const x of g.bufferBdp) {
      const name = `${mix}-${x}bdp`;
      const where = `${source ?? 'recipe'}: grid ${name}`;
      const s = parseScenarioText(JSON.stringify({ ...g.base, name, flows }), where, variant);
      const q = s.bottleneck.queue as { limitPackets: number };
      q.limitPackets = Math.max(1, Math.round(x * bdpPackets(s)));
      validateScenario(s, where);
      out.push(s);
    }
  }
  return out;
}
