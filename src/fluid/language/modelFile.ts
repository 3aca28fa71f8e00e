import { basename } from 'node:path';
import { LineCounter, parseDocument, isMap, isSeq, isScalar } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import { InputError } from '../../errors.js';
import { readUserFile } from '../../io/userFile.js';
import { expressionTextProblem } from './expr.js';
import { termExpander, type TermDecl } from './terms.js';
import type { Located } from './located.js';

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
  /** Assignments `X = expr` to this model's states, all evaluated with the pre-event values. */
  set: { state: string; expr: Located }[];
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
}

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Largest model file read (the repository's are under 10 kB). */
export const MODEL_FILE_MAX_BYTES = 256 * 1024;
/** The keys each part of a model file may have (documented in models/README.md). */
const TOP_KEYS = ['kind', 'id', 'form', 'title', 'citation', 'description', 'params', 'states', 'delay', 'outputs', 'terms', 'equations', 'events'];
const PARAM_KEYS = ['unit', 'doc', 'default', 'min', 'max', 'scenario'];
const STATE_KEYS = ['unit', 'doc', 'initial', 'min', 'max', 'discrete'];
const EVENT_KEYS = ['name', 'when', 'guard', 'set', 'reduction'];

/** Read and shape-check a model file. Throws InputError naming the file and line. */
export function readModelFile(path: string, text = readUserFile(path, '(file)', MODEL_FILE_MAX_BYTES, basename(path))): ModelFile {
  const file = basename(path);
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new InputError('yaml', e.message.split('\n')[0]!, `${file}:${lc.linePos(e.pos[0]).line}`);
  }
  const lineOf = (n: YamlNode | null | undefined): number => (n?.range ? lc.linePos(n.range[0]).line : 1);
  const err = (field: string, problem: string, n?: YamlNode | null): InputError => new InputError(field, problem, `${file}:${lineOf(n)}`);
  const root = doc.contents;
  if (!isMap(root)) throw err('(file)', 'must be a YAML mapping');

  // Unknown keys are errors, as in scenario files: a misspelt `equation:` must not vanish.
  const onlyKeys = (m: YamlNode, known: readonly string[], where: string): void => {
    if (!isMap(m)) return;
    for (const it of m.items) {
      const k = isScalar(it.key) ? String(it.key.value) : String(it.key);
      if (!known.includes(k)) throw err(where ? `${where}.${k}` : k, `is not a known key (known: ${known.join(', ')})`, it.key as YamlNode);
    }
  };
  onlyKeys(root, TOP_KEYS, '');
  const get = (key: string): YamlNode | undefined => root.get(key, true) as YamlNode | undefined;
  const str = (key: string, required = true): string => {
    const n = get(key);
    if (n === undefined) {
      if (required) throw err(key, 'is required');
      return '';
    }
    if (!isScalar(n) || typeof n.value !== 'string') throw err(key, 'must be a string', n);
    return n.value;
  };
  const kind = str('kind');
  if (kind !== 'flow' && kind !== 'bottleneck') throw err('kind', `must be 'flow' or 'bottleneck', got '${kind}'`, get('kind'));
  const id = str('id');
  if (!/^[a-z][a-z0-9-]*$/.test(id)) throw err('id', `must be a lowercase id, got '${id}'`, get('id'));

  const located = (n: YamlNode | undefined, field: string): Located => {
    if (!n || !isScalar(n) || (typeof n.value !== 'string' && typeof n.value !== 'number')) throw err(field, 'must be an expression (string or number)', n);
    const text = String(n.value);
    const problem = expressionTextProblem(text);
    if (problem) throw err(field, problem, n);
    return { text, line: lineOf(n) };
  };
  const mapEntries = (key: string): [string, YamlNode, number][] => {
    const n = get(key);
    if (n === undefined) return [];
    if (!isMap(n)) throw err(key, 'must be a mapping of name: {...}', n);
    return n.items.map((it) => {
      const k = isScalar(it.key) ? String(it.key.value) : '';
      if (!NAME.test(k)) throw err(`${key}.${k}`, 'is not a valid name (letters, digits, _)', it.key as YamlNode);
      if (!isMap(it.value)) throw err(`${key}.${k}`, 'must be a mapping', it.value as YamlNode);
      return [k, it.value as YamlNode, lineOf(it.key as YamlNode)];
    });
  };
  const field = (m: YamlNode, key: string): YamlNode | undefined => (isMap(m) ? (m.get(key, true) as YamlNode | undefined) : undefined);
  const fstr = (m: YamlNode, key: string, where: string, dflt?: string): string => {
    const n = field(m, key);
    if (n === undefined) {
      if (dflt !== undefined) return dflt;
      throw err(`${where}.${key}`, 'is required', m);
    }
    if (!isScalar(n)) throw err(`${where}.${key}`, 'must be a scalar', n);
    return String(n.value);
  };
  const fnum = (m: YamlNode, key: string, where: string, dflt?: number): number | undefined => {
    const n = field(m, key);
    if (n === undefined) return dflt;
    if (!isScalar(n) || typeof n.value !== 'number' || Number.isNaN(n.value)) throw err(`${where}.${key}`, 'must be a number', n);
    return n.value;
  };

  const params: ParamDecl[] = mapEntries('params').map(([name, m, line]) => {
    const where = `params.${name}`;
    onlyKeys(m, PARAM_KEYS, where);
    const sc = field(m, 'scenario');
    if (sc !== undefined && !(isScalar(sc) && typeof sc.value === 'boolean')) throw err(`${where}.scenario`, 'must be true or false', sc);
    const scenario = sc !== undefined && isScalar(sc) && sc.value === true;
    const p: ParamDecl = {
      name,
      unit: fstr(m, 'unit', where),
      doc: fstr(m, 'doc', where, ''),
      default: fnum(m, 'default', where),
      min: fnum(m, 'min', where, -Infinity)!,
      max: fnum(m, 'max', where, Infinity)!,
      scenario,
      line,
    };
    if (!scenario && p.default === undefined) throw err(where, 'needs a default (or scenario: true)', m);
    if (p.default !== undefined && (p.default < p.min || p.default > p.max)) throw err(`${where}.default`, `${p.default} is outside [${p.min}, ${p.max}]`, m);
    return p;
  });
  const states: StateDecl[] = mapEntries('states').map(([name, m, line]) => {
    const where = `states.${name}`;
    onlyKeys(m, STATE_KEYS, where);
    const d = field(m, 'discrete');
    return {
      name,
      unit: fstr(m, 'unit', where),
      doc: fstr(m, 'doc', where, ''),
      initial: located(field(m, 'initial'), `${where}.initial`),
      min: field(m, 'min') === undefined ? undefined : located(field(m, 'min'), `${where}.min`),
      max: field(m, 'max') === undefined ? undefined : located(field(m, 'max'), `${where}.max`),
      discrete: d !== undefined && isScalar(d) && d.value === true,
      line,
    };
  });
  if (states.length === 0 && kind === 'flow') throw err('states', 'a flow model needs at least one state');

  const list = (key: string): YamlNode[] => {
    const n = get(key);
    if (n === undefined) return [];
    if (!isSeq(n)) throw err(key, 'must be a list', n);
    return n.items as YamlNode[];
  };
  const outputs: OutputDecl[] = list('outputs').map((n, i) => {
    const l = located(n, `outputs[${i}]`);
    const m = /^\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\[([^\]]*)\])?\s*=(?!=)\s*(.+)$/s.exec(l.text);
    if (!m) throw err(`outputs[${i}]`, `must read 'name [unit] = expression', got '${l.text}'`, n);
    return { name: m[1]!, unit: m[2]?.trim() ?? '', text: m[3]!.trim(), line: l.line };
  });
  const terms: TermDecl[] = list('terms').map((n, i) => {
    const l = located(n, `terms[${i}]`);
    const m = /^\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\[([^\]]*)\])?\s*=(?!=)\s*(.+)$/s.exec(l.text);
    if (!m) throw err(`terms[${i}]`, `must read 'name [unit] = expression', got '${l.text}'`, n);
    if (['t', 'R', 'A'].includes(m[1]!)) throw err(`terms[${i}]`, `'${m[1]}' is a reserved symbol (t, R, A)`, n);
    // Checked before substitution: a term named like a state would replace the state in every equation.
    const clash = [...params, ...states, ...outputs].find((x) => x.name === m[1]);
    if (clash) throw err(`terms[${i}]`, `'${m[1]}' is declared twice (also on line ${clash.line})`, n);
    return { name: m[1]!, unit: m[2]?.trim() ?? '', text: m[3]!.trim(), line: l.line };
  });
  const expand = termExpander(terms, file);
  const equations: EquationDecl[] = list('equations').map((n, i) => {
    const l = located(n, `equations[${i}]`);
    const m = /^\s*d\s*([A-Za-z][A-Za-z0-9_]*)\s*\/\s*dt\s*=(?!=)\s*(.+)$/s.exec(l.text);
    if (!m) throw err(`equations[${i}]`, `must read 'dX/dt = expression', got '${l.text}'`, n);
    return { state: m[1]!, ...expand({ text: m[2]!.trim(), line: l.line }, `d${m[1]}/dt`) };
  });
  const events: EventDecl[] = list('events').map((n, i) => {
    const where = `events[${i}]`;
    if (!isMap(n)) throw err(where, 'must be a mapping with name, when, set', n);
    onlyKeys(n, EVENT_KEYS, where);
    const setNode = field(n, 'set');
    if (!setNode || !isSeq(setNode)) throw err(`${where}.set`, "must be a list of 'X = expression'", n);
    const set = (setNode.items as YamlNode[]).map((s, j) => {
      const l = located(s, `${where}.set[${j}]`);
      const m = /^\s*([A-Za-z][A-Za-z0-9_]*)\s*=(?!=)\s*(.+)$/s.exec(l.text);
      if (!m) throw err(`${where}.set[${j}]`, `must read 'X = expression', got '${l.text}'`, s);
      return { state: m[1]!, expr: { text: m[2]!.trim(), line: l.line } };
    });
    return {
      name: fstr(n, 'name', where),
      when: located(field(n, 'when'), `${where}.when`),
      guard: field(n, 'guard') === undefined ? undefined : located(field(n, 'guard'), `${where}.guard`),
      set,
      reduction: (() => {
        const r = field(n, 'reduction');
        if (r === undefined) return false;
        if (!isScalar(r) || typeof r.value !== 'boolean') throw err(`${where}.reduction`, 'must be true or false', r);
        return r.value;
      })(),
      line: lineOf(n),
    };
  });
  // Every continuous state has exactly one equation; discrete states have none.
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
  const delayNode = get('delay');
  return {
    path,
    kind,
    id,
    title: str('title'),
    citation: str('citation'),
    description: str('description', false),
    form: (() => {
      const f = str('form', false) || 'mean-field';
      if (f !== 'mean-field' && f !== 'hybrid') throw err('form', `must be 'mean-field' or 'hybrid', got '${f}'`, get('form'));
      return f;
    })(),
    params,
    states,
    outputs,
    terms,
    equations,
    events,
    delay: delayNode === undefined ? undefined : located(delayNode, 'delay'),
  };
}
