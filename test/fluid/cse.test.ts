import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileParts } from '../../src/fluid/compiler/compileFiles.js';
import { hoistRepeated } from '../../src/fluid/compiler/cse.js';
import { DEFAULT_MODELS_DIR } from '../../src/fluid/compiler/systemCache.js';

/** A right-hand side body as the emitter writes it (language/expr.ts): a delayed look-up, repeated loss terms, a window twice. */
const BODY = [
  '"use strict";',
  'const _s0 = (t - Z[0]); const _p0 = past(_s0); const _Y0 = _p0.Y, _Z0 = _p0.Z;',
  'dy[off + 0] = ((Math.pow((1 - _Z0[1]), _Y0[off + 0]) * Y[off + 0]) + (((Y[off + 1] > 1)) ? (Math.pow((1 - _Z0[1]), _Y0[off + 0])) : $sq((Y[off + 0] - 1))));',
  'dy[off + 1] = (($sq((Y[off + 0] - 1)) / Math.pow((1 - _Z0[1]), _Y0[off + 0])) + (past.over(0, off, t, 1, Math.log(Y[off + 0])) - past.over(0, off, t, 1, Math.log(Y[off + 0]))));',
  'dy[off + 2] = 0;',
  'return 0;',
].join('\n');

/** The body as a function, as assembleSystem makes it (its helpers included). */
const fnOf = (body: string) =>
  new Function(`const $sq = (v) => v * v, $cube = (v) => v * v * v, $p4 = (v) => { const w = v * v; return w * w; };\nreturn function (t, Y, Z, off, zo, FP, BP, dy, past) {\n${body}\n};`)() as (...a: unknown[]) => number;

const count = (s: string, what: string) => s.split(what).length - 1;

describe('hoistRepeated (compiler/cse.ts): repeated pure groups of a right-hand side computed once', () => {
  it('computes each repeated Math / $sq group once, leaves the windows where they are, and gives the same doubles', () => {
    const out = hoistRepeated(BODY);
    expect(count(BODY, 'Math.pow(')).toBe(3);
    expect(count(out, 'Math.pow(')).toBe(1);
    expect(count(out, '$sq(')).toBe(1);
    // past.over samples a window (state): as many calls as before, inside the statement.
    expect(count(out, 'past.over(')).toBe(2);
    expect(out.split('\n')[1]).toBe(BODY.split('\n')[1]);
    const [before, after] = [fnOf(BODY), fnOf(out)];
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 3 - 0.5;
    for (let k = 0; k < 500; k++) {
      const Y = [rnd(), rnd(), rnd(), rnd()];
      const past = Object.assign(() => ({ Y: [rnd(), rnd(), rnd()], Z: [rnd(), rnd() / 3] }), { over: (_k: number, _o: number, _t: number, _w: number, cur: number) => cur * 1.5 + 1, draw: () => 1 });
      const snap = past();
      const fixed = Object.assign(() => snap, { over: past.over, draw: past.draw });
      const d1 = [NaN, NaN, NaN, NaN];
      const d2 = [NaN, NaN, NaN, NaN];
      before(k / 10, Y, [0.1, 0.2], 1, 0, [], [], d1, fixed);
      after(k / 10, Y, [0.1, 0.2], 1, 0, [], [], d2, fixed);
      for (let i = 0; i < 4; i++) expect(Object.is(d1[i], d2[i]), `dy[${i}] at ${k}: ${d1[i]} vs ${d2[i]}`).toBe(true);
    }
  });

  it('returns a body it does not recognise as it is: no statement, unbalanced parentheses, a string literal, nothing repeated', () => {
    for (const body of ['"use strict";\nreturn (Math.log(Z[0]) + Math.log(Z[0]));', 'dy[0] = (Math.log(Y[0]) + Math.log(Y[0]);\nreturn 0;', "dy[0] = ((Math.log(Y[0]) + Math.log(Y[0])) + ')');\nreturn 0;", 'dy[0] = (Math.log(Y[0]) + Math.exp(Y[0]));\nreturn 0;']) {
      expect(hoistRepeated(body)).toBe(body);
    }
  });

  it("leaves no repeated Math group in any shipped flow model's compiled right-hand side", () => {
    for (const id of ['reno', 'westwood', 'cubic', 'newreno', 'tahoe', 'bbr', 'dctcp']) {
      const parts = compileParts(join(DEFAULT_MODELS_DIR, 'bottleneck.model.yaml'), join(DEFAULT_MODELS_DIR, `${id}.model.yaml`));
      const rhs = parts.source.flowRhs!.replace(/^"use strict";\n/, '');
      expect(hoistRepeated(rhs), id).toBe(rhs);
    }
  });
});
