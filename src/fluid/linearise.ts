import { derivative, evaluate, parse, simplify } from 'mathjs';
import type { MathNode } from 'mathjs';
import { InputError } from '../errors.js';
import type { ParsedModel } from './modelDoc.js';

/**
 * Symbolic partial derivatives of one equation's right-hand side (mathjs `derivative`), for the
 * Jacobian and the linearisation around an operating point. Delayed values X(t - R) become symbols
 * `X_tau` (the linearisation treats the delayed state as its own variable, as Hollot et al. 2001),
 * and a conditional keeps only the branch selected by `branch` ('false' = the congestion-avoidance
 * branch of `ss == 1 ? ... : ...`). Returns text per variable, or an error note per variable.
 */
export function partials(
  model: ParsedModel,
  state: string,
  wrt: string[],
  branch: 'true' | 'false' = 'false',
  /** Parameter values substituted before differentiating (e.g. { timeouts: 0 } drops a min() term). */
  substitute: Record<string, number> = {},
): Record<string, string> {
  const eq = model.equations.find((e) => e.state === state);
  if (!eq) throw new InputError('state', `'${state}' has no equation in ${model.file}`);
  let node = undelay(parse(eq.expression), branch);
  if (Object.keys(substitute).length > 0) {
    node = simplify(node.transform((n) => (n.type === 'SymbolNode' && (n as unknown as { name: string }).name in substitute ? parse(String(substitute[(n as unknown as { name: string }).name])) : n)));
  }
  const out: Record<string, string> = {};
  for (const v of wrt) {
    try {
      out[v] = simplify(derivative(node, v)).toString();
    } catch (e) {
      out[v] = `n/a (${(e as Error).message.split('(')[0]!.trim()})`;
    }
  }
  return out;
}

/**
 * The partial derivatives of {@link partials} evaluated at an operating point (the linearisation's
 * coefficients). `point` gives every symbol the derivatives use, delayed ones as `X_tau`.
 */
export function partialsAt(
  model: ParsedModel,
  state: string,
  wrt: string[],
  point: Record<string, number>,
  branch: 'true' | 'false' = 'false',
  substitute: Record<string, number> = {},
): Record<string, number> {
  const sym = partials(model, state, wrt, branch, substitute);
  const out: Record<string, number> = {};
  for (const v of wrt) out[v] = sym[v]!.startsWith('n/a') ? NaN : Number(evaluate(sym[v]!, { ...point }));
  return out;
}

function undelay(root: MathNode, branch: 'true' | 'false'): MathNode {
  return root.transform((n) => {
    if (n.type === 'ConditionalNode') {
      const c = n as unknown as { trueExpr: MathNode; falseExpr: MathNode };
      return undelay(branch === 'true' ? c.trueExpr : c.falseExpr, branch);
    }
    if (n.type === 'FunctionNode') {
      const f = n as unknown as { fn: { name: string }; args: MathNode[] };
      const isDelay = f.args.length === 1 && !['abs', 'sqrt', 'cbrt', 'exp', 'log', 'log2', 'log10', 'floor', 'ceil', 'sign', 'tanh'].includes(f.fn.name);
      if (isDelay) return parse(`${f.fn.name}_tau`);
    }
    return n;
  });
}
