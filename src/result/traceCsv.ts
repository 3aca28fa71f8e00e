import type { RunResult, Series } from './types.js';

/**
 * Traces as tidy CSV (one row per point: flow, series, tS, value), the shape pandas, R and
 * Vega-Lite read without reshaping. Series are recorded on change, so their time grids differ.
 */
export function tracesCsv(r: RunResult): string {
  return [...tracesCsvChunks(r)].join('');
}

/** The same text in pieces of one series each, for writing large runs without one giant string. */
export function* tracesCsvChunks(r: RunResult): Generator<string> {
  yield 'flow,series,tS,value\n';
  const rows = (flow: string, name: string, s: Series): string => {
    let out = '';
    for (let i = 0; i < s.t.length; i++) out += `${flow},${name},${s.t[i]},${s.v[i]}\n`;
    return out;
  };
  for (let i = 0; i < r.flows.length; i++) {
    for (const [name, series] of Object.entries(r.flows[i]!.trace)) yield rows(String(i), name, series as Series);
  }
  yield rows('', 'queuePackets', r.queue.packets);
}
