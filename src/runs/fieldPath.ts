import { InputError } from '../errors.js';

/**
 * Generic access to a Scenario field by dotted path, so that any field can be swept
 * (`--set tcp.minRtoS=0.2,1`, `--set flows.*.access.delayS=5ms..50ms:log:4`). A `*` segment stands
 * for every element of an array; a numeric segment picks one element.
 */

type Json = unknown;

/** Whether `seg` names a field of `n`: an own key of an object, or an index (not `length`) of an array. */
function hasField(n: Json, seg: string): boolean {
  if (Array.isArray(n)) return /^\d+$/.test(seg) && Number(seg) < n.length;
  return n !== null && typeof n === 'object' && Object.hasOwn(n, seg);
}

function splitPath(path: string): string[] {
  const parts = path.split('.');
  if (path === '' || parts.some((p) => p === '')) throw new InputError('--set', `has an empty segment in path "${path}"`);
  return parts;
}

/** Every value the path reaches in `root` (several when the path has a `*`). */
export function getPath(root: Json, path: string): Json[] {
  let nodes: Json[] = [root];
  for (const seg of splitPath(path)) {
    const next: Json[] = [];
    for (const n of nodes) {
      if (seg === '*') {
        if (!Array.isArray(n)) throw new InputError('--set', `path "${path}": "*" needs an array`);
        next.push(...n);
      } else if (hasField(n, seg)) {
        next.push((n as Record<string, Json>)[seg]);
      } else {
        throw new InputError('--set', `path "${path}" does not exist in the scenario (no "${seg}")`);
      }
    }
    nodes = next;
  }
  return nodes;
}

/**
 * Sets `value` at every place `path` reaches, in place. The leaf must already exist (typos fail
 * loudly instead of adding a field no engine reads), except under `ccParams`, whose keys are free.
 */
export function setPath(root: Json, path: string, value: Json): void {
  const parts = splitPath(path);
  const leaf = parts.pop()!;
  const parents = parts.length === 0 ? [root] : getPath(root, parts.join('.'));
  for (const p of parents) {
    if (p === null || typeof p !== 'object') {
      throw new InputError('--set', `path "${path}" does not lead to an object`);
    }
    const obj = p as Record<string, Json>;
    if (leaf === '*') {
      if (!Array.isArray(obj)) throw new InputError('--set', `path "${path}": "*" needs an array`);
      for (let i = 0; i < obj.length; i++) (obj as Json[])[i] = value;
      continue;
    }
    const free = parts[0] === 'ccParams' && parts.length === 1;
    if (!hasField(obj, leaf) && !free) {
      throw new InputError('--set', `path "${path}" does not exist in the scenario (no "${leaf}")`);
    }
    // Defined, not assigned: `ccParams.__proto__` must become a key that validation then refuses.
    Object.defineProperty(obj, leaf, { value, enumerable: true, writable: true, configurable: true });
  }
}

/** The kind of value at a path, used to pick a parser for `--set` values. */
export function leafKind(root: Json, path: string): 'number' | 'string' | 'boolean' {
  const parts = path.split('.');
  if (parts[0] === 'ccParams' && parts.length === 2) return 'number';
  const vals = getPath(root, path);
  if (vals.length === 0) throw new InputError('--set', `path "${path}" reaches no value (empty array?)`);
  const kinds = new Set(vals.map((v) => typeof v));
  const k = [...kinds][0];
  if (kinds.size !== 1 || (k !== 'number' && k !== 'string' && k !== 'boolean')) {
    throw new InputError('--set', `path "${path}" must reach numbers, strings or booleans, got ${[...kinds].join('/')}`);
  }
  return k;
}
