import { parseScenarioText } from '../../src/scenario/check/load.js';
import type { Scenario } from '../../src/scenario/types.js';

/**
 * The competition scenarios of issue 9 on the generic dumbbell (1 Gbit/s, 1 ms access links on both
 * sides). RTT = 2 (1 + d + 1) ms for a bottleneck delay d; the queue is one BDP. Shared with
 * reports/recipes/competition.yaml, which lists the same fields.
 */
export function competitionScenario(yaml: string, name: string): Scenario {
  return parseScenarioText(`name: ${name}\n${yaml}`, `${name}.yaml`);
}

/** RED desynchronises the flows' losses, as the fairness literature assumes (Floyd and Jacobson 1993). */
const RED_20M = '{kind: red, limitPackets: 200, minThPackets: 20, maxThPackets: 80, maxP: 0.1, weight: 0.002, gentle: true}';

/** Two Reno flows, same 24 ms RTT, 20 Mbit/s RED bottleneck. */
export const RENO_PAIR = `variant: reno
durationS: 200
bottleneck: {bandwidthBps: 20e6, delayS: 0.01, queue: ${RED_20M}}
flows: 2
`;

/**
 * Two Reno flows with base RTTs 1:2 (40 and 80 ms: access delays 9 and 29 ms), 50 Mbit/s RED
 * bottleneck with low thresholds, so that queueing (about 10-40 packets of 0.24 ms) dilutes the ratio little.
 */
export const RENO_RTT_1_2 = `variant: reno
durationS: 200
bottleneck: {bandwidthBps: 50e6, delayS: 0.01, queue: {kind: red, limitPackets: 250, minThPackets: 10, maxThPackets: 40, maxP: 0.1, weight: 0.002, gentle: true}}
flows:
  - {access: {delayS: 0.009}}
  - {access: {delayS: 0.029}}
`;

/** CUBIC and Reno on 100 Mbit/s; `delayS` sets the RTT (0.003 -> 10 ms, 0.048 -> 100 ms), queue = 1 BDP. */
export function cubicVsReno(delayS: number, durationS: number): string {
  const rttS = 2 * (0.002 + delayS);
  const bdp = Math.ceil((100e6 * rttS) / 8 / 1488);
  return `variant: reno
durationS: ${durationS}
bottleneck: {bandwidthBps: 100e6, delayS: ${delayS}, queue: {kind: droptail, limitPackets: ${bdp}}}
flows:
  - {variant: cubic}
  - {variant: reno}
`;
}
