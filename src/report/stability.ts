import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ComparisonCase } from '../compare/run.js';
import { InputError } from '../errors.js';
import { runFluid } from '../fluid/run/runFluid.js';
import type { RunResult, Series } from '../result/types.js';
import { loopMargins } from '../theory/frequencyResponse.js';
import { scenarioStability, type LoopAnalysis } from '../theory/stability.js';
import { HMTG, hmtgDesignBound, hmtgLoop, hmtgScenario, MGT_RENO } from '../theory/stabilityExample.js';
import { escapeHtml, type Section } from '../page/html.js';
import type { Scenario } from '../scenario/types.js';
import { variantsWithoutEngine } from '../scenario/flowCc.js';

/**
 * The report's "Linear stability" section: for each case whose fluid model is mean-field, the
 * equilibrium of its N flows, the crossover and the gain and phase margins of the linearised loop
 * (src/theory/stability.ts, after Hollot et al., INFOCOM 2001), and beside them whether the packet
 * engine's queue oscillates; then Hollot et al.'s own example computed from the same model files
 * beside their closed-form loop and the fluid engine's queue.
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
const rad = (w: number | null) => (w === null ? '—' : w.toPrecision(3));

/** The cells of one analysed loop: crossover, phase margin, gain margin, verdict. */
function loopCells(a: { crossoverRadS: number | null; phaseMarginDeg: number; gainMargin: number }, stable: boolean, feedback = true): string[] {
  if (!feedback) return [SPAN3('no loop through p'), stable ? 'stable (plant poles)' : 'unstable (plant poles)'];
  // NaN margins: the analysis found no linear loop to measure (a full drop-tail queue's sawtooth; the note says).
  if (Number.isNaN(a.phaseMarginDeg)) return [SPAN3('no linear loop'), stable ? 'stable' : 'unstable'];
  return [rad(a.crossoverRadS), `${fmt(a.phaseMarginDeg)}°`, fmt(a.gainMargin, 2), stable ? 'stable' : 'unstable'];
}

/** A cell over the crossover and both margins (a finished `<td>`; other cells are wrapped by {@link td}). */
const SPAN3 = (html: string) => `<td colspan="3">${html}</td>`;
const td = (x: string) => (x.startsWith('<td') ? x : `<td>${x}</td>`);

const swingText = (swing: number | null) => (swing === null ? 'n/a' : `${swing >= OSCILLATION_SHARE ? 'oscillates' : 'steady'} (swing ${(100 * swing).toFixed(0)}% of the buffer)`);

/** A scenario's loop analysis, or what it threw (an InputError is said in its row; anything else fails the section). */
type Analysed = { analysis: LoopAnalysis } | { error: unknown };

function analysed(s: Scenario): Analysed {
  try {
    return { analysis: scenarioStability(s) };
  } catch (error) {
    return { error };
  }
}

/**
 * What the section computes from the scenarios alone, not from the runs: the loop analyses (keyed by
 * the scenario's JSON) and the example's rows. A report computes it while the worker threads run its
 * simulations (report/write.ts), one analysis per event-loop turn so that the workers' next runs
 * are still handed out meanwhile; the section then reads it instead of computing again.
 */
export interface StabilityPrep {
  analyses: Map<string, Analysed>;
  example?: { rows: string[] } | { error: unknown };
}

/** A fluid run of the example (its scenario with MGT's Reno parameters): in this thread, or on a report's worker threads (write.ts). */
export type ExampleFluidRun = (s: Scenario, params: Record<string, number>) => RunResult | Promise<RunResult>;

const runHere = (s: Scenario, params: Record<string, number>): RunResult => runFluid(s, { params });

/**
 * The section's run-independent part for the cases' scenarios (those whose flows all have a fluid
 * model: the others' rows say "no model"), and the example's rows when `example`. The example's
 * fluid runs are asked of `fluidRun` first, so that on worker threads they run while this thread
 * analyses the loops.
 */
export async function prepareStability(scenarios: readonly Scenario[], example: boolean, fluidRun: ExampleFluidRun = runHere): Promise<StabilityPrep> {
  const prep: StabilityPrep = { analyses: new Map() };
  const swings = example ? exampleSwings(fluidRun) : [];
  for (const s of scenarios) {
    if (variantsWithoutEngine(s, 'fluid').length > 0) continue;
    await nextTurn();
    const key = JSON.stringify(s);
    if (!prep.analyses.has(key)) prep.analyses.set(key, analysed(s));
  }
  if (example) {
    const rows: string[] = [];
    try {
      for (const [k, point] of EXAMPLE_POINTS.entries()) {
        await nextTurn();
        rows.push(exampleRow(point, await swings[k]!));
      }
      prep.example = { rows };
    } catch (error) {
      prep.example = { error };
    }
  }
  return prep;
}

/**
 * The section. `example` (default on) adds Hollot et al.'s example: seven loop analyses (~0.1 s each)
 * and four 1500 s fluid runs of its queue (~1 s each).
 */
export function stabilitySection(cases: readonly ComparisonCase[], warnings: string[], opts: { example?: boolean; prep?: StabilityPrep } = {}): Section | null {
  const rows: string[] = [];
  const notes: string[] = [];
  const noteRef = (text: string): string => {
    let k = notes.indexOf(text);
    if (k < 0) k = notes.push(text) - 1;
    return `<sup>${k + 1}</sup>`;
  };
  for (const c of cases) {
    const s = c.scenario;
    const swing = c.packet.status === 'ok' ? queueSwing(c.packet.queue.packets, s.bottleneck.queue.limitPackets) : null;
    let cells: string[];
    // No model of a flow's variant: nothing to linearise, said in the row (not a warning).
    const noModel = c.comparison.flags.find((f) => f.code === 'no-model');
    if (noModel) {
      rows.push(`<tr><td>${escapeHtml(s.name)}</td><td>${escapeHtml(c.comparison.variant)}</td>${['no model', SPAN3(''), `n/a${noteRef(noModel.message)}`].map(td).join('')}<td>${escapeHtml(swingText(swing))}</td></tr>`);
      continue;
    }
    try {
      const got = opts.prep?.analyses.get(JSON.stringify(s)) ?? analysed(s);
      if ('error' in got) throw got.error;
      const a = got.analysis;
      const e = a.equilibrium;
      cells = [`${e.regime} queue, W0 ${fmt(e.W0)}, q0 ${fmt(e.q0)}, p0 ${e.p0.toExponential(2)}, R0 ${(1000 * e.R0).toFixed(1)} ms`, ...loopCells(a, a.stable, a.feedback)];
      if (a.note) cells[cells.length - 1] += noteRef(a.note);
    } catch (err) {
      // What the analysis does not cover (a hybrid model, no equilibrium, flows that differ) is said in the row, by reason;
      // anything else is a bug and propagates to the caller, which reports the section as not computed.
      if (!(err instanceof InputError)) throw err;
      cells = ['n/a', SPAN3(''), `n/a${noteRef(err.problem)}`];
      // A scenario the fluid engine has no model for (a finite transfer, a rate step) is said in its row, not warned about.
      if (!/hybrid model|identical flows/.test(err.problem) && err.name !== 'NoFluidModelError') warnings.push(`linear stability of ${s.name}/${c.comparison.variant}: ${err.problem}`);
    }
    rows.push(`<tr><td>${escapeHtml(s.name)}</td><td>${escapeHtml(c.comparison.variant)}</td>${cells.map(td).join('')}<td>${escapeHtml(swingText(swing))}</td></tr>`);
  }
  const example = opts.example === false ? '' : exampleHtml(preparedRows(opts.prep));
  if (rows.length === 0 && !example) return null;
  const head = '<th>equilibrium</th><th>crossover (rad/s)</th><th>phase margin</th><th>gain margin</th><th>linear loop</th>';
  const html =
    '<p>The fluid model\'s equilibrium for the scenario\'s flows and the loop linearised there: mathjs derivatives of the model file\'s own equations, delayed terms at the equilibrium RTT, the loop broken at the drop probability p, as Hollot, Misra, Towsley and Gong (INFOCOM 2001). ' +
    'Whole-byte growth (floor) is read through the middle of its steps (src/theory/linearModel.ts says why). ' +
    `A drop-tail queue held full is a cliff (the synchronised sawtooth); an empty one, or losses that are random only, leave no loop through p, and the verdict is then the plant's own. Beside it, the packet engine's queue: it oscillates when its 5th-95th percentile swing over the last half of the run exceeds ${100 * OSCILLATION_SHARE}% of the buffer.</p>` +
    (rows.length > 0 ? `<table><thead><tr><th>scenario</th><th>variant</th>${head}<th>packet queue</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : '') +
    (notes.length > 0 ? `<ol class="muted">${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ol>` : '') +
    example;
  return { id: 'stability-section', title: 'Linear stability', html };
}

/** The points of Hollot et al.'s example the section shows: their design point, fewer flows, longer RTTs. */
export const EXAMPLE_POINTS: readonly { N: number; TpS: number; fluid: boolean; queue: 'red' | 'droptail' }[] = [
  { N: 60, TpS: 0.2, fluid: true, queue: 'red' },
  { N: 20, TpS: 0.2, fluid: false, queue: 'red' },
  { N: 10, TpS: 0.2, fluid: false, queue: 'red' },
  { N: 5, TpS: 0.2, fluid: true, queue: 'red' },
  { N: 60, TpS: 0.5, fluid: false, queue: 'red' },
  { N: 60, TpS: 0.8, fluid: true, queue: 'red' },
  { N: 60, TpS: 0.2, fluid: true, queue: 'droptail' },
];

/** An example point's scenario: Hollot et al.'s setup with N flows, propagation RTT TpS and the point's queue. */
const exampleScenario = ({ N, TpS, queue }: Pick<(typeof EXAMPLE_POINTS)[number], 'N' | 'TpS' | 'queue'>): Scenario => hmtgScenario(N, TpS, undefined, queue);

/** The fluid engine's queue swing over the last fifth of a run (packets): the linear verdict's nonlinear check. */
function swingOf(r: RunResult): number {
  const q = r.queue.packets.v;
  const tail = q.slice(Math.floor(q.length * 0.8));
  return Math.max(...tail) - Math.min(...tail);
}

/** The swing of each example point's fluid run (null where the point has none), all asked for at once; a failure waits for its row. */
function exampleSwings(fluidRun: ExampleFluidRun): Promise<number | null>[] {
  return EXAMPLE_POINTS.map((point) => {
    if (!point.fluid) return Promise.resolve(null);
    const swing = (async () => swingOf(await fluidRun(exampleScenario(point), MGT_RENO)))();
    swing.catch(() => {});
    return swing;
  });
}

/** The example's rows computed ahead, or undefined (then computed in the section); what they threw is thrown here. */
function preparedRows(prep: StabilityPrep | undefined): string[] | undefined {
  const ex = prep?.example;
  if (ex && 'error' in ex) throw ex.error;
  return ex?.rows;
}

/** One row of the example: the loop from the model files, their closed form, the fluid engine's queue. */
function exampleRow({ N, TpS, queue }: (typeof EXAMPLE_POINTS)[number], swing: number | null): string {
  const ours: LoopAnalysis = scenarioStability(exampleScenario({ N, TpS, queue }), { params: MGT_RENO });
  const R0 = ours.equilibrium.R0;
  // Their closed form is RED's loop; a drop-tail queue has none of theirs to compare.
  let theirs = [SPAN3('— (their loop is RED\'s)'), '—'];
  if (queue === 'red') {
    const m = loopMargins((w) => hmtgLoop(N, R0, w), R0);
    theirs = loopCells(m, m.encirclements === 0 && m.rollsOff);
  }
  const seen = swing === null ? '' : `${swing > 10 ? 'oscillates' : 'settles'} (swing ${swing.toFixed(swing < 1 ? 2 : 0)} packets)`;
  const cells = [queue === 'red' ? 'RED' : 'drop-tail', String(N), `${(1000 * TpS).toFixed(0)} ms`, `${fmt(ours.equilibrium.q0)} / ${(1000 * R0).toFixed(1)} ms`, ...loopCells(ours, ours.stable), ...theirs, seen];
  return `<tr>${cells.map(td).join('')}</tr>`;
}

function exampleHtml(rows: string[] = EXAMPLE_POINTS.map((p) => exampleRow(p, p.fluid ? swingOf(runHere(exampleScenario(p), MGT_RENO)) : null))): string {
  return (
    '<h3>Hollot et al.\'s example from the same model files</h3>' +
    `<p>N Reno flows (reno.model.yaml with MGT's loss response: per-packet losses, no timeouts, +1 segment per RTT) on a ${HMTG.C} packets/s link, propagation RTT Tp, RED with L<sub>red</sub> = ${HMTG.Lred.toExponential(2)} and filter pole K = ${HMTG.K} rad/s, designed for N ≥ ${HMTG.N} and R0 ≤ ${HMTG.RplusS} s ` +
    `(their design rule bounds L<sub>red</sub> by ${hmtgDesignBound().toExponential(2)} there). Beside the loop linearised from the model files, their closed form L(s) = L<sub>red</sub>(R0 C)<sup>3</sup>/(2N)<sup>2</sup> e<sup>−sR0</sup>/((s/K+1)(sR0<sup>2</sup>C/(2N)+1)(sR0+1)) at the same operating point, and the fluid engine's queue over the last 300 s of a 1500 s run; the last row is the same link with a drop-tail buffer of 1000 packets instead of RED (held full, the loss rate a cliff of the arrival rate) ` +
    '(the packet engine at these points needs runs of 600 s or more, the RED average\'s time constant 1/K being 200 s: <code>npm run bench -- stability</code> runs it and prints its queue beside these verdicts).</p>' +
    '<table><thead><tr><th>queue</th><th>N</th><th>Tp</th><th>q0 / R0</th><th>crossover (rad/s)</th><th>phase margin</th><th>gain margin</th><th>linear loop</th>' +
    '<th>their crossover</th><th>their phase margin</th><th>their gain margin</th><th>their verdict</th><th>fluid queue</th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}
