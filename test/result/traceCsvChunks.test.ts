import { readFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/io/atomicWrite.js';
import { runPacket } from '../../src/packet/run.js';
import { tracesCsv, tracesCsvChunks } from '../../src/result/traceCsv.js';
import { presetScenario } from '../../src/scenario/presets.js';
import { tempDir } from '../helpers/tmp.js';

describe('traces.csv written in chunks', () => {
  it('is the same text as the one-string form, one row per recorded point', () => {
    const r = runPacket(presetScenario('ns3-lfn', 'reno', { durationS: 5, flows: 2 }));
    const dir = tempDir('cclab-csv-');
    writeFileAtomic(join(dir, 'traces.csv'), tracesCsvChunks(r));
    const text = readFileSync(join(dir, 'traces.csv'), 'utf8');
    expect(text).toBe(tracesCsv(r));
    const points = r.flows.reduce((a, f) => a + Object.values(f.trace).reduce((b, s) => b + s.t.length, 0), 0) + r.queue.packets.t.length;
    expect(text.split('\n').length).toBe(points + 2); // header and the final newline
    expect(text.split('\n')[1]).toBe(`0,cwndBytes,${r.flows[0]!.trace.cwndBytes.t[0]},${r.flows[0]!.trace.cwndBytes.v[0]}`);
  });
});
