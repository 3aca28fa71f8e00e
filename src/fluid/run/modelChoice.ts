import type { FluidLink } from './scenarioMap.js';

/**
 * Which model file stands for a flow: the variant's own (`<variant>.model.yaml`), except where a
 * mean-field model's averaging is known to be wrong and a hybrid model of the same variant exists.
 *
 * Two rules, applied by the fluid engine itself, so report, compare, validate and predict all get
 * them. The first: **a flow alone on an active queue runs its variant's lone-flow model**. "Alone": one flow
 * per queue of the modelled bottleneck (one flow in all, or N identical flows in N FQ-CoDel queues).
 * "Active": the bottleneck drops or marks by a law of its own state (RED, PIE, CoDel, FQ-CoDel, step
 * marking), not drop-tail, whose overflow the mean-field models already answer with one cut per
 * episode (reno.model.yaml's overflow events), nor an access link's drop-tail queue.
 *
 * Why: a mean-field window is the average over many flows whose congestion events fall at different
 * times; one flow on its own queue has no others to average with. Its window is a synchronised
 * sawtooth, and an AQM that keeps the standing queue short lets each halving take the window below
 * the BDP, so the link idles for part of every cycle (Reno alone on CoDel, 100 Mbit/s, 24 ms: cwnd
 * 250 -> 125 segments against a BDP of 201.6, utilisation 0.876 measured in the packet engine). The
 * mean-field window sits at its equilibrium with the link always busy. With two or more flows on one
 * queue, their drops strike one flow at a time and the aggregate is smooth: the mean-field models
 * agree there (test/fluid/aqm-agreement.test.ts).
 *
 * CUBIC and Tahoe are hybrid already; Reno is the variant the issue measured (issue 20). A models
 * folder without the lone-flow model's file (a user's own set) keeps the variant's model everywhere.
 */
export const LONE_FLOW_MODELS: Readonly<Record<string, string>> = { reno: 'reno-sawtooth' };

/**
 * The second rule: **on a step-marking queue a variant runs its step-queue model**, whatever the
 * number of flows. Step marking (DCTCP's switch) marks every packet while K or more wait, so every
 * flow sees marks in the same round trip and all cut together: the flows are one synchronised
 * sawtooth (the assumption of Alizadeh et al.'s analysis), which a mean-field cut spread over the
 * RTT of returning marks gets wrong (DCTCP: swing 20-34% over the analysis, period 1.8x).
 */
export const STEP_QUEUE_MODELS: Readonly<Record<string, string>> = { dctcp: 'dctcp-sawtooth' };

/** Every model id the rules may pick for `variant` (to compile them ahead of the runs). */
export function ruleModels(variant: string): string[] {
  return [LONE_FLOW_MODELS[variant], STEP_QUEUE_MODELS[variant]].filter((id): id is string => id !== undefined);
}

/** Flows per queue of the modelled bottleneck: all flows on one queue, or spread over FQ-CoDel's per-flow queues. */
export function flowsPerQueue(link: Pick<FluidLink, 'aqm'>, flowCount: number): number {
  return flowCount / (link.aqm.queues ?? 1);
}

/** Whether the modelled queue is an active one: the bottleneck's own discipline, other than drop-tail. */
export function isActiveQueue(link: Pick<FluidLink, 'where' | 'model' | 'red'>): boolean {
  return link.where === 'bottleneck' && (link.model !== 'bottleneck' || link.red.on === 1);
}

/**
 * The model id for a flow of `variant` on `link` shared by `flowCount` flows (see the rule above);
 * `has(id)`: whether the models folder has that model's file. The step-queue rule comes first.
 */
export function flowModelId(variant: string, link: Pick<FluidLink, 'where' | 'model' | 'red' | 'aqm'>, flowCount: number, has: (id: string) => boolean): string {
  const step = STEP_QUEUE_MODELS[variant];
  if (step !== undefined && link.where === 'bottleneck' && link.model === 'bottleneck-step' && has(step)) return step;
  const lone = LONE_FLOW_MODELS[variant];
  return lone !== undefined && isActiveQueue(link) && flowsPerQueue(link, flowCount) === 1 && has(lone) ? lone : variant;
}
