import { basename } from 'node:path';
import { isMap, isScalar } from 'yaml';
import { InputError } from '../../errors.js';
import { readUserFile } from '../../io/userFile.js';
import { termExpander, type ExpandedText, type TermDecl } from './terms.js';
import { desugarClock, desugarTimer, readClocks, readTimers, type ClockDecl, type TimerDecl } from './clocks.js';
import type { Located } from './located.js';
import { readAssignments, yamlReader, type YamlReader } from './yamlReader.js';

/**
 * The declarative model file (`models/<id>.model.yaml`), as read from disk and checked for shape.
 * Expressions are kept as text with their line; {@link ../compiler/compileSystem.ts} parses and checks them with mathjs.
 * The format is documented in models/README.md.
 */

export interface ParamDecl {
  name: string;
  unit: string;
  doc: string;
  /** Default value; undefined for scenario-bound parameters (the engine must supply them). */
  default?: number;
  min: number;
  max: number;
  /** True when the engine sets it from the Scenario (see models/README.md for the fixed list). */
  scenario: boolean;
  line: number;
}

export interface StateDecl {
  name: string;
  unit: string;
  doc: string;
  /** Initial value: an expression of parameters. */
  initial: Located;
  /** Optional bounds (expressions of parameters): the solver holds the state inside them. */
  min?: Located;
  max?: Located;
  /** Discrete states only change in events (dx/dt = 0); used for modes (slow start, time of last loss). */
  discrete: boolean;
  /**
   * Optional starting point of the linear analysis's equilibrium search (src/theory/stability.ts), an
   * expression of parameters: where the search should begin when the state's own equation does not
   * say (a PI controller's integrator pins the queue, not itself). Runs never read it.
   */
  guess?: Located;
  line: number;
}

export interface OutputDecl extends Located {
  name: string;
  unit: string;
}

export interface EquationDecl extends Located {
  state: string;
  /** The right-hand side as the file writes it, when `text` has terms substituted (src/fluid/language/terms.ts). */
  written?: string;
}

export interface EventDecl {
  name: string;
  /** A comparison `a >= b` (or <=, >, <): fires when it becomes true, located on the dense output. */
  when: Located;
  /** Optional boolean expression: the event is armed only while it holds. */
  guard?: Located;
  /** Assignments `X = expr` to this model's states, all evaluated with the pre-event values (terms substituted; `written` as the file has it). */
  set: { state: string; expr: ExpandedText }[];
  /** A window reduction (congestion event): counted as a fast recovery in the RunResult. */
  reduction: boolean;
  line: number;
}

export interface ModelFile {
  path: string;
  kind: 'flow' | 'bottleneck';
  id: string;
  title: string;
  citation: string;
  /** Free text: what the model assumes. */
  description: string;
  /**
   * 'mean-field' (expected-value DDE; default) or 'hybrid' (discrete loss events): hybrid models report
   * their reduction events as fast recoveries, mean-field ones the expected number of loss indications.
   */
  form: 'mean-field' | 'hybrid';
  params: ParamDecl[];
  states: StateDecl[];
  outputs: OutputDecl[];
  /** Named sub-expressions, already substituted into `equations` (kept for display). */
  terms: TermDecl[];
  equations: EquationDecl[];
  events: EventDecl[];
  /** Bottleneck only: queueing delay in seconds, an expression of its states and parameters. */
  delay?: Located;
  /** Phase clocks (src/fluid/language/clocks.ts), already turned into states, an equation and an event each. */
  clocks?: ClockDecl[];
  /** Periodic timers, already turned into states and an event each. */
  timers?: TimerDecl[];
}


/** Largest model file read (the repository's are under 10 kB). */
export const MODEL_FILE_MAX_BYTES = 256 * 1024;
/** The keys each part of a model file may have (documented in models/README.md). */
const TOP_KEYS = ['kind', 'id', 'form', 'title', 'citation', 'description', 'params', 'states', 'delay', 'outputs', 'terms', 'equations', 'events', 'clocks', 'timers'];
const PARAM_KEYS = ['unit', 'doc', 'default', 'min', 'max', 'scenario'];
const STATE_KEYS = ['unit', 'doc', 'initial', 'min', 'max', 'discrete', 'guess'];
const EVENT_KEYS = ['name', 'when', 'guard', 'set', 'reduction'];

/** Read and shape-check a model file. Throws InputError naming the file and line. */
export function readModelFile(path: string, text = readUserFile(path, '(file)', MODEL_FILE_MAX_BYTES, basename(path))): ModelFile {
  const r = yamlReader(basename(path), text);
  r.onlyKeys(r.root, TOP_KEYS, '');
  const kind = r.str('kind');
  if (kind !== 'flow' && kind !== 'bottleneck') throw r.err('kind', `must be 'flow' or 'bottleneck', got '${kind}'`, r.get('kind'));
  const id = r.str('id');
  if (!/^[a-z][a-z0-9-]*$/.test(id)) throw r.err('id', `must be a lowercase id, got '${id}'`, r.get('id'));
  const params = readParams(r);
  const states = readStates(r);
  if (states.length === 0 && kind === 'flow') throw r.err('states', 'a flow model needs at least one state');
  const outputs = readOutputs(r);
  const terms = readTerms(r, [...params, ...states, ...outputs]);
  const expand = termExpander(terms, r.file);
  const equations = readEquations(r, expand);
  const events = readEvents(r);
  const clocks = readClocks(r);
  const timers = readTimers(r);
  for (const c of clocks) desugarClock(c, states, equations, events);
  for (const tm of timers) desugarTimer(tm, states, events);
  // Terms are substituted into the assignments of events, clocks and timers as into equations: the
  // same text written out, so the same numbers (a clock's `set` names a long condition once).
  for (const ev of events) ev.set = ev.set.map((a) => ({ state: a.state, expr: expand(a.expr, `${ev.name}: ${a.state} =`) }));
  checkDeclarations(r.file, params, states, outputs, terms, equations);
  const delayNode = r.get('delay');
  return {
    path,
    kind,
    id,
    title: r.str('title'),
    citation: r.str('citation'),
    description: r.str('description', false),
    form: (() => {
      const f = r.str('form', false) || 'mean-field';
      if (f !== 'mean-field' && f !== 'hybrid') throw r.err('form', `must be 'mean-field' or 'hybrid', got '${f}'`, r.get('form'));
      return f;
    })(),
    params,
    states,
    outputs,
    terms,
    equations,
    events,
    ...(clocks.length > 0 ? { clocks } : {}),
    ...(timers.length > 0 ? { timers } : {}),
    delay: delayNode === undefined ? undefined : r.located(delayNode, 'delay'),
  };
}

function readParams(r: YamlReader): ParamDecl[] {
  return r.mapEntries('params').map(([name, m, line]) => {
    const where = `params.${name}`;
    r.onlyKeys(m, PARAM_KEYS, where);
    const sc = r.field(m, 'scenario');
    if (sc !== undefined && !(isScalar(sc) && typeof sc.value === 'boolean')) throw r.err(`${where}.scenario`, 'must be true or false', sc);
    const scenario = sc !== undefined && isScalar(sc) && sc.value === true;
    const p: ParamDecl = {
      name,
      unit: r.fstr(m, 'unit', where),
      doc: r.fstr(m, 'doc', where, ''),
      default: r.fnum(m, 'default', where),
      min: r.fnum(m, 'min', where, -Infinity)!,
      max: r.fnum(m, 'max', where, Infinity)!,
      scenario,
      line,
    };
    if (!scenario && p.default === undefined) throw r.err(where, 'needs a default (or scenario: true)', m);
    if (p.default !== undefined && (p.default < p.min || p.default > p.max)) throw r.err(`${where}.default`, `${p.default} is outside [${p.min}, ${p.max}]`, m);
    return p;
  });
}

function readStates(r: YamlReader): StateDecl[] {
  return r.mapEntries('states').map(([name, m, line]) => {
    const where = `states.${name}`;
    r.onlyKeys(m, STATE_KEYS, where);
    const d = r.field(m, 'discrete');
    return {
      name,
      unit: r.fstr(m, 'unit', where),
      doc: r.fstr(m, 'doc', where, ''),
      initial: r.located(r.field(m, 'initial'), `${where}.initial`),
      min: r.field(m, 'min') === undefined ? undefined : r.located(r.field(m, 'min'), `${where}.min`),
      max: r.field(m, 'max') === undefined ? undefined : r.located(r.field(m, 'max'), `${where}.max`),
      discrete: d !== undefined && isScalar(d) && d.value === true,
      guess: r.field(m, 'guess') === undefined ? undefined : r.located(r.field(m, 'guess'), `${where}.guess`),
      line,
    };
  });
}

const NAMED = /^\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\[([^\]]*)\])?\s*=(?!=)\s*(.+)$/s;

function readOutputs(r: YamlReader): OutputDecl[] {
  return r.list('outputs').map((n, i) => {
    const l = r.located(n, `outputs[${i}]`);
    const m = NAMED.exec(l.text);
    if (!m) throw r.err(`outputs[${i}]`, `must read 'name [unit] = expression', got '${l.text}'`, n);
    return { name: m[1]!, unit: m[2]?.trim() ?? '', text: m[3]!.trim(), line: l.line };
  });
}

function readTerms(r: YamlReader, declared: readonly { name: string; line: number }[]): TermDecl[] {
  return r.list('terms').map((n, i) => {
    const l = r.located(n, `terms[${i}]`);
    const m = NAMED.exec(l.text);
    if (!m) throw r.err(`terms[${i}]`, `must read 'name [unit] = expression', got '${l.text}'`, n);
    if (['t', 'R', 'A'].includes(m[1]!)) throw r.err(`terms[${i}]`, `'${m[1]}' is a reserved symbol (t, R, A)`, n);
    // Checked before substitution: a term named like a state would replace the state in every equation.
    const clash = declared.find((x) => x.name === m[1]);
    if (clash) throw r.err(`terms[${i}]`, `'${m[1]}' is declared twice (also on line ${clash.line})`, n);
    return { name: m[1]!, unit: m[2]?.trim() ?? '', text: m[3]!.trim(), line: l.line };
  });
}

function readEquations(r: YamlReader, expand: ReturnType<typeof termExpander>): EquationDecl[] {
  return r.list('equations').map((n, i) => {
    const l = r.located(n, `equations[${i}]`);
    const m = /^\s*d\s*([A-Za-z][A-Za-z0-9_]*)\s*\/\s*dt\s*=(?!=)\s*(.+)$/s.exec(l.text);
    if (!m) throw r.err(`equations[${i}]`, `must read 'dX/dt = expression', got '${l.text}'`, n);
    return { state: m[1]!, ...expand({ text: m[2]!.trim(), line: l.line }, `d${m[1]}/dt`) };
  });
}

function readEvents(r: YamlReader): EventDecl[] {
  return r.list('events').map((n, i) => {
    const where = `events[${i}]`;
    if (!isMap(n)) throw r.err(where, 'must be a mapping with name, when, set', n);
    r.onlyKeys(n, EVENT_KEYS, where);
    const set = readAssignments(r, n, where, true);
    return {
      name: r.fstr(n, 'name', where),
      when: r.located(r.field(n, 'when'), `${where}.when`),
      guard: r.field(n, 'guard') === undefined ? undefined : r.located(r.field(n, 'guard'), `${where}.guard`),
      set,
      reduction: (() => {
        const red = r.field(n, 'reduction');
        if (red === undefined) return false;
        if (!isScalar(red) || typeof red.value !== 'boolean') throw r.err(`${where}.reduction`, 'must be true or false', red);
        return red.value;
      })(),
      line: r.lineOf(n),
    };
  });
}

/** Every continuous state has exactly one equation, discrete states none; no name is declared twice. */
function checkDeclarations(file: string, params: ParamDecl[], states: StateDecl[], outputs: OutputDecl[], terms: TermDecl[], equations: EquationDecl[]): void {
  for (const s of states) {
    const eqs = equations.filter((e) => e.state === s.name);
    if (!s.discrete && eqs.length !== 1) throw new InputError(`states.${s.name}`, `needs exactly one equation 'd${s.name}/dt = ...', found ${eqs.length}`, `${file}:${s.line}`);
    if (s.discrete && eqs.length > 0) throw new InputError(`equations`, `'${s.name}' is discrete: it changes only in events`, `${file}:${eqs[0]!.line}`);
  }
  for (const e of equations) {
    if (!states.some((s) => s.name === e.state)) throw new InputError('equations', `'d${e.state}/dt' is for an undeclared state '${e.state}'`, `${file}:${e.line}`);
  }
  const seen = new Map<string, number>();
  for (const [nm, line] of [...params.map((p) => [p.name, p.line] as const), ...states.map((s) => [s.name, s.line] as const), ...outputs.map((o) => [o.name, o.line] as const), ...terms.map((x) => [x.name, x.line] as const)]) {
    if (seen.has(nm)) throw new InputError(nm, `is declared twice (also on line ${seen.get(nm)})`, `${file}:${line}`);
    seen.set(nm, line);
  }
}
