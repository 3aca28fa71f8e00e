/**
 * The command line of a diagnostic script (the bbr3*Trace scripts): `--name value` pairs and bare
 * `--flag`s, read as given (these scripts print traces for a person to read; the CLI checks its input).
 */
import type { ProfileName } from '../src/scenario/profiles.js';
import { parseProfile } from '../src/scenario/resolveProfile.js';

const args = process.argv.slice(2);

/** The value after `--name`, if given. */
export function stringArg(name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** The number after `--name`, or `dflt`. */
export function numberArg(name: string, dflt: number): number {
  const v = stringArg(name);
  return v === undefined ? dflt : Number(v);
}

/**
 * A --profile value for presetScenario: a behaviour profile, or null for `none` (cclab's own mix; a
 * preset is otherwise resolved under ns3 when built).
 */
export function presetProfile(raw: string): ProfileName | null {
  return raw === 'none' ? null : parseProfile(raw, '--profile');
}

/** Whether the bare flag `--name` is given. */
export function hasFlag(name: string): boolean {
  return args.includes(`--${name}`);
}
