import { getCongestionControl, validateCcParams } from '../../cc/registry.js';
import { InputError } from '../../errors.js';
import { checkQueueSpec } from '../../net/qdisc/registry.js';
import { flowCc } from '../flowCc.js';
import { SCENARIO_SCHEMA } from './scenarioSchema.js';
import { check } from '../schema.js';
import type { Scenario } from '../types.js';
import { isVariant, VARIANTS } from '../../variants.js';

/**
 * The one user-facing check of a complete scenario: every field's type and range (schema), the
 * relations between fields that a schema cannot express, and the ccParams against the variant's
 * parameters (src/cc/registry.ts). The engines assume a scenario that passed it (their own checks
 * are assertions). Returns the scenario typed; throws InputError otherwise.
 */
export function validateScenario(value: unknown, source?: string): Scenario {
  check(value, SCENARIO_SCHEMA, '', source);
  const s = value as Scenario;
  const fail = (field: string, problem: string): never => {
    throw new InputError(field, problem, source);
  };
  if (s.measureFromS >= s.durationS) fail('measureFromS', `must be below durationS (${s.durationS}), got ${s.measureFromS}`);
  if (s.tcp.minRtoS > s.tcp.maxRtoS) fail('tcp.minRtoS', `must not exceed tcp.maxRtoS (${s.tcp.maxRtoS}), got ${s.tcp.minRtoS}`);
  if (s.tcp.recovery === 'prr' && !s.tcp.sack) fail('tcp.recovery', "'prr' needs tcp.sack: true (use 'classic' without SACK)");
  checkQueueSpec(s.bottleneck.queue, 'bottleneck.queue', source);
  (s.bottleneck.rateChanges ?? []).forEach((c, i, all) => {
    const field = `bottleneck.rateChanges[${i}].atS`;
    if (c.atS >= s.durationS) fail(field, `must be below durationS (${s.durationS}), got ${c.atS}`);
    if (i > 0 && c.atS <= all[i - 1]!.atS) fail(field, `must be after rateChanges[${i - 1}].atS (${all[i - 1]!.atS}), got ${c.atS}`);
  });
  s.flows.forEach((f, i) => {
    if (f.startS >= s.durationS) fail(`flows[${i}].startS`, `must be below durationS (${s.durationS}), got ${f.startS}`);
    if (f.stopS !== null && f.stopS < f.startS) fail(`flows[${i}].stopS`, `must not be before startS (${f.startS}), got ${f.stopS}`);
  });
  checkCcParams(s, source);
  checkEcnNeeded(s, fail);
  return s;
}

/** An algorithm that lives on ECN marks (DCTCP, RFC 8257) runs only where ECN was negotiated. */
function checkEcnNeeded(s: Scenario, fail: (field: string, problem: string) => never): void {
  if (s.tcp.ecn === true) return;
  s.flows.forEach((_, i) => {
    const { variant } = flowCc(s, i);
    if (getCongestionControl(variant).needsEcn !== true) return;
    const who = s.flows.length === 1 ? variant : `${variant} (flow ${i})`;
    fail('tcp.ecn', `must be true to run ${who}: it reacts to ECN marks, not loss alone (RFC 8257); add --ecn on or tcp.ecn: true`);
  });
}

/**
 * Every flow's knobs against its variant's registry entry, so that a scenario one engine accepts the
 * other accepts too. The top-level ccParams are checked against the top-level variant even when every
 * flow names its own, and reported under their own name; a flow's under `flows[i].ccParams`.
 */
function checkCcParams(s: Scenario, source?: string): void {
  const checkOne = (variant: Scenario['variant'], params: Record<string, number>, field: string): void => {
    try {
      validateCcParams(variant, params, field);
    } catch (e) {
      // Re-thrown with the file or flag it came from; the registry does not know the source.
      if (e instanceof InputError) throw new InputError(e.field, e.problem, source);
      throw e;
    }
  };
  checkOne(s.variant, s.ccParams, 'ccParams');
  for (const [variant, knobs] of Object.entries(s.ccDefaults ?? {})) {
    if (!isVariant(variant)) throw new InputError(`ccDefaults.${variant}`, `is not a variant (known: ${VARIANTS.join(', ')})`, source);
    checkOne(variant, knobs, `ccDefaults.${variant}`);
  }
  s.flows.forEach((f, i) => {
    if (f.variant === undefined && f.ccParams === undefined) return;
    const cc = flowCc(s, i);
    checkOne(cc.variant, cc.ccParams, `flows[${i}].ccParams`);
  });
}
