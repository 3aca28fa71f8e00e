import { describe, expect, it } from 'vitest';
import { compileExpr } from '../../src/fluid/language/expr.js';
import { defaultModels } from '../../src/fluid/index.js';
import { delayedStateIndices } from '../../src/fluid/run/delayedPast.js';
import { StateLayout } from '../../src/fluid/compiler/layout.js';
import { runFluid } from '../../src/fluid/run/runFluid.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { fluidVariants } from '../../src/variants.js';

describe('fluid engine performance measures keep the answers', () => {
  it('constant integer powers compile to products with the value of Math.pow', () => {
    const c = compileExpr({ text: 'x ^ 3 + pow(x, 2) - x ^ 4 + x ^ 2.5', line: 1 }, 'test.yaml', {
      what: 'test',
      resolve: (n) => (n === 'x' ? { code: () => 'x', delayable: false } : undefined),
      allowDelays: false,
      delays: new Map(),
    });
    expect(c.js).toContain('$cube(');
    expect(c.js).toContain('$sq(');
    expect(c.js).toContain('$p4(');
    expect(c.js).toContain('Math.pow(x, 2.5)');
    const f = new Function('x', `const $sq = (v) => v * v, $cube = (v) => v * v * v, $p4 = (v) => { const w = v * v; return w * w; }; return ${c.js};`) as (x: number) => number;
    for (const x of [-3.7, -0.2, 0, 0.5, 2, 17.25]) {
      const exact = Math.pow(x, 3) + Math.pow(x, 2) - Math.pow(x, 4) + (x >= 0 ? Math.pow(x, 2.5) : NaN);
      if (Number.isNaN(exact)) expect(f(x)).toBeNaN();
      else expect(Math.abs(f(x) - exact)).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(exact)));
    }
  });

  it('delayed snapshots evaluate only the state components they read (CUBIC: not L, West, tl, hold, nto...)', () => {
    const c = defaultModels().system('cubic');
    const names = c.flow.states.map((st) => st.name);
    const block = { states: c.flow.states.map((st) => st.name), outputs: c.flow.outputs.map((o) => o.name) };
    const layout = new StateLayout({ states: c.bottleneck.states.map((st) => st.name), outputs: c.bottleneck.outputs.map((o) => o.name) }, [block, block]);
    const idx = Array.from(delayedStateIndices(layout, [c, c]));
    const flow0 = idx.filter((k) => k >= c.nb && k < c.nb + c.nf).map((k) => names[k - c.nb]);
    // The outputs read W and x (rate, cwnd: x is the share idle in timeouts), ss and Wp (ssthresh), s, K and Wm (W_cubic); the queue's q and v.
    expect(flow0.sort()).toEqual(['K', 'W', 'Wm', 'Wp', 's', 'ss', 'x']);
    expect(idx.filter((k) => k < c.nb)).toEqual([0, 1]);
    // The second flow's block is the first one's, shifted.
    expect(idx.filter((k) => k >= c.nb + c.nf).map((k) => k - c.nf)).toEqual(idx.filter((k) => k >= c.nb && k < c.nb + c.nf));
  });

  it('normal with 10 Gbit/s access and no random loss runs through for every variant (echo landing margin)', () => {
    for (const v of fluidVariants()) {
      const s = presetScenario('ns3-normal', v, { durationS: 10, accessBps: 10e9, accessDelayS: 1e-4 });
      s.bottleneck.loss.rate = 0;
      const r = runFluid(s, { gridPoints: 10 });
      expect(r.status, `${v}: ${r.failure}`).toBe('ok');
      // The 1 Gbit/s bottleneck fills after the first slow start (about 860 Mbit/s of goodput in steady state).
      expect(r.summary.goodputBps).toBeGreaterThan(0.3e9);
    }
  });
});
