import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const created: string[] = [];
// Temp folders go when the importing test file ends (each test file gets a fresh copy of this module).
afterAll(() => {
  for (const d of created.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh empty folder under the OS temp dir, removed when the test file ends. The one temp-folder helper of the tests. */
export function tempDir(prefix = 'cclab-test-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  created.push(d);
  return d;
}
