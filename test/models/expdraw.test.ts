import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { DEFAULT_MODELS_DIR, loadModels } from '../../src/fluid/index.js';
import { drawsLossEvents, fluidSystem } from '../../src/fluid/run/runFluid.js';
import { dumbbellScenario } from '../../src/scenario/defaults.js';
import { tempDir } from '../helpers/tmp.js';

/*
 * expdraw() in a flow state's initial value (models/README.md, "The first loss"): a hybrid model's
 * first loss threshold is drawn as the later ones are, once per run before the integration, from the
 * run's seeded stream; 1 with periodic loss events. Anywhere else but an event's assignments it is
 * refused.
 */

/** A constant-rate flow whose first threshold Lth is drawn. */
const DRAWING_FLOW = `kind: flow
id: reno
title: constant-rate source with a drawn first threshold
citation: none
params:
  r0: { unit: packets/s, default: 1000, min: 0 }
states:
  W: { unit: packets/s, initial: r0, min: 0 }
  Lth: { unit: packets, initial: expdraw(), discrete: true }
outputs:
  - rate = W
  - cwnd = W
equations:
  - dW/dt = 0
`;

function dirWith(flow: string): string {
  const d = tempDir('cclab-expdraw-');
  copyFileSync(join(DEFAULT_MODELS_DIR, 'bottleneck.model.yaml'), join(d, 'bottleneck.model.yaml'));
  writeFileSync(join(d, 'reno.model.yaml'), flow);
  return d;
}

/** The first Exp(1) draw of a run seeded `seed` (src/fluid/run/problem.ts's stream). */
const firstDraw = (seed: number): number => -Math.log(1 - seedrandom.alea(`cclab-fluid:${seed}`)());

describe('expdraw() in a flow state\'s initial value', () => {
  const dir = dirWith(DRAWING_FLOW);
  const initialLth = (seed: number, lossProcess: 'periodic' | 'poisson'): number => {
    const s = { ...dumbbellScenario('reno'), seed, durationS: 1 };
    const sys = fluidSystem(s, { modelsDir: dir, lossProcess });
    return sys.problem.y0[sys.layout.yFlow(0, 'Lth')]!;
  };

  it('is the first Exp(1) draw of the run\'s seeded stream with Poisson loss events, 1 with periodic ones', () => {
    for (const seed of [1, 2, 7]) {
      expect(initialLth(seed, 'poisson')).toBe(firstDraw(seed));
      expect(initialLth(seed, 'periodic')).toBe(1);
    }
    expect(new Set([1, 2, 7].map((seed) => initialLth(seed, 'poisson'))).size).toBe(3);
    // A model that draws only in an initial value still has random loss events: the comparisons run it per seed.
    expect(drawsLossEvents(dumbbellScenario('reno'), { modelsDir: dir })).toBe(true);
  });

  it('is refused in a flow state\'s bound, an equation and a bottleneck state\'s initial value, in one line naming the place', () => {
    const err = (flow: string, bottleneck?: string): string => {
      const d = dirWith(flow);
      if (bottleneck) writeFileSync(join(d, 'bottleneck.model.yaml'), bottleneck);
      try {
        loadModels(d).system('reno', 'bottleneck');
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(err(DRAWING_FLOW.replace('initial: r0, min: 0', 'initial: r0, min: expdraw()'))).toMatch(/states\.W\.min.*expdraw\(\), which is allowed only in an event's assignments and a flow state's initial value/);
    expect(err(DRAWING_FLOW.replace('dW/dt = 0', 'dW/dt = expdraw()'))).toMatch(/expdraw\(\), which is allowed only/);
    const bn = readFileSync(join(DEFAULT_MODELS_DIR, 'bottleneck.model.yaml'), 'utf8');
    expect(bn).toMatch(/  q: \{[^}]*initial: 0/);
    expect(err(DRAWING_FLOW, bn.replace(/(  q: \{[^}]*initial: )0/, '$1expdraw()'))).toMatch(/states\.q\.initial.*expdraw\(\), which is allowed only/);
  });
});
