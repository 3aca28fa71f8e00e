import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const created: string[] = [];

/**
 * Removes the folders `tempDir` made; test/setup.ts calls it after each test file. A hook registered
 * here at import would run only after the first file that imports this module when the files of a
 * worker share one module graph (`npm run test:quick`).
 */
export function removeTempDirs(): void {
  for (const d of created.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A fresh empty folder under the OS temp dir, removed when the test file ends. The one temp-folder helper of the tests. */
export function tempDir(prefix = 'cclab-test-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  created.push(d);
  return d;
}
