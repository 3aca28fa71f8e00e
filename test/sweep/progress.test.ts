import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { progressReporter } from '../../src/sweep/progress.js';

function stream(isTTY: boolean) {
  const s = new PassThrough() as PassThrough & { isTTY: boolean; columns: number; cursorTo: () => boolean; clearLine: () => boolean; moveCursor: () => boolean };
  s.isTTY = isTTY;
  s.columns = 120;
  s.cursorTo = () => true;
  s.clearLine = () => true;
  s.moveCursor = () => true;
  let text = '';
  s.on('data', (d: Buffer) => (text += d.toString()));
  return { s, text: () => text };
}

describe('progressReporter', () => {
  it('writes nothing when the stream is not a terminal', () => {
    const { s, text } = stream(false);
    const p = progressReporter({ stream: s as unknown as NodeJS.WriteStream });
    p.update({ done: 1, total: 4, cached: 1, failed: 0 });
    p.stop();
    expect(text()).toBe('');
  });
  it('draws a bar with counts and an ETA on a terminal', async () => {
    const { s, text } = stream(true);
    const p = progressReporter({ stream: s as unknown as NodeJS.WriteStream });
    p.update({ done: 1, total: 4, cached: 1, failed: 0 });
    p.update({ done: 4, total: 4, cached: 1, failed: 1 });
    p.stop();
    await new Promise((r) => setImmediate(r));
    expect(text()).toMatch(/4\/4 runs \| 1 cached, 1 failed \| ETA/);
  });
});
