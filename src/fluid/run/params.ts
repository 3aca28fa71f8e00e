import { basename } from 'node:path';
import { InputError } from '../../errors.js';
import type { FluidFlowParams, FluidLink } from './scenarioMap.js';
import type { ModelFile } from '../language/modelFile.js';

/**
 * Binding a model's declared parameters to values: scenario-bound ones from the mapped Scenario,
 * the others from the run's overrides, the Scenario's ccParams or the file's default, each checked
 * against the declared range.
 */

const BN_SCENARIO = ['C', 'B', 'pr', 'pra', 'red', 'minTh', 'maxTh', 'maxP', 'wq', 'gentle', 'Tmin', 'ecn', 'pieTarget', 'pieAlpha', 'pieBeta', 'tUpdate', 'markEcnTh', 'codelTarget', 'interval', 'queues', 'Kmark'] as const;
const FLOW_SCENARIO = ['Tp', 'b', 'W0', 'Wmax', 'S0', 'D'] as const;

/** Where a scenario-bound value comes from, for error messages. */
const SCENARIO_FIELD: Record<string, string> = {
  C: 'bandwidthBps', B: 'queue limitPackets', pr: 'bottleneck.loss.rate', pra: 'bottleneck.loss.direction', red: 'bottleneck.queue.kind', minTh: 'bottleneck.queue.minThPackets',
  maxTh: 'bottleneck.queue.maxThPackets', maxP: 'bottleneck.queue.maxP', wq: 'bottleneck.queue.weight', gentle: 'bottleneck.queue.gentle', Tmin: 'link delays',
  ecn: 'bottleneck.queue.ecn', pieTarget: 'bottleneck.queue.targetS', pieAlpha: 'bottleneck.queue.alpha', pieBeta: 'bottleneck.queue.beta', tUpdate: 'bottleneck.queue.tUpdateS',
  markEcnTh: 'bottleneck.queue.markEcnThreshold', codelTarget: 'bottleneck.queue.targetS', interval: 'bottleneck.queue.intervalS', queues: 'bottleneck.queue.flows (FQ-CoDel queues)', Kmark: 'bottleneck.queue.thresholdPackets',
  Tp: 'link delays', b: 'tcp.delAckCount', D: 'tcp.dupAckThreshold', W0: 'tcp.initialCwndSegments', Wmax: 'tcp.rcvBufBytes', S0: 'tcp.initialSsthreshBytes',
};

/**
 * Parameters a model may declare (with a default) whose value the engine derives from the Scenario
 * when neither the run nor ccParams set it: how the scenario's TCP recovers from loss.
 */
export const SCENARIO_DEFAULTS = ['sack', 'lossEvents', 'advanceDup', 'synRtt', 'rto', 'mss', 'delAckTimeout'] as const;

function bind(m: ModelFile, scenarioValues: Record<string, number>, overrides: Record<string, number>, runParams: Record<string, number>, derived: Record<string, number> = {}): Float64Array {
  const file = basename(m.path);
  return Float64Array.from(
    m.params.map((p) => {
      let v: number | undefined;
      let field: string;
      if (p.scenario) {
        v = Object.hasOwn(scenarioValues, p.name) ? scenarioValues[p.name] : undefined;
        field = Object.hasOwn(SCENARIO_FIELD, p.name) ? SCENARIO_FIELD[p.name]! : p.name;
        if (v === undefined) throw new InputError(`params.${p.name}`, `is marked scenario: true, but the engine supplies only ${[...BN_SCENARIO, ...FLOW_SCENARIO].join(', ')}`, `${file}:${p.line}`);
      } else {
        // Own keys only: a parameter named `constructor` must not read Object's constructor.
        const run = Object.hasOwn(runParams, p.name);
        const over = Object.hasOwn(overrides, p.name);
        const der = Object.hasOwn(derived, p.name);
        v = run ? runParams[p.name] : over ? overrides[p.name] : der ? derived[p.name] : p.default!;
        field = run ? `params.${p.name}` : over ? `ccParams.${p.name}` : der ? `tcp (${p.name} derived from the scenario)` : `${file} params.${p.name}`;
      }
      if (!Number.isFinite(v) || v < p.min || v > p.max) throw new InputError(field, `must be in [${p.min}, ${p.max}] (${p.name} of ${file}), got ${v}`);
      return v;
    }),
  );
}

/** The bottleneck model's parameter values for the mapped link. */
export function bindBottleneck(m: ModelFile, link: FluidLink): Float64Array {
  const { red } = link;
  return bind(m, { ...link.aqm, C: link.C, B: link.B, pr: link.pr, pra: link.pra, red: red.on, minTh: red.minTh, maxTh: red.maxTh, maxP: red.maxP, wq: red.wq, gentle: red.gentle, Tmin: link.Tmin }, {}, {});
}

/**
 * A flow model's parameter values for one flow. `runParams` are the run's overrides by name (they
 * win over `ccParams`); names the model does not declare are left to {@link checkRunParams}.
 */
export function bindFlow(m: ModelFile, f: FluidFlowParams, ccParams: Record<string, number>, runParams: Record<string, number>): Float64Array {
  return bind(m, { Tp: f.Tp, b: f.b, W0: f.W0, Wmax: f.Wmax, S0: f.S0, D: f.D }, ccParams, runParams, { sack: f.sack, lossEvents: f.lossEvents, advanceDup: f.advanceDup, synRtt: f.synRtt, rto: f.rto, mss: f.mss, delAckTimeout: f.delAckTimeout });
}

/**
 * The run's parameter overrides must each name a parameter of at least one flow model in the run
 * (a typo is an InputError, not a silently ignored setting).
 */
export function checkRunParams(models: readonly ModelFile[], runParams: Record<string, number>): void {
  for (const k of Object.keys(runParams)) {
    if (models.some((m) => m.params.some((p) => p.name === k))) continue;
    const files = [...new Set(models.map((m) => basename(m.path)))];
    const have = [...new Set(models.flatMap((m) => m.params.filter((p) => !p.scenario).map((p) => p.name)))];
    throw new InputError(`params.${k}`, `is not a parameter of ${files.join(' or ')} (have: ${have.join(', ') || 'none'})`);
  }
}
