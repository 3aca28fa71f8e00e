import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getCongestionControl, validateCcParams } from '../../src/cc/registry.js';
import { scenarioWithFlags } from '../../src/cli/scenarioOptions.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { flowCc } from '../../src/scenario/flowCc.js';
import { parseScenarioText } from '../../src/scenario/check/load.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { PROFILE_TABLE, PROFILES, profileCcDefaults, profileTableMarkdown, profileTcp } from '../../src/scenario/profiles.js';
import { applyProfile } from '../../src/scenario/resolveProfile.js';
import { SCENARIO_SCHEMA } from '../../src/scenario/check/scenarioSchema.js';
import { validateScenario } from '../../src/scenario/check/validate.js';
import { VARIANTS, type Variant } from '../../src/variants.js';

const tcpFields = (SCENARIO_SCHEMA as unknown as { fields: { tcp: { fields: Record<string, unknown> } } }).fields.tcp.fields;

describe('behaviour profiles: the table', () => {
  it('every row names a scenario tcp field or a knob of its variant, with a source for each profile, and its values pass the field/knob check', () => {
    for (const row of PROFILE_TABLE) {
      const [kind, a, b] = row.field.split('.');
      for (const p of PROFILES) expect(row.values[p].source.length, `${row.field} ${p}`).toBeGreaterThan(5);
      if (kind === 'tcp') {
        expect(Object.keys(tcpFields), row.field).toContain(a);
      } else {
        expect(getCongestionControl(a as Variant).params.map((s) => s.name), row.field).toContain(b);
        for (const p of PROFILES) expect(() => validateCcParams(a as Variant, { [b!]: row.values[p].value as number })).not.toThrow();
      }
    }
    // No field twice.
    expect(new Set(PROFILE_TABLE.map((r) => r.field)).size).toBe(PROFILE_TABLE.length);
  });

  it('the profiles differ where the sources say they do', () => {
    expect(profileTcp('ns3')).toMatchObject({ minRtoS: 1, recovery: 'classic', recoverCheck: 'atLeast', rtoBackoffReset: 'newAck' });
    expect(profileTcp('linux')).toMatchObject({ minRtoS: 0.2, maxRtoS: 120, recovery: 'prr', recoverCheck: 'above', rtoBackoffReset: 'rttSample', delAckTimeoutS: 0.04 });
    expect(profileTcp('rfc')).toMatchObject({ minRtoS: 1, initialWindow: 'rfc6928', sackSsthreshInput: 'flightSize', recoverCheck: 'atLeast' });
    expect(profileCcDefaults('ns3').cubic).toMatchObject({ cntArithmetic: 1, hystartNs3: 1 });
    expect(profileCcDefaults('rfc').cubic).toMatchObject({ cntArithmetic: 0, hystart: 0, cntClamp: 0 });
    expect(profileCcDefaults('rfc').reno).toEqual({ partialAcks: 0 });
    expect(profileCcDefaults('linux').westwood).toEqual({ estimator: 0, filter: 0, segmentCounting: 1 });
  });

  it("the README's TCP defaults table is this table", () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    expect(readme).toContain(profileTableMarkdown());
  });
});

describe('behaviour profiles: resolution', () => {
  it('without a profile nothing changes: no profile, no ccDefaults, the optional rules absent (the dumbbell; a preset asked for none)', () => {
    for (const s of [presetScenario('lossy', 'cubic', { profile: null }), dumbbellScenario('cubic')]) {
      expect(s.tcp.profile).toBeUndefined();
      expect(s.ccDefaults).toBeUndefined();
      expect(JSON.stringify(s)).not.toMatch(/initialWindow"|recoverCheck|rtoBackoffReset|sackSsthreshInput/);
    }
    expect(parseScenarioText('variant: cubic\n', 'd.yaml').tcp.profile).toBeUndefined();
  });

  it("a preset is ns-3's behaviour: resolved under ns3 by default, on the command line and as a file's base too", () => {
    const s = presetScenario('lossy', 'cubic');
    expect(s).toEqual(applyProfile(presetScenario('lossy', 'cubic', { profile: null }), 'ns3'));
    expect(s.tcp).toMatchObject({ profile: 'ns3', ...profileTcp('ns3') });
    expect(flowCc(s, 0).ccParams).toEqual(profileCcDefaults('ns3').cubic);
    expect(scenarioWithFlags('lossy', {}, 'cubic')).toEqual(s);
    expect(parseScenarioText('base: lossy\nvariant: cubic\n', 'lossy.yaml')).toEqual(s);
  });

  it("another profile on a preset replaces ns-3's (not mixed with it): the same as that profile over the bare preset", () => {
    for (const p of PROFILES) {
      const bare = applyProfile(presetScenario('lfn', 'cubic', { profile: null }), p);
      expect(presetScenario('lfn', 'cubic', { profile: p })).toEqual(bare);
      expect(scenarioWithFlags('lfn', { profile: p }, 'cubic')).toEqual(bare);
      expect(parseScenarioText('base: lfn\nvariant: cubic\n', 'lfn.yaml', undefined, p)).toEqual(bare);
    }
  });

  it('every profile resolves into a valid scenario for every variant, and flowCc sees its knobs', () => {
    for (const p of PROFILES) {
      for (const v of VARIANTS) {
        const base = presetScenario('lfn', v, { profile: null });
        if (getCongestionControl(v).needsEcn === true) base.tcp.ecn = true; // DCTCP runs only with ECN
        const s = validateScenario(applyProfile(base, p));
        expect(s.tcp).toMatchObject(profileTcp(p));
        expect(flowCc(s, 0).ccParams).toEqual(profileCcDefaults(p)[v] ?? {});
      }
    }
  });

  it('--profile on the command line: resolved values shown, an explicit flag or --cc-param wins', () => {
    const s = scenarioWithFlags('lossy', { profile: 'linux', minRto: '0.5s', ccParam: ['hystart=0'] }, 'cubic');
    expect(s.tcp.profile).toBe('linux');
    expect(s.tcp.minRtoS).toBe(0.5);
    expect(s.tcp.maxRtoS).toBe(120);
    expect(s.tcp.recovery).toBe('prr');
    expect(flowCc(s, 0).ccParams).toEqual({ cntArithmetic: 1, hystart: 0, hystartNs3: 0, cntClamp: 20 });
    expect(scenarioWithFlags('lossy', { profile: 'linux', recovery: 'classic' }, 'cubic').tcp.recovery).toBe('classic');
  });

  it("a flow of another variant gets its own variant's knobs, not the top-level variant's", () => {
    const s = scenarioWithFlags('lfn', { profile: 'ns3', flows: '2', flowVariants: 'cubic,westwood' }, 'cubic');
    expect(flowCc(s, 0).ccParams).toMatchObject({ cntArithmetic: 1 });
    expect(flowCc(s, 1)).toEqual({ variant: 'westwood', ccParams: { estimator: 1, filter: 1, segmentCounting: 0 } });
  });

  it('in a file: the profile lies under the explicit fields; the resolved scenario reloads unchanged', () => {
    const s = parseScenarioText('base: lfn\nvariant: cubic\ntcp: {profile: rfc, minRtoS: 0.3}\nccDefaults: {cubic: {hystart: 1}}\n', 'p.yaml');
    expect(s.tcp).toMatchObject({ profile: 'rfc', minRtoS: 0.3, recoverCheck: 'atLeast', sackSsthreshInput: 'flightSize' });
    expect(flowCc(s, 0).ccParams).toMatchObject({ hystart: 1, cntArithmetic: 0, cntClamp: 0 });
    expect(parseScenarioText(JSON.stringify(s), 'again.json')).toEqual({ ...s, name: s.name });
    // The same through --profile over a file without one.
    const viaFlag = parseScenarioText('base: lfn\nvariant: cubic\ntcp: {minRtoS: 0.3}\n', 'p.yaml', undefined, 'rfc');
    expect(viaFlag.tcp).toEqual(s.tcp);
  });

  it('the generic dumbbell takes a profile too', () => {
    const s = validateScenario(applyProfile(dumbbellScenario('reno'), 'rfc'));
    expect(flowCc(s, 0).ccParams).toEqual({ partialAcks: 0 });
  });
});

describe('behaviour profiles: bad input (one line naming the field)', () => {
  it('an unknown profile, in a file or as a flag', () => {
    expect(() => parseScenarioText('tcp: {profile: bsd}\n', 'b.yaml')).toThrow(/^b.yaml: tcp.profile must be one of ns3, linux, rfc, got 'bsd'$/);
    expect(() => scenarioWithFlags('lossy', { profile: 'freebsd' })).toThrow(/^--profile must be one of ns3, linux, rfc, got 'freebsd'$/);
  });

  it('two different profiles (the file says one, --profile another) are refused; the same one is fine', () => {
    expect(() => parseScenarioText('tcp: {profile: ns3}\n', 'n.yaml', undefined, 'linux')).toThrow(/--profile is 'linux' but n.yaml sets tcp.profile: ns3; give one profile/);
    expect(parseScenarioText('tcp: {profile: ns3}\n', 'n.yaml', undefined, 'ns3').tcp.profile).toBe('ns3');
    const resolved = presetScenario('lossy', 'reno', { profile: 'rfc' });
    expect(() => scenarioWithFlags(resolved, { profile: 'ns3' })).toThrow(/--profile is 'ns3' but scenario 'lossy' sets tcp.profile: rfc/);
  });

  it('ccDefaults for an unknown variant or knob', () => {
    expect(() => parseScenarioText('ccDefaults: {vegas: {alpha: 1}}\n', 'v.yaml')).toThrow(/ccDefaults.vegas is not a variant/);
    expect(() => parseScenarioText('ccDefaults: {cubic: {hystart: 2}}\n', 'v.yaml')).toThrow(/ccDefaults.cubic.hystart must be in \[0, 1\] \(flag\), got 2/);
  });
});
