import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { DEFAULT_MODELS_DIR, loadModels } from '../../src/fluid/index.js';
import { fluidSystem } from '../../src/fluid/run/runFluid.js';
import { FLUID_QUEUE_KINDS, FLUID_QUEUE_MODELS } from '../../src/fluid/run/scenarioMap.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { packetBits } from '../../src/scenario/path.js';
import { solve } from '../../src/solver/index.js';
import { tempDir } from '../helpers/tmp.js';

/*
 * The language's bottleneck events (models/README.md, "Queue disciplines"): a bottleneck file may
 * declare discrete modes switched by events at crossings of its own symbols, as a flow model does;
 * and a queue discipline's model is its own bottleneck file, `bottleneck-<kind>.model.yaml`.
 */

/** A flow that sends a constant rate r0 (packets/s), whatever the queue: the queue's ramp is then exact. */
const CONSTANT_FLOW = `kind: flow
id: reno
title: constant-rate source
citation: none
params:
  r0: { unit: packets/s, default: 12000, min: 0 }
states:
  W: { unit: packets/s, initial: r0, min: 0 }
outputs:
  - rate = W
  - cwnd = W
equations:
  - dW/dt = 0
`;

/** A queue with a gate: mode `on` while q >= Kg (two events), reported as a marking probability. */
const GATE = `kind: bottleneck
id: bottleneck-codel
title: gate
citation: none
params:
  C: { unit: packets/s, scenario: true, min: 0.001 }
  B: { unit: packets, scenario: true, min: 1 }
  Kg: { unit: packets, default: 50, min: 0 }
states:
  q: { unit: packets, initial: 0, min: 0, max: B }
  on: { unit: "1", initial: 0, discrete: true }
  ton: { unit: s, initial: -1, discrete: true }
delay: q / C
equations:
  - dq/dt = A - C
events:
  - name: gate opens
    when: q >= Kg
    guard: on == 0
    set: [on = 1, ton = t]
  - name: gate closes
    when: q < Kg
    guard: on == 1
    set: [on = 0]
outputs:
  - pmark = on
  - p = 0
  - pdiffuse = 0
  - prt = 0
`;

function dirWith(bottleneck: string, flow = CONSTANT_FLOW): string {
  const d = tempDir('cclab-bnevents-');
  copyFileSync(join(DEFAULT_MODELS_DIR, 'bottleneck.model.yaml'), join(d, 'bottleneck.model.yaml'));
  writeFileSync(join(d, 'bottleneck-codel.model.yaml'), bottleneck);
  writeFileSync(join(d, 'reno.model.yaml'), flow);
  return d;
}

describe('bottleneck events and per-discipline bottleneck files', () => {
  it('an event of the bottleneck fires at the exact crossing of its own state, and its mode switches back at the next', () => {
    const s = dumbbellScenario('reno');
    s.durationS = 0.2;
    s.bottleneck.queue = { kind: 'codel', limitPackets: 10000 };
    // The source stops at 0.05 s: the queue ramps up at r0 - C, then drains at C.
    s.flows[0]!.stopS = 0.05;
    const sys = fluidSystem(s, { modelsDir: dirWith(GATE) });
    const sol = solve(sys.problem, { rtol: 1e-8, atol: 1e-10 });
    const C = s.bottleneck.bandwidthBps / packetBits(s);
    const opens = 50 / (12000 - C);
    const qStop = (12000 - C) * 0.05;
    const closes = 0.05 + (qStop - 50) / C;
    const names = sol.events.filter((e) => e.name.startsWith('queue:')).map((e) => [e.name, e.t] as const);
    expect(names.map((n) => n[0])).toEqual(['queue: gate opens', 'queue: gate closes']);
    expect(names[0]![1]).toBeCloseTo(opens, 9);
    expect(names[1]![1]).toBeCloseTo(closes, 9);
    // The assigned discrete states hold their values between events: ton is the opening time.
    const y = new Float64Array(sys.layout.n);
    sol.stateInto(0.1, y);
    expect(y[sys.layout.yBottleneck('ton')]).toBeCloseTo(opens, 9);
    expect(y[sys.layout.yBottleneck('on')]).toBe(0);
  });

  it('a bottleneck event cannot be a window reduction, nor assign a flow state', () => {
    const reduction = GATE.replace('    set: [on = 0]', '    set: [on = 0]\n    reduction: true');
    const flowState = GATE.replace('    set: [on = 0]', '    set: [W = 0]');
    const err = (bn: string): string => {
      try {
        loadModels(dirWith(bn)).system('reno', 'bottleneck-codel');
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(err(reduction)).toMatch(/events of a bottleneck cannot be window reductions/);
    expect(err(flowState)).toMatch(/assigns 'W', which is not a state of this model/);
  });

  it('each queue kind the fluid engine models has its bottleneck file, and an unknown one is refused naming the file', () => {
    const set = loadModels();
    expect([...set.bottlenecks.keys()].sort()).toEqual(['bottleneck', 'bottleneck-codel', 'bottleneck-pie', 'bottleneck-step']);
    expect(Object.entries(FLUID_QUEUE_MODELS).filter(([, file]) => !set.bottlenecks.has(file))).toEqual([]);
    expect(FLUID_QUEUE_KINDS).toEqual(['droptail', 'red', 'pie', 'codel', 'fq_codel', 'step']);
    expect(() => set.system('reno', 'bottleneck-foo')).toThrow(/no fluid queue model 'bottleneck-foo.model.yaml'/);
    // Every bottleneck file defines what every flow model reads (q, B, C, p, pdiffuse, pmark, prt, pra, delivered).
    for (const f of set.flows.keys()) for (const b of set.bottlenecks.keys()) expect(set.system(f, b).bottleneck.id).toBe(b);
  });
});
