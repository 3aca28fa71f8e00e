import cliProgress from 'cli-progress';
import type { SweepEstimate } from '../sweep/estimate.js';

/** How far a batch of runs has got. `cached` runs were served from a cache (they cost no time). */
export interface ProgressState {
  done: number;
  total: number;
  cached?: number;
  failed?: number;
  /** What just finished (shown on a terminal). */
  label?: string;
}

/** A progress reporter: `update` on every finished run, `stop` at the end. */
export interface ProgressReporter {
  update(p: ProgressState): void;
  stop(): void;
}

export interface ProgressOptions {
  /** What is being counted, e.g. `sweep` or `report` (the line's prefix). */
  name: string;
  /** What one step is (default `runs`). */
  unit?: string;
  quiet?: boolean;
  stream?: NodeJS.WriteStream;
  /** Seconds between two plain lines when the stream is not a terminal (default 5). */
  everyS?: number;
  /** Clock in seconds (tests inject one). */
  nowS?: () => number;
}

/**
 * The two lines a --dry-run prints after its run count (sweep and validate say it alike): distinct
 * runs, how many are cached (`cache` as the user named the folder, null when off), an estimated time.
 */
export function estimateLines(est: SweepEstimate, cache: string | null, workers: number): string {
  return (
    `${est.unique} distinct (identical runs share one result): ${est.cached} cached${cache === null ? ' (cache off)' : ` in ${cache}`}, ${est.unique - est.cached} to compute\n` +
    `estimated time: ${formatDuration(est.estimatedS)} on ${workers} worker${workers === 1 ? '' : 's'} (${est.basis})\n`
  );
}

/** `75 s`, `4 min 10 s`, `2 h 5 min`. */
export function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s > 0 && s < 0.5) return '< 1 s';
  const r = Math.round(s);
  if (r < 60) return `${r} s`;
  if (r < 3600) return `${Math.floor(r / 60)} min ${r % 60} s`;
  return `${Math.floor(r / 3600)} h ${Math.floor((r % 3600) / 60)} min`;
}

/**
 * Estimated seconds left: the rate of the runs computed so far (cache hits excluded, they cost
 * nothing) applied to the runs still to do. Infinity until a real run has finished.
 */
export function etaS(p: ProgressState, elapsedS: number, cachedAtStart: number): number {
  const computed = p.done - cachedAtStart;
  if (computed <= 0) return Infinity;
  return (elapsedS / computed) * (p.total - p.done);
}

/** The plain progress line for logs: `sweep: 12/48 runs (25%), 3 cached, 0 failed, 4 s elapsed, ETA 12 s`. */
export function progressLine(name: string, p: ProgressState, elapsedS: number, cachedAtStart: number, unit = 'runs'): string {
  const pct = p.total > 0 ? Math.floor((100 * p.done) / p.total) : 100;
  const extra = [p.cached !== undefined ? `${p.cached} cached` : '', p.failed !== undefined ? `${p.failed} failed` : ''].filter((x) => x !== '');
  const eta = p.done >= p.total ? 'done' : `ETA ${formatDuration(etaS(p, elapsedS, cachedAtStart))}`;
  return `${name}: ${p.done}/${p.total} ${unit} (${pct}%)${extra.length ? `, ${extra.join(', ')}` : ''}, ${formatDuration(elapsedS)} elapsed, ${eta}`;
}

/**
 * A progress bar with ETA on a terminal; elsewhere (CI logs, Slurm output files) a plain line every
 * few seconds and one at the end, never carriage returns. The ETA counts real runs only: a sweep that
 * starts with many cache hits does not promise to finish in no time.
 */
export function progressReporter(opts: ProgressOptions): ProgressReporter {
  const stream = opts.stream ?? process.stderr;
  if (opts.quiet) return { update() {}, stop() {} };
  const nowS = opts.nowS ?? (() => performance.now() / 1000);
  if (!stream.isTTY) {
    const everyS = opts.everyS ?? 5;
    let t0: number | undefined;
    let cachedAtStart = 0;
    let lastS = -Infinity;
    let last: ProgressState | undefined;
    let printedFinal = false;
    return {
      update(p) {
        const now = nowS();
        if (t0 === undefined) {
          t0 = now;
          cachedAtStart = p.cached ?? 0;
        }
        last = p;
        const final = p.done >= p.total;
        if (final ? printedFinal : now - lastS < everyS) return;
        lastS = now;
        printedFinal = final;
        stream.write(progressLine(opts.name, p, now - t0, cachedAtStart, opts.unit) + '\n');
      },
      stop() {
        if (last && !printedFinal && t0 !== undefined) stream.write(progressLine(opts.name, last, nowS() - t0, cachedAtStart, opts.unit) + '\n');
      },
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${opts.name} |{bar}| {percentage}% {value}/{total} ${opts.unit ?? 'runs'} | {cached} cached, {failed} failed | ETA {eta_formatted} | {duration_formatted} {label}`,
      etaBuffer: 50,
      fps: 5,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const payload = { cached: p.cached ?? 0, failed: p.failed ?? 0, label: p.label ?? '' };
      if (!started) {
        bar.start(p.total, p.done, payload);
        started = true;
      } else {
        bar.update(p.done, payload);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
