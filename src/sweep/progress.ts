import cliProgress from 'cli-progress';
import type { Progress } from './execute.js';

/** A progress reporter: `update` on every finished run, `stop` at the end. */
export interface ProgressReporter {
  update(p: Progress): void;
  stop(): void;
}

/**
 * A progress bar with ETA on stderr when it is a terminal; silent otherwise (logs and Slurm output
 * files should not fill with carriage returns). The bar starts at the number of cache hits, so its
 * ETA reflects the rate of real runs only.
 */
export function progressReporter(opts: { quiet?: boolean; stream?: NodeJS.WriteStream } = {}): ProgressReporter {
  const stream = opts.stream ?? process.stderr;
  if (opts.quiet || !stream.isTTY) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: 'sweep |{bar}| {percentage}% {value}/{total} runs | {cached} cached, {failed} failed | ETA {eta_formatted} | {duration_formatted}',
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
      const payload = { cached: p.cached, failed: p.failed };
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
