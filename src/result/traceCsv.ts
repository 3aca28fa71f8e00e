import type { RunResult, Series } from './types.js';

/**
 * Traces as tidy CSV (one row per point: flow, series, tS, value), the shape pandas, R and
 * Vega-Lite read without reshaping. Series are recorded on change, so their time grids differ.
 */
export function tracesCsv(r: RunResult): string {
  const rows: string[] = ['flow,series,tS,value'];
  const push = (flow: string, name: string, s: Series) => {
    for (let i = 0; i < s.t.length; i++) rows.push(`${flow},${name},${s.t[i]},${s.v[i]}`);
  };
  r.flows.forEach((f, i) => {
    for (const [name, series] of Object.entries(f.trace)) push(String(i), name, series as Series);
  });
  push('', 'queuePackets', r.queue.packets);
  return rows.join('\n') + '\n';
}
