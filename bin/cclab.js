#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm run build`, which `npm ci` runs through `prepare`).
// When dist/ is missing or older than a file under src/ (an edit since the last build), runs the
// TypeScript sources through tsx instead and says so: slower to start, never stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist/cli/main.js`;

/** Newest modification time under a directory (ms); about 1 ms for the ~200 files of src/. */
function newestMtimeMs(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    newest = Math.max(newest, e.isDirectory() ? newestMtimeMs(p) : statSync(p).mtimeMs);
  }
  return newest;
}

let main;
if (existsSync(built) && statSync(built).mtimeMs >= newestMtimeMs(`${root}src`)) {
  ({ main } = await import(built));
} else {
  if (process.env.CCLAB_QUIET_STALE === undefined) {
    process.stderr.write(`cclab: note: ${existsSync(built) ? 'dist/ is older than src/' : 'dist/ is not built'}; running the sources through tsx (run \`npm run build\` for a fast start)\n`);
  }
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv);
