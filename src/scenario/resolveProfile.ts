import { InputError } from '../errors.js';
import type { Variant } from '../variants.js';
import { isProfileName, PROFILES, profileCcDefaults, profileTcp, type ProfileName } from './profiles.js';
import type { Scenario } from './types.js';

/** Checks a profile name from a file or a flag: one line naming the field and the accepted names. */
export function parseProfile(value: unknown, field: string, source?: string): ProfileName {
  if (!isProfileName(value)) throw new InputError(field, `must be one of ${PROFILES.join(', ')}, got '${String(value)}'`, source);
  return value;
}

/**
 * The profile a scenario asks for when a file says one thing and a flag another: the same name is
 * fine, two different ones are refused (neither silently wins).
 */
export function pickProfile(fromFile: ProfileName | undefined, fromFlag: ProfileName | undefined, source?: string): ProfileName | undefined {
  if (fromFile !== undefined && fromFlag !== undefined && fromFile !== fromFlag) {
    throw new InputError('--profile', `is '${fromFlag}' but ${source ?? 'the scenario'} sets tcp.profile: ${fromFile}; give one profile`);
  }
  return fromFlag ?? fromFile;
}

/**
 * Lays a profile over a scenario IN PLACE: its `tcp` fields replace the scenario's, its knobs go to
 * `ccDefaults` under any the scenario already has there. Call it on the base (a preset, the dumbbell)
 * BEFORE a file's fields and the flags are laid over it, so that an explicit field or flag wins;
 * `--cc-param` and a file's `ccParams` win by construction (flowCc lays them over ccDefaults).
 */
export function applyProfile(s: Scenario, profile: ProfileName): Scenario {
  Object.assign(s.tcp, profileTcp(profile));
  s.tcp.profile = profile;
  const cc = profileCcDefaults(profile);
  const merged: Partial<Record<Variant, Record<string, number>>> = { ...s.ccDefaults };
  for (const [variant, knobs] of Object.entries(cc) as [Variant, Record<string, number>][]) {
    merged[variant] = { ...knobs, ...s.ccDefaults?.[variant] };
  }
  s.ccDefaults = merged;
  return s;
}
