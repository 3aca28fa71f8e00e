#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm run build`, which `npm ci` runs through `prepare`).
// When dist/ is missing or older than a file under src/ (an edit since the last build), runs the
// TypeScript sources through tsx instead and says so: slower to start, never stale.
import { existsSync } from 'node:fs';
import { builtMain, distIsFresh } from './distFresh.js';

let main;
if (distIsFresh()) {
  ({ main } = await import(builtMain));
} else {
  if (process.env.CCLAB_QUIET_STALE === undefined) {
    process.stderr.write(`cclab: note: ${existsSync(builtMain) ? 'dist/ is older than src/' : 'dist/ is not built'}; running the sources through tsx (run \`npm run build\` for a fast start)\n`);
  }
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv);
