import { availableParallelism } from 'node:os';
import { DEFAULT_ENGINE_MODULE, prestartRunPool, releasePrestarted } from '../runs/pool.js';

/**
 * What the `cclab` binary starts before the CLI's own modules load (bin/cclab.js; issue 24): for
 * `cclab report`, the worker threads of its runs, each loading the packet engine, so that their
 * start-up (a thread, its modules: ~0.45 s of wall time before the first run could start) runs
 * beside the main thread's instead of after it. The report's RunPool takes them (runs/pool.ts);
 * a report that runs nothing on a pool (no replications, no contrast) leaves them, and the
 * function returned stops them. Flags are read here only as far as the thread count goes: every
 * check is the command's own, and a `--workers` it would refuse starts nothing here. `engineModule`:
 * what the threads load (tests: a fake engine).
 */
export function prestart(argv: readonly string[], engineModule = DEFAULT_ENGINE_MODULE): () => Promise<void> {
  const args = argv.slice(2);
  if (args.find((a) => !a.startsWith('-')) !== 'report' || args.includes('--help') || args.includes('-h')) return async () => {};
  const threads = workersFlag(args);
  if (threads !== undefined && threads > 0) prestartRunPool(threads, engineModule);
  return releasePrestarted;
}

/** `--workers N` or `--workers=N` as the report reads it (default: the cores); undefined when it is not a whole number in [0, 256]. */
function workersFlag(args: readonly string[]): number | undefined {
  let raw: string | undefined = String(availableParallelism());
  // The last one counts, as in commander.
  args.forEach((a, i) => {
    if (a === '--workers') raw = args[i + 1];
    else if (a.startsWith('--workers=')) raw = a.slice('--workers='.length);
  });
  return raw !== undefined && /^\d{1,3}$/.test(raw) && Number(raw) <= 256 ? Number(raw) : undefined;
}
