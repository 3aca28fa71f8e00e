import type { Located } from './located.js';
import type { EquationDecl, EventDecl, StateDecl } from './modelFile.js';
import { readAssignments, type YamlReader } from './yamlReader.js';

/**
 * Phase clocks and periodic timers of a model file (`clocks:`, `timers:`; models/README.md). Both are
 * written once and turned here into what the language already has (states, an equation, an event), so
 * the compiler, the solver and the linearisation see nothing new:
 *
 * - a clock `c: { period: P, phases: N }` is a phase index `c` (discrete, 0..N-1), a phase
 *   accumulator `c_acc` with `dc_acc/dt = 1/P` (P may change with time: BBR's phases last one min RTT)
 *   and the next boundary `c_next`; the event `clock c ticks` fires when `c_acc >= c_next`, advances
 *   `c` modulo N and runs the clock's own `set` assignments (BBR: the per-round filter updates);
 * - a timer `m: { every: E, for: F }` is off for E, then on (`m` = 1) for F, and so on, the first
 *   start at `at` (default E); `m_at` holds the time of the next switch, and the event
 *   `timer m switches` flips `m` and runs the timer's `set` (evaluated with the values before the
 *   switch: `m == 0` there means the timer is starting).
 *
 * Periods must be provably > 0 (checked by the compiler with the sign analysis, sign.ts).
 */

export interface ClockDecl {
  name: string;
  period: Located;
  phases: number;
  /** Phase at t = 0 (0..phases-1). */
  start: number;
  set: { state: string; expr: Located }[];
  line: number;
}

export interface TimerDecl {
  name: string;
  every: Located;
  for: Located;
  /** First start; default `every`. */
  at?: Located;
  set: { state: string; expr: Located }[];
  line: number;
}

const CLOCK_KEYS = ['period', 'phases', 'start', 'set', 'doc'];
const TIMER_KEYS = ['every', 'for', 'at', 'set', 'doc'];

export function readClocks(r: YamlReader): ClockDecl[] {
  return r.mapEntries('clocks').map(([name, m, line]) => {
    const where = `clocks.${name}`;
    r.onlyKeys(m, CLOCK_KEYS, where);
    const phases = r.fnum(m, 'phases', where, 1)!;
    if (!Number.isInteger(phases) || phases < 1 || phases > 1000) throw r.err(`${where}.phases`, `must be a whole number in [1, 1000], got ${phases}`, r.field(m, 'phases') ?? m);
    const start = r.fnum(m, 'start', where, 0)!;
    if (!Number.isInteger(start) || start < 0 || start >= phases) throw r.err(`${where}.start`, `must be a phase in [0, ${phases - 1}], got ${start}`, r.field(m, 'start') ?? m);
    return { name, period: r.located(r.field(m, 'period'), `${where}.period`), phases, start, set: readAssignments(r, m, where, false), line };
  });
}

export function readTimers(r: YamlReader): TimerDecl[] {
  return r.mapEntries('timers').map(([name, m, line]) => {
    const where = `timers.${name}`;
    r.onlyKeys(m, TIMER_KEYS, where);
    const at = r.field(m, 'at');
    return {
      name,
      every: r.located(r.field(m, 'every'), `${where}.every`),
      for: r.located(r.field(m, 'for'), `${where}.for`),
      ...(at === undefined ? {} : { at: r.located(at, `${where}.at`) }),
      set: readAssignments(r, m, where, false),
      line,
    };
  });
}

const state = (name: string, unit: string, initial: Located, discrete: boolean, doc: string, line: number): StateDecl => ({ name, unit, doc, initial, discrete, line });

/** Adds clock `c`'s states, its accumulator's equation and its tick event. */
export function desugarClock(c: ClockDecl, states: StateDecl[], equations: EquationDecl[], events: EventDecl[]): void {
  const at = (text: string): Located => ({ text, line: c.line });
  states.push(
    state(c.name, '1', at(String(c.start)), true, `phase of clock ${c.name} (0..${c.phases - 1})`, c.line),
    state(`${c.name}_acc`, '1', at(String(c.start)), false, `phases of clock ${c.name} elapsed`, c.line),
    state(`${c.name}_next`, '1', at(String(c.start + 1)), true, `clock ${c.name}'s next phase boundary`, c.line),
  );
  equations.push({ state: `${c.name}_acc`, text: `1 / (${c.period.text})`, line: c.period.line });
  events.push({
    name: `clock ${c.name} ticks`,
    when: at(`${c.name}_acc >= ${c.name}_next`),
    set: [
      { state: c.name, expr: at(c.phases === 1 ? '0' : `${c.name} + 1 >= ${c.phases} ? 0 : ${c.name} + 1`) },
      { state: `${c.name}_next`, expr: at(`${c.name}_next + 1`) },
      ...c.set,
    ],
    reduction: false,
    line: c.line,
  });
}

/** Adds timer `m`'s states and its switch event. */
export function desugarTimer(m: TimerDecl, states: StateDecl[], events: EventDecl[]): void {
  const at = (text: string): Located => ({ text, line: m.line });
  states.push(
    state(m.name, '1', at('0'), true, `1 while timer ${m.name} is on`, m.line),
    state(`${m.name}_at`, 's', m.at ?? { text: `(${m.every.text})`, line: m.every.line }, true, `time of timer ${m.name}'s next switch`, m.line),
  );
  events.push({
    name: `timer ${m.name} switches`,
    when: at(`t >= ${m.name}_at`),
    set: [
      { state: m.name, expr: at(`1 - ${m.name}`) },
      { state: `${m.name}_at`, expr: at(`t + (${m.name} == 1 ? (${m.every.text}) : (${m.for.text}))`) },
      ...m.set,
    ],
    reduction: false,
    line: m.line,
  });
}
