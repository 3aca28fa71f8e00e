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

export const { parse, derivative, evaluate, det, inv, multiply, ConstantNode, ParenthesisNode, SymbolNode } = math;
