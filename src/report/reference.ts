import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../io/packageRoot.js';
import { isPresetName, presetLine, presetScenario, presetSetup } from '../scenario/presets.js';
import type { Scenario } from '../scenario/types.js';
import type { Variant } from '../variants.js';

/**
 * The figures a seed-study report sets beside cclab's (reference/README.md): the study's own Table 2
 * and ns-3's medians on the same setup. Shown only for a scenario that is the preset line itself
 * (same links, loss and queues), where the comparison means something.
 */

export const REFERENCE_DIR = join(PACKAGE_ROOT, 'reference');

/** ns-3's class for each cclab variant (Tahoe no longer exists in ns-3). */
export const NS3_VARIANT: Readonly<Partial<Record<Variant, string>>> = {
  newreno: 'TcpNewReno',
  reno: 'TcpLinuxReno',
  westwood: 'TcpWestwoodPlus',
  cubic: 'TcpCubic',
};

/** Duration of the reference runs (the study's and ns-3's). */
export const REFERENCE_DURATION_S = 100;

export interface Ns3Cell {
  runs: number;
  medianBps: number;
  minBps: number;
  maxBps: number;
  sack: boolean;
}

function csvRows(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, 'utf8').trim().split('\n');
  const cols = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
}

let study: Map<string, number> | undefined;
let ns3: Map<string, Ns3Cell> | undefined;

/** The seed study's Table 2 goodput (bit/s) of a variant on a preset line; undefined where it has none. */
export function seedStudyGoodput(preset: string, variant: Variant): number | undefined {
  study ??= new Map(csvRows(join(REFERENCE_DIR, 'seed-study', 'table2.csv')).map((r) => [`${r.scenario}|${r.variant}`, Number(r.goodput_bps)]));
  return study.get(`${preset}|${variant}`);
}

/** ns-3's 10-run median (and range) of a variant on a preset line with the given SACK setting. */
export function ns3Goodput(preset: string, variant: Variant, sack: boolean): Ns3Cell | undefined {
  ns3 ??= new Map(
    csvRows(join(REFERENCE_DIR, 'ns3', 'goodput-summary.csv')).map((r) => [
      `${r.scenario}|${r.variant}|${r.sack}`,
      { runs: Number(r.runs), medianBps: Number(r.median_bps), minBps: Number(r.min_bps), maxBps: Number(r.max_bps), sack: r.sack === 'true' },
    ]),
  );
  const cls = NS3_VARIANT[variant];
  return cls === undefined ? undefined : ns3.get(`${preset}|${cls}|${sack}`);
}

/** Whether the scenario's TCP negotiates SACK (ns-3's reference rows exist for both settings). */
export function usesSack(s: Scenario): boolean {
  return s.tcp.sack;
}

/**
 * The study's line (normal, lfn, lossy: the references' key) when a scenario is an ns3-* preset,
 * unchanged apart from its seed, variant and duration (the references are 100 s runs: a different
 * duration is allowed, and said so); undefined for any other scenario. The study and ns-3's
 * reference runs used ns-3's example setup, so the lines with their own bottleneck have none.
 */
export function referencePreset(s: Scenario): string | undefined {
  if (!isPresetName(s.name) || presetSetup(s.name) !== 'ns3-example') return undefined;
  // The same preset under the scenario's behaviour profile (or none) is still ns-3's example setup.
  const p = presetScenario(s.name, s.variant, { durationS: s.durationS, seed: s.seed, profile: s.tcp.profile ?? null });
  // SACK on or off both have a reference (ns-3's rows for each setting); ns-3's example recovers
  // with TcpClassicRecovery, but a PRR run is still the same line.
  const strip = (x: Scenario) => JSON.stringify({ ...x, trace: null, ccParams: null, tcp: { ...x.tcp, sack: null, recovery: null } });
  return strip(p) === strip(s) ? presetLine(s.name) : undefined;
}
