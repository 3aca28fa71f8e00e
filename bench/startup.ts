/**
 * CLI start-up (issue 11): whole-process wall time of `cclab --help` and of
 * `cclab predict --scenario lfn --variant reno` against a bare `node -e 0`, run in turn (A B A B ...)
 * so that each ratio is taken pair by pair on the same machine state; medians of the pairs.
 * Targets: --help <= 3x, predict <= 5x a bare node start. Runs the compiled CLI (`npm run build`);
 * the fluid model cache is warmed first, so the figures are those of every call after the first.
 * Standalone: `node --import tsx bench/startup.ts`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from 'simple-statistics';

const BIN = fileURLToPath(new URL('../bin/cclab.js', import.meta.url));
const BUILT = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const PAIRS = 9;

function wallS(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CCLAB_QUIET_STALE: '1' } });
  const s = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr.toString().split('\n')[0]}`);
  return s;
}

function paired(name: string, args: string[]): void {
  wallS(args); // warm-up: file cache, model cache
  const a: number[] = [];
  const b: number[] = [];
  const ratio: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const ta = wallS(args);
    const tb = wallS(['-e', '0']);
    a.push(ta);
    b.push(tb);
    ratio.push(ta / tb);
  }
  console.log(
    `${name.padEnd(44)} ${(median(a) * 1000).toFixed(0).padStart(5)} ms   node -e 0 ${(median(b) * 1000).toFixed(0).padStart(4)} ms   ratio ${median(ratio).toFixed(2)}x (min ${Math.min(...ratio).toFixed(2)}, max ${Math.max(...ratio).toFixed(2)})`,
  );
}

export function benchStartup(): void {
  if (!existsSync(BUILT)) {
    console.log('startup: dist/ is not built (npm run build); skipped');
    return;
  }
  console.log(`whole-process wall time, median of ${PAIRS} pairs (targets: --help <= 3x, predict <= 5x)`);
  paired('cclab --help', [BIN, '--help']);
  paired('cclab predict --scenario lfn --variant reno', [BIN, 'predict', '--scenario', 'lfn', '--variant', 'reno']);
  paired('cclab simulate --scenario lossy --duration 10s', [BIN, 'simulate', '--scenario', 'lossy', '--duration', '10s']);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) benchStartup();
