import type { ComparisonCase } from '../compare/run.js';
import { InputError } from '../errors.js';
import type { Series } from '../result/types.js';
import { scenarioStability } from '../theory/stability.js';
import { escapeHtml, type Section } from './html.js';

/**
 * The report's "Linear stability" section: for each case whose fluid model is mean-field, the
 * equilibrium of its N flows, the gain and phase margins of the linearised loop (src/theory/stability.ts,
 * after Hollot et al., INFOCOM 2001), and beside them whether the packet engine's queue oscillates.
 */

/** A queue swinging over more than this share of its buffer (5th to 95th percentile) oscillates. */
export const OSCILLATION_SHARE = 0.25;

/**
 * The packet queue's swing after the transient: the 5th-95th percentile range of the queue trace
 * over the last half of the run, as a share of the buffer (time-weighted samples of the step trace).
 */
export function queueSwing(q: Series, bufferPackets: number): number | null {
  const from = q.t.length > 0 ? q.t[0]! + 0.5 * (q.t[q.t.length - 1]! - q.t[0]!) : 0;
  const v = q.v.filter((_, i) => q.t[i]! >= from).sort((a, b) => a - b);
  if (v.length < 10 || !(bufferPackets > 0)) return null;
  const at = (p: number) => v[Math.min(v.length - 1, Math.floor(p * v.length))]!;
  return (at(0.95) - at(0.05)) / bufferPackets;
}

const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : x > 0 ? '∞' : 'n/a');

export function stabilitySection(cases: readonly ComparisonCase[], warnings: string[]): Section | null {
  const rows: string[] = [];
  for (const c of cases) {
    const s = c.scenario;
    const swing = c.packet.status === 'ok' ? queueSwing(c.packet.queue.packets, s.bottleneck.queue.limitPackets) : null;
    const seen = swing === null ? 'n/a' : `${swing >= OSCILLATION_SHARE ? 'oscillates' : 'steady'} (swing ${(100 * swing).toFixed(0)}% of the buffer)`;
    let cells: string[];
    try {
      const a = scenarioStability(s);
      const e = a.equilibrium;
      cells = [
        `${e.regime} queue, W0 ${fmt(e.W0)}, q0 ${fmt(e.q0)}, p0 ${e.p0.toExponential(2)}, R0 ${(1000 * e.R0).toFixed(1)} ms`,
        `${fmt(a.phaseMarginDeg)}°`, fmt(a.gainMargin, 2), a.stable ? 'stable' : 'unstable',
      ];
      if (a.note) warnings.push(`stability ${s.name}/${c.comparison.variant}: ${a.note}`);
    } catch (err) {
      // A hybrid model has no equilibrium; other failures are reported, never dropped.
      if (!(err instanceof InputError)) throw err;
      cells = [escapeHtml(err.problem), '', '', 'n/a'];
    }
    rows.push(`<tr><td>${escapeHtml(s.name)}</td><td>${escapeHtml(c.comparison.variant)}</td>${cells.map((x) => `<td>${x}</td>`).join('')}<td>${escapeHtml(seen)}</td></tr>`);
  }
  if (rows.length === 0) return null;
  const html =
    '<p>The fluid model\'s equilibrium for the scenario\'s flows and the margins of its loop linearised there (mathjs derivatives of the model file\'s equations, delayed terms at the equilibrium RTT, broken at the drop probability, as Hollot, Misra, Towsley and Gong, INFOCOM 2001). ' +
    `A drop-tail queue held full is a cliff (unstable: the synchronised sawtooth); an empty one has no queue feedback. Beside it, the packet engine's queue: it oscillates when its 5th-95th percentile swing over the last half of the run exceeds ${100 * OSCILLATION_SHARE}% of the buffer.</p>` +
    `<table><thead><tr><th>scenario</th><th>variant</th><th>equilibrium</th><th>phase margin</th><th>gain margin</th><th>linear loop</th><th>packet queue</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  return { id: 'stability-section', title: 'Linear stability', html };
}
