import { createRequire } from 'node:module';

/**
 * The mathjs functions cclab uses (the fluid language's parser, the linearisation's derivatives, the
 * stability analysis's matrices), from the package's single-file build (`mathjs/lib/browser/math.js`,
 * the same version and code, exported by the package). Importing `mathjs` itself loads ~1,000 ES modules
 * and creates every one of its functions up front: 1.8-2.4 CPU-s, on the critical path of every report
 * and fluid compile; the single file loads in ~0.3 CPU-s and creates a function on its first use.
 * Everything that builds or inspects mathjs nodes must take them from here (one instance: node classes
 * of two instances are different classes).
 */
const math = createRequire(import.meta.url)('mathjs/lib/browser/math.js') as typeof import('mathjs');

/**
 * mathjs compiles an expression node by node, each child once per occurrence; the linear models
 * (src/theory/linearModel.ts) share their inlined definitions, so a right-hand side is a DAG that
 * compiled as a tree cost ~1 CPU-s of the seed study's stability analyses. Each node class's
 * `_compile` is memoised per (argNames, node): `compile()` passes a fresh argNames object down the
 * tree, so the memo lasts one compile, and the closure two occurrences share is the one each would
 * have built (a function of the node, its children and the scope it is called with, nothing else).
 */
type NodeCompile = (this: object, mathWithTransform: unknown, argNames: object) => unknown;
const compiledIn = new WeakMap<object, WeakMap<object, unknown>>();
for (const name of ['AccessorNode', 'ArrayNode', 'AssignmentNode', 'BlockNode', 'ConditionalNode', 'ConstantNode', 'FunctionAssignmentNode', 'FunctionNode', 'IndexNode', 'ObjectNode', 'OperatorNode', 'ParenthesisNode', 'RangeNode', 'RelationalNode', 'SymbolNode'] as const) {
  const proto = (math[name] as unknown as { prototype: { _compile: NodeCompile } }).prototype;
  const own = proto._compile;
  proto._compile = function (this: object, mathWithTransform: unknown, argNames: object): unknown {
    let byNode = compiledIn.get(argNames);
    if (!byNode) compiledIn.set(argNames, (byNode = new WeakMap()));
    let f = byNode.get(this);
    if (f === undefined) byNode.set(this, (f = own.call(this, mathWithTransform, argNames)));
    return f;
  };
}

export const { parse, derivative, evaluate, det, inv, multiply, and, or, ConstantNode, ParenthesisNode, SymbolNode } = math;

/** The functions a compiled expression calls (mathjs's namespace with its expression transforms: lazy and/or, one-based dimensions). */
export const mathWithTransform = (math as unknown as { expression: { mathWithTransform: Record<string, unknown> } }).expression.mathWithTransform;
