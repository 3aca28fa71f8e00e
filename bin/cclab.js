#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm run build`, which `npm ci` runs through `prepare`).
// When dist/ is missing or older than a file under src/ (an edit since the last build), runs the
// TypeScript sources through tsx instead and says so: slower to start, never stale.
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { builtMain, builtPrestart, distIsFresh } from './distFresh.js';

// V8 tiers a function up to TurboFan after it has run about --interrupt-budget bytes of bytecode
// (Node 20: 67584). The report's runs recompile their hot functions many times over (each worker
// thread, each variant, each new branch taken: a deopt), and those compiles run on V8's background
// threads beside the two workers: a quarter of `npm start`'s CPU (issue 24). A larger budget waits
// for steadier type feedback: fewer compiles, a little more time in the lower tiers. Set here, before
// any code of ours or any worker thread exists; V8 flags are per process, so the worker threads
// (runs/pool.ts) get it too. Measured on the seed study from an empty cache (scripts/startCost.ts,
// alternating, load 4-8, CPU-s): default 32.2 / 34.4 / 32.5 (V8 background 6.9 / 7.2 / 6.8);
// 250000: 31.8 / 32.2 / 31.5 (5.3 / 5.3 / 5.1); 500000: 32.5 / 34.0 / 31.0; 1000000: 32.6 / 33.1 /
// 32.0 (main thread 4.5 -> 5.2-5.6); 2000000: 36.7 / 32.8 / 34.8 (workers 24-26 instead of 21).
// TurboFan compiles (--trace-opt) 1981 -> 1408. The large case (bench/packet.ts --target) is not
// slower with it. Results do not depend on it (JIT timing only; the fingerprint is the same).
// A budget given to node itself (node --interrupt-budget=N: scripts/startCost.ts's START_COST_NODE_FLAGS) is left alone.
const INTERRUPT_BUDGET = 250000;
if (!process.execArgv.some((a) => a.startsWith('--interrupt-budget') || a.startsWith('--interrupt_budget'))) {
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
}

// `cclab report` starts its worker threads first, so that they start while the CLI's modules load
// (src/cli/prestart.ts); what it returns stops the threads the command did not take. Only a speed-up:
// if it fails, the command starts its threads itself.
const noPrestart = () => async () => {};
let main, prestarted;
if (distIsFresh()) {
  prestarted = import(builtPrestart).then((m) => m.prestart(process.argv), noPrestart);
  ({ main } = await import(builtMain));
} else {
  if (process.env.CCLAB_QUIET_STALE === undefined) {
    process.stderr.write(`cclab: note: ${existsSync(builtMain) ? 'dist/ is older than src/' : 'dist/ is not built'}; running the sources through tsx (run \`npm run build\` for a fast start)\n`);
  }
  const { register } = await import('tsx/esm/api');
  register();
  prestarted = import('../src/cli/prestart.ts').then((m) => m.prestart(process.argv), noPrestart);
  ({ main } = await import('../src/cli/main.ts'));
}
// Settled before the command runs, so that its pool finds the threads whatever the modules' load order.
const release = await prestarted;
process.exitCode = await main(process.argv);
await release();
