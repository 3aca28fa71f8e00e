import type { MathNode } from 'mathjs';
import { parseModelText } from './expr.js';

/**
 * LaTeX of a model expression for the report, via mathjs `toTex` with a handler: mathjs would print
 * a symbol such as `W` as `\mathrm{W}` (it reads it as the unit watt, see dependencies.md), so symbols
 * are printed as plain italic names (multi-letter names as X_{\mathrm{rest}}), and delayed values
 * W(t - R) as calls. The output is wrapped in braces so it composes safely.
 */
export function toLatex(text: string, file = '', line = 0): string {
  const node = parseModelText(text, 'expression', `${file}:${line}`);
  const handler = (n: MathNode, options: object): string | undefined => {
    if (n.type === 'SymbolNode') return symbolTex((n as unknown as { name: string }).name);
    if (n.type === 'FunctionNode') {
      const f = n as unknown as { fn: { name: string }; args: MathNode[] };
      const name = f.fn.name;
      const args = f.args.map((a) => a.toTex({ ...options, handler } as never));
      if (name === 'sqrt') return `\\sqrt{${args[0]}}`;
      if (name === 'cbrt') return `\\sqrt[3]{${args[0]}}`;
      if (name === 'exp') return `{e}^{${args[0]}}`; // braced: after mathjs's \cdot a bare e would read as \cdote
      // A power, typeset as one: pow(1 - p, W) is (1 - p)^W, the base bracketed unless it is a bare symbol.
      if (name === 'pow') return `{${f.args[0]!.type === 'SymbolNode' || f.args[0]!.type === 'ConstantNode' ? args[0] : `\\left(${args[0]}\\right)`}}^{${args[1]}}`;
      if (name === 'log') return `\\ln\\left(${args[0]}\\right)`;
      if (name === 'abs') return `\\left|${args[0]}\\right|`;
      if (['min', 'max'].includes(name)) return `\\${name}\\left(${args.join(', ')}\\right)`;
      if (name === 'expdraw') return '\\operatorname{expdraw}()';
      return `${symbolTex(name)}\\left(${args.join(', ')}\\right)`;
    }
    return undefined;
  };
  return `{${node.toTex({ handler } as never)}}`;
}

const GREEK = new Set(['alpha', 'beta', 'gamma', 'delta', 'lambda', 'mu', 'tau', 'theta', 'rho', 'sigma']);

function symbolTex(name: string): string {
  if (GREEK.has(name)) return `{\\${name}}`;
  if (name.length === 1) return `{${name}}`;
  // W0, Wmax, Tp, West, a1: a letter with a short subscript (capital initial, or digits); other
  // lower-case names (ss, hold, wcubic) read as words.
  const m = /^([A-Z])([0-9]+|[a-z]{1,3})$/.exec(name) ?? /^([a-z])([0-9]+)$/.exec(name);
  if (m) return `{${m[1]}_{\\mathrm{${m[2]}}}}`;
  return `{\\mathit{${name.replace(/_/g, '\\_')}}}`;
}
