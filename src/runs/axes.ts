import { InputError } from '../errors.js';
import { MAX_FLOWS } from '../scenario/check/scenarioSchema.js';
import type { Scenario } from '../scenario/types.js';
import { getPath, isQueueParamPath, leafKind, setPath } from './fieldPath.js';
import { parseRange, type UnitKind } from './range.js';
import {
  applyBandwidth,
  applyBufferBdp,
  applyBufferPackets,
  applyFlows,
  applyLoss,
  applyRtt,
} from './scenarioAxes.js';

/** One value of a swept field: numbers for the headline axes, strings/booleans possible via `--set`. */
export type AxisValue = number | string | boolean;

/**
 * A swept dimension. `name` is its column in runs.csv/points.csv; `stage` orders the edits so that
 * dependent ones come last (a BDP-relative buffer needs the final rate and RTT).
 */
export interface AxisSpec {
  name: string;
  /** The flag it came from, for messages. */
  flag: string;
  /** Scenario field path for `--set` axes; absent for the headline axes. */
  path?: string;
  unit: UnitKind | 'string' | 'boolean';
  /** Axis label with unit, for charts. */
  label: string;
  stage: number;
}

export interface Axis extends AxisSpec {
  values: AxisValue[];
}

/** The headline axes, with their flag, unit and position in the edit order. */
export const HEADLINE_AXES = {
  flows: { name: 'flows', flag: '--flows', unit: 'integer', label: 'flows', stage: 0 },
  bandwidth: { name: 'bandwidthBps', flag: '--bandwidth', unit: 'rate', label: 'bottleneck rate (bit/s)', stage: 1 },
  rtt: { name: 'rttS', flag: '--rtt', unit: 'duration', label: 'base RTT (s)', stage: 2 },
  loss: { name: 'loss', flag: '--loss', unit: 'number', label: 'loss probability p', stage: 3 },
  buffer: { name: 'bufferPackets', flag: '--buffer', unit: 'integer', label: 'bottleneck buffer (packets)', stage: 5 },
  bufferBdp: { name: 'bufferBdp', flag: '--buffer-bdp', unit: 'number', label: 'bottleneck buffer (x BDP)', stage: 6 },
} as const satisfies Record<string, AxisSpec>;

export type HeadlineAxis = keyof typeof HEADLINE_AXES;

/** Builds a headline axis from its flag text. */
export function headlineAxis(key: HeadlineAxis, text: string): Axis {
  const spec = HEADLINE_AXES[key];
  return { ...spec, values: parseRange(spec.flag, text, spec.unit) };
}

/**
 * Builds an axis from `--set path=range`. The value parser follows the field's current type in the
 * base scenario: numbers take the full range syntax (durations/rates too, when the path ends in
 * `S`/`Bps`), strings and booleans a comma list.
 */
export function setAxis(base: Scenario, assignment: string): Axis {
  const eq = assignment.indexOf('=');
  if (eq <= 0) throw new InputError('--set', `expects path=values, e.g. tcp.minRtoS=0.2,1, got "${assignment}"`);
  const path = assignment.slice(0, eq).trim();
  const text = assignment.slice(eq + 1);
  const kind = leafKind(base, path);
  const spec: AxisSpec = { name: path, flag: `--set ${path}`, path, unit: 'number', label: path, stage: 4 };
  if (kind === 'number') {
    const unit: UnitKind = /S$/.test(path) ? 'duration' : /Bps$/.test(path) ? 'rate' : 'number';
    return { ...spec, unit, values: parseRange(spec.flag, text, unit) };
  }
  const tokens = text.split(',').map((t) => t.trim());
  if (tokens.some((t) => t === '')) throw new InputError(spec.flag, `has an empty value in "${text}"`);
  if (kind === 'boolean') {
    const values = tokens.map((t) => {
      if (t !== 'true' && t !== 'false') throw new InputError(spec.flag, `expects true,false, got "${t}"`);
      return t === 'true';
    });
    return { ...spec, unit: 'boolean', values };
  }
  return { ...spec, unit: 'string', values: tokens };
}

/** Applies one axis value to a scenario (in place). */
export function applyAxis(s: Scenario, axis: AxisSpec, v: AxisValue): void {
  if (axis.path !== undefined) {
    setPath(s, axis.path, v);
    return;
  }
  const n = v as number;
  switch (axis.name) {
    case 'flows': return applyFlows(s, n);
    case 'bandwidthBps': return applyBandwidth(s, n);
    case 'rttS': return applyRtt(s, n);
    case 'loss': return applyLoss(s, n);
    case 'bufferPackets': return applyBufferPackets(s, n);
    case 'bufferBdp': return applyBufferBdp(s, n);
    default:
      throw new InputError(axis.flag, `is not a known sweep axis`);
  }
}

/** The scenario at one grid point: a deep copy of `base` with every axis value applied in stage order. */
export function scenarioAt(base: Scenario, axes: readonly AxisSpec[], point: readonly AxisValue[]): Scenario {
  const s = structuredClone(base);
  const order = axes.map((_, i) => i).sort((i, j) => axes[i]!.stage - axes[j]!.stage || i - j);
  for (const i of order) applyAxis(s, axes[i]!, point[i]!);
  return s;
}

/** Checks the axes: no duplicate names, and every `--set` path reaches a value. */
export function checkAxes(base: Scenario, axes: readonly Axis[]): void {
  const seen = new Set<string>();
  for (const a of axes) {
    if (seen.has(a.name)) throw new InputError(a.flag, `is swept twice`);
    seen.add(a.name);
    if (a.path !== undefined) {
      // These are set per run from other flags; sweeping them by path would be silently overwritten.
      if (['seed', 'variant', 'name'].includes(a.path)) throw new InputError(a.flag, `cannot be swept by path: use --seed, --variants or --scenario`);
      // ccParams keys are free (a variant's knob need not be in the base scenario), and so are any
      // discipline's parameters under bottleneck.queue (checked per point against its kind).
      if (!/^ccParams\.[^.]+$/.test(a.path) && !isQueueParamPath(a.path)) getPath(base, a.path);
    }
    if (a.values.length === 0) throw new InputError(a.flag, `has no values`);
    // Checked here, before any point copies flows: `--flows 1e9` must not start building them.
    if (a.path === undefined && a.name === 'flows') {
      const bad = (a.values as number[]).find((v) => !(v >= 1 && v <= MAX_FLOWS));
      if (bad !== undefined) throw new InputError(a.flag, `must be whole numbers in [1, ${MAX_FLOWS}], got ${bad}`);
    }
  }
  if (seen.has('bufferPackets') && seen.has('bufferBdp')) {
    throw new InputError('--buffer', 'and --buffer-bdp both set the bottleneck buffer; give one');
  }
}
