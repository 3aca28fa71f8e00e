// Whether dist/ (built by `npm run build`, which `npm ci` runs through `prepare`) is current: its CLI
// entry exists and is not older than any file under src/. bin/cclab.js runs dist/ only then, and the
// tests' child processes (test/helpers/childModule.ts) follow the same rule.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Newest modification time under a directory (ms); about 1 ms for the ~200 files of src/. */
function newestMtimeMs(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    newest = Math.max(newest, e.isDirectory() ? newestMtimeMs(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** The compiled CLI entry, dist/cli/main.js. */
export const builtMain = `${root}dist/cli/main.js`;

/** What the CLI starts before its modules load (src/cli/prestart.ts), compiled. */
export const builtPrestart = `${root}dist/cli/prestart.js`;

/** dist/ exists and no file under src/ is newer than its CLI entry. */
export function distIsFresh() {
  return existsSync(builtMain) && statSync(builtMain).mtimeMs >= newestMtimeMs(`${root}src`);
}
