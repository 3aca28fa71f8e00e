import { LineCounter, parseDocument, isMap, isSeq, isScalar } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import { InputError } from '../../errors.js';
import { expressionTextProblem } from './expr.js';
import type { Located } from './located.js';

/** A declared name: letters, digits and _, starting with a letter. */
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The parsed YAML document and the shape checks every part of a model file uses (errors name file:line). */
export interface YamlReader {
  file: string;
  root: YamlNode;
  err(field: string, problem: string, n?: YamlNode | null): InputError;
  lineOf(n: YamlNode | null | undefined): number;
  onlyKeys(m: YamlNode, known: readonly string[], where: string): void;
  get(key: string): YamlNode | undefined;
  str(key: string, required?: boolean): string;
  located(n: YamlNode | undefined, field: string): Located;
  mapEntries(key: string): [string, YamlNode, number][];
  field(m: YamlNode, key: string): YamlNode | undefined;
  fstr(m: YamlNode, key: string, where: string, dflt?: string): string;
  fnum(m: YamlNode, key: string, where: string, dflt?: number): number | undefined;
  list(key: string): YamlNode[];
}

/** Parses `text` (the file `file`) as YAML; a syntax error or a non-mapping root is an InputError naming file:line. */
export function yamlReader(file: string, text: string): YamlReader {
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
  const get = (key: string): YamlNode | undefined => root.get(key, true) as YamlNode | undefined;
  const field = (m: YamlNode, key: string): YamlNode | undefined => (isMap(m) ? (m.get(key, true) as YamlNode | undefined) : undefined);
  return {
    file,
    root: root as YamlNode,
    err,
    lineOf,
    // Unknown keys are errors, as in scenario files: a misspelt `equation:` must not vanish.
    onlyKeys(m, known, where) {
      if (!isMap(m)) return;
      for (const it of m.items) {
        const k = isScalar(it.key) ? String(it.key.value) : String(it.key);
        if (!known.includes(k)) throw err(where ? `${where}.${k}` : k, `is not a known key (known: ${known.join(', ')})`, it.key as YamlNode);
      }
    },
    get,
    str(key, required = true) {
      const n = get(key);
      if (n === undefined) {
        if (required) throw err(key, 'is required');
        return '';
      }
      if (!isScalar(n) || typeof n.value !== 'string') throw err(key, 'must be a string', n);
      return n.value;
    },
    located(n, fieldName) {
      if (!n || !isScalar(n) || (typeof n.value !== 'string' && typeof n.value !== 'number')) throw err(fieldName, 'must be an expression (string or number)', n);
      const text = String(n.value);
      const problem = expressionTextProblem(text);
      if (problem) throw err(fieldName, problem, n);
      return { text, line: lineOf(n) };
    },
    mapEntries(key) {
      const n = get(key);
      if (n === undefined) return [];
      if (!isMap(n)) throw err(key, 'must be a mapping of name: {...}', n);
      return n.items.map((it) => {
        const k = isScalar(it.key) ? String(it.key.value) : '';
        if (!NAME.test(k)) throw err(`${key}.${k}`, 'is not a valid name (letters, digits, _)', it.key as YamlNode);
        if (!isMap(it.value)) throw err(`${key}.${k}`, 'must be a mapping', it.value as YamlNode);
        return [k, it.value as YamlNode, lineOf(it.key as YamlNode)];
      });
    },
    field,
    fstr(m, key, where, dflt) {
      const n = field(m, key);
      if (n === undefined) {
        if (dflt !== undefined) return dflt;
        throw err(`${where}.${key}`, 'is required', m);
      }
      if (!isScalar(n)) throw err(`${where}.${key}`, 'must be a scalar', n);
      return String(n.value);
    },
    fnum(m, key, where, dflt) {
      const n = field(m, key);
      if (n === undefined) return dflt;
      if (!isScalar(n) || typeof n.value !== 'number' || Number.isNaN(n.value)) throw err(`${where}.${key}`, 'must be a number', n);
      return n.value;
    },
    list(key) {
      const n = get(key);
      if (n === undefined) return [];
      if (!isSeq(n)) throw err(key, 'must be a list', n);
      return n.items as YamlNode[];
    },
  };
}

/** `set: ['X = expression', ...]` of an event, a clock or a timer. */
export function readAssignments(r: YamlReader, owner: YamlNode, where: string, required: boolean): { state: string; expr: Located }[] {
  const setNode = r.field(owner, 'set');
  if (setNode === undefined && !required) return [];
  if (!setNode || !isSeq(setNode)) throw r.err(`${where}.set`, "must be a list of 'X = expression'", owner);
  return (setNode.items as YamlNode[]).map((s, j) => {
    const l = r.located(s, `${where}.set[${j}]`);
    const m = /^\s*([A-Za-z][A-Za-z0-9_]*)\s*=(?!=)\s*(.+)$/s.exec(l.text);
    if (!m) throw r.err(`${where}.set[${j}]`, `must read 'X = expression', got '${l.text}'`, s);
    return { state: m[1]!, expr: { text: m[2]!.trim(), line: l.line } };
  });
}
