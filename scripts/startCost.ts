/**
 * Where `npm start`'s CPU goes, by thread (issue 24): runs `cclab report` (default: the seed study)
 * from an empty run and model cache in a child process and reads every thread's CPU time from
 * /proc/<pid>/task/<tid>/schedstat every 100 ms (Linux only). Prints wall time, the process's CPU-s
 * and the split: the main thread (page, stability analyses, model compiles), the report's worker
 * threads (the runs; the `--workers` busiest threads other than the main one, default the core
 * count) and the rest (V8's platform threads: TurboFan's concurrent compiles, parallel scavenges,
 * concurrent marking; libuv). On a shared machine compare CPU-s, alternating A/B, never wall time.
 *   npx tsx scripts/startCost.ts [--recipe FILE] [--workers N] [--keep-cache] [--runs N]
 * --keep-cache: leave .cache/runs in place (then only the main thread's work and the charted runs are left).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { hasFlag, numberArg, stringArg } from './scriptArgs.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const workers = numberArg('workers', availableParallelism());
const recipe = stringArg('recipe');

/** CPU seconds of every thread of `pid` still alive (schedstat's first field is the time on a CPU, ns). */
function threadCpuS(pid: number, into: Map<number, number>): void {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return; // exited
  }
  for (const tid of tids) {
    try {
      into.set(Number(tid), Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e9);
    } catch {
      // the thread ended between the listing and the read: its last reading stays
    }
  }
}

async function once(): Promise<void> {
  rmSync(`${ROOT}.cache/models`, { recursive: true, force: true });
  if (!hasFlag('keep-cache')) rmSync(`${ROOT}.cache/runs`, { recursive: true, force: true });
  const args = ['bin/cclab.js', 'report', ...(recipe ? ['--recipe', recipe, '--out', `${ROOT}reports/start-cost`] : ['--name', 'seed-study']), '--quiet', '--workers', String(workers)];
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  const t0 = performance.now();
  const nodeFlags = (process.env.START_COST_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const cpu = new Map<number, number>();
  const poll = setInterval(() => threadCpuS(child.pid!, cpu), 100);
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  clearInterval(poll);
  const wallS = (performance.now() - t0) / 1000;
  if (code !== 0) throw new Error(`cclab report exited with ${code}`);
  const main = cpu.get(child.pid!) ?? 0;
  const others = [...cpu].filter(([tid]) => tid !== child.pid).map(([, s]) => s).sort((a, b) => b - a);
  const pool = others.slice(0, workers).reduce((a, b) => a + b, 0);
  const rest = others.slice(workers).reduce((a, b) => a + b, 0);
  const f = (x: number) => x.toFixed(2);
  console.log(`wall ${f(wallS)} s  CPU ${f(main + pool + rest)} s  main ${f(main)}  workers ${f(pool)} (${others.slice(0, workers).map(f).join(' + ')})  V8/libuv ${f(rest)}  load ${load}`);
}

for (let i = 0; i < numberArg('runs', 1); i++) await once();
