/**
 * Module hooks for `npm run bench` (registered by bench/dist.mjs): an import that resolves into
 * src/ loads the compiled file under dist/ instead, when it exists. The bench then times the code
 * `npm start` and the CLI run (dist/, built by `npm run build` just before the bench), not the
 * TypeScript sources through tsx, whose transform reads every imported binding through a getter (about
 * 1.2x slower per packet-engine event). Type-only imports are erased by tsx and never reach here.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SRC = new URL('../src/', import.meta.url).href;
const DIST = new URL('../dist/', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const r = await nextResolve(specifier, context);
  if (!r.url.startsWith(SRC)) return r;
  const built = DIST + r.url.slice(SRC.length).replace(/\.ts$/, '.js');
  return existsSync(fileURLToPath(built)) ? { url: built, format: 'module', shortCircuit: true } : r;
}
