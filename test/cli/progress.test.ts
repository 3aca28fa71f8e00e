import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { etaS, formatDuration, progressLine, progressReporter } from '../../src/cli/progress.js';

function stream(isTTY: boolean) {
  const s = new PassThrough() as PassThrough & { isTTY: boolean; columns: number; cursorTo: () => boolean; clearLine: () => boolean; moveCursor: () => boolean };
  s.isTTY = isTTY;
  s.columns = 160;
  s.cursorTo = () => true;
  s.clearLine = () => true;
  s.moveCursor = () => true;
  let text = '';
  s.on('data', (d: Buffer) => (text += d.toString()));
  return { s: s as unknown as NodeJS.WriteStream, text: () => text };
}

describe('progress', () => {
  it('etaS(p, elapsed, cachedAtStart) extrapolates the rate of computed runs only', () => {
    // 10 cached at the start, 10 computed in 20 s: 2 s a run, 30 left -> 60 s.
    expect(etaS({ done: 20, total: 50 }, 20, 10)).toBe(60);
    expect(etaS({ done: 10, total: 50 }, 5, 10)).toBe(Infinity);
  });
  it('formatDuration(s) rounds to seconds, minutes and hours', () => {
    expect(formatDuration(4.4)).toBe('4 s');
    expect(formatDuration(250)).toBe('4 min 10 s');
    expect(formatDuration(7500)).toBe('2 h 5 min');
    expect(formatDuration(Infinity)).toBe('?');
  });
  it('progressLine names the counts, the elapsed time and the ETA', () => {
    expect(progressLine('sweep', { done: 12, total: 48, cached: 3, failed: 0 }, 9, 3)).toBe('sweep: 12/48 runs (25%), 3 cached, 0 failed, 9 s elapsed, ETA 36 s');
    expect(progressLine('report', { done: 4, total: 4 }, 2, 0)).toBe('report: 4/4 runs (100%), 2 s elapsed, done');
  });
  it('prints a plain line at most every few seconds when the stream is not a terminal, and the final one', () => {
    const { s, text } = stream(false);
    let now = 0;
    const p = progressReporter({ name: 'sweep', stream: s, everyS: 5, nowS: () => now });
    p.update({ done: 0, total: 4, cached: 0, failed: 0 });
    now = 1;
    p.update({ done: 1, total: 4, cached: 0, failed: 0 }); // within 5 s: silent
    now = 6;
    p.update({ done: 2, total: 4, cached: 0, failed: 1 });
    now = 7;
    p.update({ done: 4, total: 4, cached: 0, failed: 1 });
    p.stop();
    expect(text().split('\n').filter((l) => l !== '')).toEqual([
      'sweep: 0/4 runs (0%), 0 cached, 0 failed, 0 s elapsed, ETA ?',
      'sweep: 2/4 runs (50%), 0 cached, 1 failed, 6 s elapsed, ETA 6 s',
      'sweep: 4/4 runs (100%), 0 cached, 1 failed, 7 s elapsed, done',
    ]);
    expect(text()).not.toContain('\r');
  });
  it('prints the last state on stop when the run ends early (interrupted)', () => {
    const { s, text } = stream(false);
    let now = 0;
    const p = progressReporter({ name: 'report', stream: s, nowS: () => now });
    p.update({ done: 0, total: 10 });
    now = 1;
    p.update({ done: 3, total: 10 });
    p.stop();
    expect(text().trim().split('\n').at(-1)).toBe('report: 3/10 runs (30%), 1 s elapsed, ETA 2 s');
  });
  it('writes nothing with quiet', () => {
    const { s, text } = stream(false);
    const p = progressReporter({ name: 'sweep', stream: s, quiet: true });
    p.update({ done: 1, total: 4 });
    p.stop();
    expect(text()).toBe('');
  });
  it('draws a bar with counts and an ETA on a terminal', async () => {
    const { s, text } = stream(true);
    const p = progressReporter({ name: 'sweep', stream: s });
    p.update({ done: 1, total: 4, cached: 1, failed: 0 });
    p.update({ done: 4, total: 4, cached: 1, failed: 1 });
    p.stop();
    await new Promise((r) => setImmediate(r));
    expect(text()).toMatch(/4\/4 runs \| 1 cached, 1 failed \| ETA/);
  });
});
