import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from './vitest.config.js';

/**
 * Left out of the quick tier: the agreement suites (a model, closed form or linear verdict against
 * packet-engine runs, or the packet engine against ns-3), named `*-agreement*.test.ts` (fluid's own
 * suite is `agreement.test.ts`), and the browser tests. runs/agreement and report/agreement test the
 * agreement statistics on synthetic runs: they stay.
 */
const SLOW = ['**/*-agreement*.test.ts', 'test/fluid/agreement.test.ts', '**/browser.test.ts'];

/**
 * The files that cost more than about 2 CPU-s each in this tier (per-file CPU of the worker process
 * and its children, measured on the whole tier), longest first. They start first so that the tier
 * never ends on one long file running alone while the other core idles (LPT scheduling; the short
 * files fill both cores at the end). Vitest's own order is by the previous run's durations, kept in
 * node_modules/.vite, which a fresh clone does not have: it then starts the largest files first, and
 * report/size (30 lines, ~14 CPU-s) came near the end.
 */
const LONGEST_FIRST = [
  'test/report/size.test.ts',
  'test/cli/outputs.test.ts',
  'test/packet/variants.test.ts',
  'test/cluster/scripts.test.ts',
  'test/fluid/run.test.ts',
  'test/theory/stability.test.ts',
  'test/sweep/e2e.test.ts',
  'test/sweep/cacheConcurrency.test.ts',
  'test/cc/bbr.test.ts',
  'test/competition/recovery.test.ts',
  'test/project/functionLength.test.ts',
  'test/fluid/systems.test.ts',
  'test/fluid/bbr3-compete.test.ts',
  'test/report/models.test.ts',
  'test/models/models.test.ts',
  'test/competition/competition.test.ts',
  'test/sweep/report.test.ts',
  'test/sweep/crash.test.ts',
  'test/packet/qdisc.test.ts',
];

/** Vitest's order (its duration cache or file sizes), with the files above moved to the front in their order. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * `npm run test:quick`: everything but the agreement suites and the browser tests, for the edit-test
 * loop. Unlike `npm test` (CI: each file in a fresh module graph), the files a worker runs share one
 * module graph (`isolate: false`), so src/ and its dependencies are imported and transformed once per
 * worker instead of once per file, which was about half of the tier's CPU. A test file must
 * therefore leave no state behind for the next (process.cwd, env, spies, temp folders: test/setup.ts),
 * and one about a fresh process's module state sets that state up itself (fluid/systems sets the
 * loaded compiler aside; a test replaces an engine through src/engines.ts's seams, not `vi.mock`,
 * which would need a fresh graph).
 */
export default defineConfig({
  test: {
    ...base.test,
    isolate: false,
    exclude: ['**/node_modules/**', ...SLOW],
    sequence: { sequencer: LongestFirst },
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache, keyed by
    // each file's content and path and the config): the edit-test loop re-transforms only what changed.
    // A cached module keeps the paths its imports resolved to: after a rename that leaves an importer's
    // text unchanged (test/sweep/fixtures/fakeEngine.ts -> .js), that importer fails with "Cannot find
    // module" the old path until `npx vitest --clearCache` (or any edit of this file, which changes every key).
    // Vitest's main process and worker start-up (the tier's CPU outside its test files) measured 8.2 and
    // 8.6 CPU-s with the cache warm against 14.6 and 15.2 without; a first run (empty cache) 16.9.
    experimental: { fsModuleCache: true },
  },
});
