import { parse } from 'mathjs';
import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { toLatex } from '../../src/fluid/latex.js';
import { defaultModelDocs, splitSum } from '../../src/report/models.js';
import { VARIANTS } from '../../src/variants.js';

const tex = (t: string) => toLatex(t);

describe('model equations for the report', () => {
  it('toLatex(pow(a, b)) typesets a power, bracketing a compound base', () => {
    expect(toLatex('pow(1 - p, W)')).toBe('{{\\left(1-{p}\\right)}^{{W}}}');
    expect(toLatex('pow(x, 2)')).toBe('{{{x}}^{2}}');
  });

  it('splitSum(lhs, text) sets a long branchy sum one branch and one term per line, and leaves short ones alone', () => {
    const long = 'ss == 1 ? W * log(2) / R : (segmentCounting == 1 ? 1 : 1 / b) / R - (lossEvents == 1 ? 1 / R : rate(t - R) * p(t - R)) * ((W / 2) * (1 - timeouts) + (W - 1) * timeouts)';
    const out = splitSum('\\frac{dW}{dt}', long, parse, tex)!;
    expect(out.startsWith('\\begin{aligned}')).toBe(true);
    const lines = out.replace(/^\\begin\{aligned\}|\\end\{aligned\}$/g, '').split(' \\\\ ');
    // slow start; congestion avoidance: the increase, then the decrease on a line of its own.
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('&& \\text{if }');
    expect(lines[1]).toContain('&& \\text{otherwise}');
    expect(lines[2]).toMatch(/^&\\quad - .*\\cdot/);
    // A longer bracketed sum in a product is broken inside fixed-size brackets.
    const longer = long.replace('((W / 2) * (1 - timeouts) + (W - 1) * timeouts)', '((W / 2) * (1 - timeouts * min(1, 3 / W)) + (W - 1) * timeouts * min(1, 3 / W))');
    const more = splitSum('\\frac{dW}{dt}', longer, parse, tex)!;
    expect(more).toContain('\\Big(');
    expect(more).toContain('\\Big)');
    expect(() => katex.renderToString(more, { displayMode: true, throwOnError: true })).not.toThrow();
    expect(() => katex.renderToString(out, { displayMode: true, throwOnError: true })).not.toThrow();
    expect(splitSum('\\frac{dW}{dt}', '1 / R - W / 2', parse, tex)).toBeUndefined();
  });

  it("every variant's model renders with KaTeX, without a literal pow", async () => {
    const docs = await defaultModelDocs();
    for (const v of VARIANTS) {
      for (const d of await docs(v)) {
        for (const e of d.equations) {
          expect(e.latex, `${d.id}`).not.toMatch(/pow\\left|mathit\{pow\}/);
          expect(() => katex.renderToString(e.latex, { displayMode: true, throwOnError: true }), `${d.id}: ${e.latex.slice(0, 60)}`).not.toThrow();
        }
      }
    }
  });
});
