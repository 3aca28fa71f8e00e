import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** Left out of the quick tier: packet vs ns-3 and fluid vs packet agreement suites, and the browsers. */
const SLOW = ['**/*agreement*.test.ts', '**/browser.test.ts'];

/**
 * Files about a fresh process's module state, run each in its own module graph as under `npm test`:
 * which compiler a miss uses depends on whether compileFiles.ts was loaded in this process
 * (fluid/systems), and `vi.mock` replaces a module only for the files that import it afresh
 * (fuzz/runFailed).
 */
const FRESH = ['test/fluid/systems.test.ts', 'test/fuzz/runFailed.test.ts'];

/**
 * `npm run test:quick`: everything but the agreement suites and the browser tests, for the edit-test
 * loop. Unlike `npm test` (CI: each file in a fresh module graph), the files a worker runs share one
 * module graph (`isolate: false`), so src/ and its dependencies are imported and transformed once per
 * worker instead of once per file, which was about half of the tier's CPU. A test file must
 * therefore leave no state behind for the next (process.cwd, env, spies, temp folders: test/setup.ts).
 */
export default defineConfig({
  test: {
    maxWorkers: base.test?.maxWorkers,
    projects: [
      { test: { ...base.test, name: 'shared', isolate: false, exclude: ['**/node_modules/**', ...SLOW, ...FRESH] } },
      { test: { ...base.test, name: 'fresh', include: FRESH } },
    ],
  },
});
